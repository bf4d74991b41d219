package transcript

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"muse/api"
	"muse/session"
	"muse/ui/sanitize"
)

// The image of an MCP tool's result travels with a JSON export, and an
// import stores it, as a prompt's attachments do.
func TestJSONExportCarriesToolImages(t *testing.T) {
	src := newTestStore(t)
	w := session.NewWriter(src, fullParams())
	png := tinyPNG()
	img, err := w.SaveAttachment(session.Attachment{Name: "fs__read_media_file image 1", Kind: session.AttachImage, MediaType: "image/png"}, png)
	if err != nil {
		t.Fatal(err)
	}
	call := api.ContentBlock{Type: api.BlockToolUse, ID: "toolu_1", Name: "fs__read_media_file", Input: json.RawMessage(`{}`)}
	w.Append(session.Entry{ID: "e1", Kind: session.KindUser, Text: "the logo?"})
	w.Append(session.Entry{ID: "e2", Kind: session.KindAssistant, Message: &api.Message{Role: "assistant", Content: []api.ContentBlock{call}, StopReason: "tool_use"}})
	w.Append(session.Entry{ID: "e3", Kind: session.KindTool, ToolResults: []session.ToolResult{{ToolUseID: "toolu_1", Name: call.Name, Approval: "yes", Images: []session.Attachment{img}}}})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	sess, err := src.Load(w.ID())
	if err != nil {
		t.Fatal(err)
	}
	var md bytes.Buffer
	if err := Export(sess, "md", &md, sanitize.ForExport, src); err != nil || !strings.Contains(md.String(), "- Attached ![fs\\_\\_read\\_media\\_file image 1](file://") && !strings.Contains(md.String(), "- Attached ![fs__read_media_file image 1](file://") {
		t.Errorf("the Markdown export should link the tool's image: %v\n%s", err, md.String())
	}
	var b bytes.Buffer
	if err := Export(sess, "json", &b, sanitize.ForExport, src); err != nil {
		t.Fatal(err)
	}
	dst := newTestStore(t)
	got, err := Import(dst, &b)
	if err != nil {
		t.Fatal(err)
	}
	if m := dst.MissingAttachments(got.ID, got.Entries); len(m) != 0 {
		t.Fatalf("after import the tool image is missing: %+v", m)
	}
	if data, err := dst.ReadAttachment(got.ID, img); err != nil || !bytes.Equal(data, png) {
		t.Errorf("imported tool image: %v", err)
	}
}
