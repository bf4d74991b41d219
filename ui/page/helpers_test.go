package page

import (
	"bytes"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"muse/api"
	"muse/session"
)

var clock = time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)

// canary is what the hostile reply tries to set, on window and on the
// document's title; the browser tests check that it never is.
const canary = "musePwned"

// hostileReply tries every way a text could run script, load something
// or break the page: tags, event handlers, javascript: and data: links,
// closing tags of the page's own elements, CSS, bidi overrides, NUL bytes
// and terminal escapes.
const hostileReply = "### Hostile bytes\n\n" +
	"<script>window." + canary + "=1;document.title='" + canary + "'</script>\n\n" +
	"An image <img src=x onerror=\"window." + canary + "=1\"> and an <svg onload=\"window." + canary + "=1\"></svg> inline.\n\n" +
	"[a javascript: link](javascript:window." + canary + "=1) and [a data: link](data:text/html,<script>alert(1)</script>) " +
	"and [a vbscript link](vbscript:msgbox) and ![a remote image](https://tracker.example/pixel.png) " +
	"and <a href=\"javascript:window." + canary + "=1\">raw a</a>.\n\n" +
	"</details></article></main><p>broken out?</p>\n\n" +
	"<style>body{display:none!important}*{background:url(https://tracker.example/css)}</style>\n\n" +
	"<div style=\"position:fixed;inset:0;background:red\">overlay</div>\n\n" +
	"Bidi: access\u202Egnp.exe\u202C level \u2066user\u2069 and a NUL\x00byte and an escape \x1b]0;pwned\x07 here.\n\n" +
	"<iframe src=\"https://evil.example/\"></iframe><object data=\"https://evil.example/x\"></object>\n\n" +
	"<!-- a comment --> &lt;escaped&gt; and `<b>code</b>`\n\n" +
	"```html\n<script>window." + canary + "=1</script></pre></div></details>\n```\n"

