package session

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"os"
	"testing"

	"muse/api"
)

// toolRound writes a prompt, a reply that calls a tool, and the tool's
// result with an image stored as an attachment; it returns the image.
func toolRound(t *testing.T, w *Writer) Attachment {
	t.Helper()
	img, err := w.SaveAttachment(Attachment{Name: "fs__read_media_file image 1", Kind: AttachImage, MediaType: "image/png"}, pngBytes)
	if err != nil {
		t.Fatal(err)
	}
	call := api.ContentBlock{Type: api.BlockToolUse, ID: "toolu_1", Name: "fs__read_media_file", Input: json.RawMessage(`{}`)}
	for _, e := range []Entry{
		{Kind: KindUser, Text: "show me the logo"},
		{Kind: KindAssistant, Message: &api.Message{Content: []api.ContentBlock{call}, StopReason: "tool_use"}},
		{Kind: KindTool, ToolResults: []ToolResult{{ToolUseID: "toolu_1", Name: call.Name, Output: "[image: image/png]", Approval: "yes", Images: []Attachment{img}}}},
	} {
		if _, err := w.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	return img
}

// The image of a tool's result is stored once beside the journal, which
// names it; a fork keeps it, an
// export embeds it (Files), and a missing one is reported.
func TestToolResultImagesAreStoredAsAttachments(t *testing.T) {
	s, _ := newTestStore(t)
	w := NewWriter(s, Params{Model: "m"})
	img := toolRound(t, w)
	w.Close()
	journal, _ := os.ReadFile(s.path(w.ID()))
	if bytes.Contains(journal, []byte(base64.StdEncoding.EncodeToString(pngBytes))) || !bytes.Contains(journal, []byte(img.SHA256)) {
		t.Errorf("the journal should name the image, not hold it:\n%s", journal)
	}
	sess, err := s.Load(w.ID())
	if err != nil {
		t.Fatal(err)
	}
	if files := sess.Entries[2].Files(); len(files) != 1 || files[0] != img {
		t.Errorf("Files = %+v", files)
	}
	if data, err := s.ReadAttachment(sess.ID, img); err != nil || !bytes.Equal(data, pngBytes) {
		t.Errorf("the tool image reads back as %d bytes, %v", len(data), err)
	}
	fork, err := s.Fork(w.ID(), 0, "")
	if err != nil {
		t.Fatal(err)
	}
	if data, err := s.ReadAttachment(fork.ID, img); err != nil || !bytes.Equal(data, pngBytes) {
		t.Errorf("the fork's tool image: %v", err)
	}
	os.Remove(s.AttachmentPath(w.ID(), img))
	if m := s.MissingAttachments(w.ID(), sess.Entries); len(m) != 1 || m[0].Name != img.Name {
		t.Errorf("missing %+v", m)
	}
}

// A journal written before tool images were stored as attachments kept
// them in the result's content, in base64: it loads with them (the
// engine sends them, see ui/engine's TestToolResultImagesAreSent).
func TestOldJournalToolImagesStillLoad(t *testing.T) {
	s, _ := newTestStore(t)
	w := NewWriter(s, Params{Model: "m"})
	toolRound(t, w)
	w.Close()
	data := base64.StdEncoding.EncodeToString(pngBytes)
	old := `"content":[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"` + data + `"}}]`
	journal, _ := os.ReadFile(s.path(w.ID()))
	i := bytes.Index(journal, []byte(`"images":[`))
	j := bytes.Index(journal[i:], []byte("]")) + i + 1
	journal = append(append(append([]byte{}, journal[:i]...), old...), journal[j:]...)
	if err := os.WriteFile(s.path(w.ID()), journal, 0o600); err != nil {
		t.Fatal(err)
	}
	sess, err := s.Load(w.ID())
	if err != nil {
		t.Fatal(err)
	}
	if r := sess.Entries[2].ToolResults[0]; len(r.Images) != 0 || len(r.Content) != 1 {
		t.Fatalf("old result %+v", r)
	}
	if c := sess.Entries[2].ToolResults[0].Content[0]; c.Type != api.BlockImage || c.Source == nil || c.Source.Data != data {
		t.Errorf("old content %+v", c)
	}
}