// pngBytes returns a w×h PNG with a diagonal gradient.
func pngBytes(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{uint8(40 + 180*x/w), uint8(90 + 100*y/h), 200, 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// fixture is a saved session with markdown, code, thinking, a tool round,
// a kept branch, an attached image, a generated image and the hostile
// reply, and the store that holds its files.
type fixture struct {
	store *session.Store
	sess  *session.Session
	// texts are the words each message of the active branch holds, in
	// order, and other what the other branch holds.
	texts []string
	other string
}

func textReply(model, text string, blocks ...api.ContentBlock) session.Entry {
	content := append(blocks, api.ContentBlock{Type: api.BlockText, Text: text})
	return session.Entry{Kind: session.KindAssistant, Time: clock, Message: &api.Message{Role: api.RoleAssistant, Model: model,
		Content: content, StopReason: api.StopEndTurn, Usage: api.Usage{InputTokens: 1200, OutputTokens: 340}}}
}

func newFixture(t testing.TB) fixture {
	t.Helper()
	root := t.TempDir()
	store, err := session.Open(filepath.Join(root, "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	w := session.NewWriter(store, session.Params{Model: "claude-sonnet-4-5"})
	add := func(e session.Entry) session.Entry {
		t.Helper()
		if e.Time.IsZero() {
			e.Time = clock
		}
		got, err := w.Append(e)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	photo, err := w.SaveAttachment(session.Attachment{Name: "sketch.png", Kind: session.AttachImage, MediaType: "image/png", Width: 320, Height: 200}, pngBytes(t, 320, 200))
	if err != nil {
		t.Fatal(err)
	}
	q1 := add(session.Entry{Kind: session.KindUser, Text: "FIRST-PROMPT: how do I read a file in **Go**? Here is my sketch.", Attachments: []session.Attachment{photo,
		{Name: "notes.txt", Kind: session.AttachText, MediaType: "text/plain", SHA256: strings.Repeat("ab", 32), Bytes: 1234}}})
	add(textReply("claude-sonnet-4-5", "OTHER-BRANCH: an older answer that was regenerated."))
	a1, err := w.AppendAt(textReply("claude-sonnet-4-5",
		"FIRST-REPLY: use `os.ReadFile`.\n\n| way | when |\n|---|:---:|\n| `os.ReadFile` | small files |\n| `bufio.Scanner` | line by line |\n\n"+
			"- [x] open the file\n- [ ] read it\n\n~~ioutil~~ is deprecated; see https://go.dev/doc and <https://pkg.go.dev/os>.\n\n"+
			"```go\n// ReadAll reads a file.\nfunc main() {\n\tdata, err := os.ReadFile(\"notes.txt\") // 42\n\tif err != nil {\n\t\tlog.Fatal(err)\n\t}\n\tfmt.Println(string(data))\n}\n```\n",
		api.ContentBlock{Type: api.BlockThinking, Thinking: "THINKING-TEXT: the user wants the **simplest** way."}), q1.ID)
	if err != nil {
		t.Fatal(err)
	}
	_ = a1
	add(session.Entry{Kind: session.KindUser, Text: "SECOND-PROMPT: what is in /etc/hostname?"})
	call := session.Entry{Kind: session.KindAssistant, Message: &api.Message{Role: api.RoleAssistant, Model: "claude-sonnet-4-5",
		Content: []api.ContentBlock{
			{Type: api.BlockText, Text: "I will read it."},
			{Type: api.BlockToolUse, ID: "toolu_1", Name: "read_file", Input: json.RawMessage(`{"path":"/etc/hostname"}`)},
			{Type: "server_tool_use", Raw: json.RawMessage(`{"type":"server_tool_use","id":"srvtoolu_1","name":"web_search","input":{"query":"hostname file format"}}`)},
		}, StopReason: api.StopToolUse, Usage: api.Usage{InputTokens: 900, OutputTokens: 60, CacheReadInputTokens: 800}}}
	add(call)
	add(session.Entry{Kind: session.KindTool, ToolResults: []session.ToolResult{{ToolUseID: "toolu_1", Name: "read_file", Output: "TOOL-OUTPUT: build-box-7\n", Approval: "yes"}}})
	add(textReply("claude-sonnet-4-5", "SECOND-REPLY: the host is called `build-box-7`."))
	add(session.Entry{Kind: session.KindUser, Text: "THIRD-PROMPT: draw a lighthouse at dusk"})
	dir := store.ImageDir(w.ID())
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	imgPath := filepath.Join(dir, "lighthouse.png")
	if err := os.WriteFile(imgPath, pngBytes(t, 640, 400), 0o600); err != nil {
		t.Fatal(err)
	}
	add(session.Entry{Kind: session.KindImage, ImagePrompt: "a lighthouse at dusk, IMAGE-PROMPT", ImageParams: &session.ImageParams{Model: "wan2.5-t2i", Size: "640*400"},
		Images: []session.Image{{Index: 0, Path: imgPath, Width: 640, Height: 400}}})
	add(session.Entry{Kind: session.KindUser, Text: "FOURTH-PROMPT: now be hostile"})
	add(textReply("claude-opus-4-1", "HOSTILE-REPLY\n\n"+hostileReply))
	if err := w.SetTitle("Reading files in Go <script>window." + canary + "=1</script>"); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	sess, err := store.Load(w.ID())
	if err != nil {
		t.Fatal(err)
	}
	sess.Created, sess.Updated = clock, clock.Add(25*time.Minute)
	return fixture{store: store, sess: sess,
		texts: []string{"FIRST-PROMPT", "FIRST-REPLY", "SECOND-PROMPT", "I will read it.", "TOOL-OUTPUT", "SECOND-REPLY", "THIRD-PROMPT", "IMAGE-PROMPT", "FOURTH-PROMPT", "HOSTILE-REPLY"},
		other: "OTHER-BRANCH"}
}

// render writes the page of sess with opt.
func render(t testing.TB, sess *session.Session, opt Options) string {
	t.Helper()
	var b strings.Builder
	if err := Write(&b, sess, opt); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// noisePNG returns a w×h PNG of noise, which does not compress: about
// 4 bytes a pixel.
func noisePNG(t testing.TB, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	x := uint32(2463534242)
	for i := range img.Pix {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		img.Pix[i] = uint8(x)
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
