package transcript

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"muse/api"
	"muse/session"
	"muse/ui/sanitize"
)

// everyKind returns a session, saved and loaded back, holding every kind of
// entry.
func everyKind(t *testing.T) *session.Session {
	t.Helper()
	s := newTestStore(t)
	p := fullParams()
	p.Image = &session.ImageParams{Model: "wanx-v1", Size: "1024*1024", Watermark: boolp(false)}
	cut := session.Entry{ID: "e4", Kind: session.KindAssistant, Status: session.StatusInterrupted,
		Message: &api.Message{Model: "claude-haiku", Content: []api.ContentBlock{{Type: api.BlockText, Text: "Once upon"}}, StopReason: api.StopMaxTokens}}
	cancelled := session.Entry{ID: "e5", Kind: session.KindAssistant, Status: session.StatusCancelled,
		Message: &api.Message{Content: []api.ContentBlock{{Type: api.BlockText, Text: "Partial ```code``` reply"}}}}
	image := session.Entry{ID: "e8", Kind: session.KindImage, ImagePrompt: "a red fox in snow",
		ImageParams: &session.ImageParams{Model: "wanx-v1", Size: "1024*1024", NegativePrompt: "blurry", PromptExtend: boolp(true)},
		Images: []session.Image{
			{Index: 0, URL: "https://img.example/1.png", Path: "/home/u/muse/images/fox 1.png", Width: 1024, Height: 1024, RevisedPrompt: "A red fox standing in fresh snow"},
			{Index: 1, Error: "content moderation"},
		}}
	return saved(t, s, p, "Every kind",
		userEntry("e1", "Read /tmp/x please"),
		fullAssistant("e2"),
		userEntry("e3", "Tell a story"),
		cut,
		cancelled,
		session.Entry{ID: "e6", Kind: session.KindError, Error: &session.ErrorInfo{Status: 529, Type: "overloaded_error", Message: "Overloaded", Hint: "try again later"}, RequestID: "req_x"},
		session.Entry{ID: "e7", Kind: session.KindNotice, Text: "model changed to claude-haiku"},
		image,
	)
}

func TestExportMarkdown(t *testing.T) {
	sess := everyKind(t)
	var b bytes.Buffer
	if err := Export(sess, "md", &b, sanitize.ForExport, nil); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	lines := strings.Split(md, "\n")
	if lines[0] != "# Every kind" || lines[1] != "" || lines[2] != "Created 2025-03-01 09:00 UTC · updated 2025-03-01 09:00 UTC · model claude-sonnet-4-5" {
		t.Errorf("head:\n%s", strings.Join(lines[:3], "\n"))
	}
	for _, want := range []string{
		"\n## You\n\nRead /tmp/x please\n",
		"\n## Assistant (claude-sonnet-4-5)\n",
		"<details>\n<summary>Thinking</summary>\n\nThe user wants <b> & \"quotes\".\n\n</details>\n",
		"\nHello,\nworld — ünïcödé 🎉 <b>&</b>\n",
		"**Tool call** `read_file`:\n\n```json\n{\n  \"path\": \"/tmp/x\",\n  \"lines\": [\n    1,\n    2\n  ]\n}\n```\n",
		"**server_tool_use** block:\n\n```json\n",
		"\n*Stop reason: tool_use*\n",
		"\n## Assistant (claude-haiku)\n\nOnce upon\n\n*Stop reason: max_tokens*\n\n*(interrupted)*\n",
		"\nPartial ```code``` reply\n\n*(cancelled)*\n",
		"\n> **Error 529 overloaded_error**: Overloaded (request req_x)\n>\n> try again later\n",
		"\n> **Notice**: model changed to claude-haiku\n",
		"\n## Image (wanx-v1)\n\na red fox in snow\n\n*size 1024*1024 · negative prompt: blurry*\n",
		"- [Image 1](</home/u/muse/images/fox 1.png>) 1024×1024, saved to `/home/u/muse/images/fox 1.png` ([source](<https://img.example/1.png>))\n  Revised prompt: A red fox standing in fresh snow\n",
		"- Image 2 failed: content moderation\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("the transcript lacks %q", want)
		}
	}
	if strings.Contains(md, "You are terse") || strings.Contains(md, "8192") {
		t.Error("the transcript shows settings other than the model")
	}
	if strings.Count(md, "## You") != 2 || strings.Count(md, "## Assistant") != 3 {
		t.Errorf("headings:\n%s", md)
	}
	if t.Failed() {
		t.Logf("transcript:\n%s", md)
	}
}

func TestExportJSON(t *testing.T) {
	sess := everyKind(t)
	var b bytes.Buffer
	if err := Export(sess, "json", &b, sanitize.ForExport, nil); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.String(), "{\n  \"id\": ") || !strings.Contains(b.String(), `"text": "Read /tmp/x please"`) {
		t.Errorf("not indented, unescaped JSON: %.200s", b.String())
	}
	var back session.Session
	if err := json.Unmarshal(b.Bytes(), &back); err != nil {
		t.Fatal(err)
	}
	// Raw JSON comes back indented: compare the sessions as compact JSON.
	if mustJSON(t, &back) != mustJSON(t, sess) {
		t.Errorf("the JSON export does not read back as the session:\n got %s\nwant %s", mustJSON(t, &back), mustJSON(t, sess))
	}
	if *back.Params.Image.Watermark || back.Entries[7].Images[0].Width != 1024 || !*back.Entries[7].ImageParams.PromptExtend {
		t.Errorf("image settings lost: %+v", back.Params.Image)
	}
}

func TestExportErrors(t *testing.T) {
	sess := everyKind(t)
	err := Export(sess, "pdf", &bytes.Buffer{}, sanitize.ForExport, nil)
	if err == nil || !strings.Contains(err.Error(), "md or json") || !strings.Contains(err.Error(), `"pdf"`) {
		t.Errorf("unknown format: %v", err)
	}
	if err := Export(sess, "md", failingWriter{}, sanitize.ForExport, nil); err == nil {
		t.Error("a write error was not reported")
	}
	if err := Text(sess, failingWriter{}); err == nil {
		t.Error("a write error was not reported by Text")
	}
}

type failingWriter struct{}

func (failingWriter) Write([]byte) (int, error) { return 0, errDiskFull }

var errDiskFull = &json.UnsupportedValueError{Str: "disk full"}

func TestTranscript(t *testing.T) {
	sess := everyKind(t)
	var b bytes.Buffer
	if err := Text(sess, &b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"Every kind\ncreated 2025-03-01 09:00 UTC · updated 2025-03-01 09:00 UTC · model claude-sonnet-4-5\n",
		"\nyou:\nRead /tmp/x please\n",
		"\nassistant (claude-sonnet-4-5):\n[thinking]\nThe user wants <b> & \"quotes\".\n[end of thinking]\nHello,\nworld — ünïcödé 🎉 <b>&</b>\n[tool call read_file]\n",
		"[stop reason: tool_use]\n",
		"\nassistant (claude-haiku):\nOnce upon\n[stop reason: max_tokens]\n[interrupted]\n",
		"[cancelled]\n",
		"\nerror 529 overloaded_error: Overloaded (request req_x)\nhint: try again later\n",
		"\nnotice: model changed to claude-haiku\n",
		"\nimage (wanx-v1):\na red fox in snow\nimage 1: /home/u/muse/images/fox 1.png (1024×1024) https://img.example/1.png\nrevised prompt: A red fox standing in fresh snow\nimage 2 failed: content moderation\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the transcript lacks %q", want)
		}
	}
	for _, markup := range []string{"##", "**", "<details>", "```json", "You are terse", "8192", "0.7", "1024*1024", "blurry"} {
		if strings.Contains(out, markup) {
			t.Errorf("the transcript holds %q", markup)
		}
	}
	if t.Failed() {
		t.Logf("transcript:\n%s", out)
	}
}

func boolp(v bool) *bool { return &v }

// TestExportUnsavedTimes checks that a session whose Created and Updated
// are zero, as one never saved, is exported with the times of its entries.
func TestExportUnsavedTimes(t *testing.T) {
	first := time.Date(2025, 3, 1, 9, 5, 0, 0, time.UTC)
	sess := &session.Session{ID: "s", Title: "Unsaved", Params: session.Params{Model: "m"}, Entries: []session.Entry{
		{ID: "e1", Kind: session.KindNotice, Text: "no time"},
		{ID: "e2", Kind: session.KindUser, Time: first.Add(time.Hour), Text: "later"},
		{ID: "e3", Kind: session.KindUser, Time: first, Text: "first"},
	}}
	md := exportString(t, sess, "md")
	if !strings.Contains(md, "\nCreated 2025-03-01 09:05 UTC · updated 2025-03-01 10:05 UTC · model m\n") || strings.Contains(md, "0001") {
		t.Errorf("Markdown header:\n%s", md)
	}
	var tr bytes.Buffer
	if err := Text(sess, &tr); err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(tr.String(), "Unsaved\ncreated 2025-03-01 09:05 UTC · updated 2025-03-01 10:05 UTC · model m\n") {
		t.Errorf("transcript header:\n%s", tr.String())
	}
	var back session.Session
	if err := json.Unmarshal([]byte(exportString(t, sess, "json")), &back); err != nil {
		t.Fatal(err)
	}
	if !back.Created.Equal(first) || !back.Updated.Equal(first.Add(time.Hour)) {
		t.Errorf("JSON times %v, %v", back.Created, back.Updated)
	}
	if !sess.Created.IsZero() {
		t.Error("Export changed the session")
	}

	// Without a time anywhere, none is shown.
	bare := &session.Session{ID: "b", Entries: []session.Entry{{ID: "e1", Kind: session.KindUser, Text: "hi"}}}
	if md := exportString(t, bare, "md"); strings.Contains(md, "0001") || strings.Contains(md, "reated") {
		t.Errorf("Markdown of a session without times:\n%s", md)
	}
}

// TestExportTerminalSafe checks that the Markdown export holds no escape
// sequence and the JSON export no raw control character, while the JSON
// keeps every text whole.
func TestExportTerminalSafe(t *testing.T) {
	const hostile = "\x1b]52;c;aGk=\x07\x1b]0;pwned\x07\x1b[2J\u009b2J\u2028"
	sess := &session.Session{ID: "s", Title: "T" + hostile, Created: clockStart, Updated: clockStart, Entries: []session.Entry{
		{ID: "e1", Kind: session.KindUser, Text: "a" + hostile + "\n\tb"},
		{ID: "e2", Kind: session.KindTool, ToolResults: []session.ToolResult{{Name: "ls" + hostile, Output: "out" + hostile}}},
		{ID: "e3", Kind: session.KindImage, Images: []session.Image{{Error: "bad" + hostile}}},
	}}
	md := exportString(t, sess, "md")
	for _, bad := range []string{"\x1b", "\x07", "\u009b", "pwned", "52;", "2J"} {
		if strings.Contains(md, bad) {
			t.Errorf("the Markdown holds %q:\n%q", bad, md)
		}
	}
	for _, want := range []string{"# T\n", "\na\n\n\tb\n", "**ls**", "\nout\n\n", "failed: bad\n"} {
		if !strings.Contains(md, want) {
			t.Errorf("the Markdown lacks %q:\n%q", want, md)
		}
	}
	js := exportString(t, sess, "json")
	for _, bad := range []string{"\x1b", "\x07", "\u009b", "\u2028"} {
		if strings.Contains(js, bad) {
			t.Errorf("the JSON holds %q raw", bad)
		}
	}
	if !strings.Contains(js, `\u009b2J\u2028`) {
		t.Errorf("the JSON lacks the escapes:\n%s", js)
	}
	var back session.Session
	if err := json.Unmarshal([]byte(js), &back); err != nil {
		t.Fatal(err)
	}
	if mustJSON(t, &back) != mustJSON(t, sess) {
		t.Errorf("the JSON does not read back as the session:\n got %s\nwant %s", mustJSON(t, &back), mustJSON(t, sess))
	}
}

func TestExportBranchesRoundTrip(t *testing.T) {
	s := newTestStore(t)
	w := branched(t, s)
	w.Close()
	sess, _ := s.Load(w.ID())
	var md bytes.Buffer
	if err := ExportBranches(sess, "md", &md, nil, nil); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"rust answer, again", "# Branch 2", "go answer", "second answer", "# Branch 3", "rust answer\n"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, md.String())
		}
	}
	var js bytes.Buffer
	if err := ExportBranches(sess, "json", &js, nil, nil); err != nil {
		t.Fatal(err)
	}
	var shape struct {
		Head    string          `json:"head"`
		Entries []session.Entry `json:"entries"`
	}
	if err := json.Unmarshal(js.Bytes(), &shape); err != nil || len(shape.Entries) != 7 || shape.Head != sess.Head {
		t.Fatalf("json: %v, %d entries, head %q", err, len(shape.Entries), shape.Head)
	}
	back, err := Import(s, bytes.NewReader(js.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(texts(back.All), texts(sess.All)) || !reflect.DeepEqual(texts(back.Entries), texts(sess.Entries)) {
		t.Errorf("import of every branch: %q / %q", texts(back.All), texts(back.Entries))
	}
}

func TestExportAndTranscriptShowToolResults(t *testing.T) {
	sess := &session.Session{ID: "s", Title: "t", Entries: []session.Entry{
		{ID: "e1", Kind: session.KindUser, Text: "time?"},
		{ID: "e2", Kind: session.KindTool, ToolResults: []session.ToolResult{{Name: "get_time", Output: "12:00 UTC", Approval: "yes"}}},
	}}
	var md, text strings.Builder
	if err := Export(sess, "md", &md, sanitize.ForExport, nil); err != nil {
		t.Fatal(err)
	}
	if err := Text(sess, &text); err != nil {
		t.Fatal(err)
	}
	for name, out := range map[string]string{"md": md.String(), "transcript": text.String()} {
		if !strings.Contains(out, "get_time") || !strings.Contains(out, "12:00 UTC") || !strings.Contains(out, "exit 0") {
			t.Errorf("%s lacks the tool result:\n%s", name, out)
		}
	}
}

// A tool call whose input never finished is shown with what arrived and
// marked as cut short, in the transcript and in the Markdown export alike.
func TestExportAndTranscriptMarkACutToolCall(t *testing.T) {
	sess := &session.Session{ID: "s", Title: "t", Entries: []session.Entry{
		{ID: "e1", Kind: session.KindUser, Text: "read it"},
		{ID: "e2", Kind: session.KindAssistant, Status: session.StatusInterrupted, Truncated: map[int]string{0: `{"path": "/tm`},
			Message: &api.Message{Role: api.RoleAssistant, Model: "m", Content: []api.ContentBlock{{Type: api.BlockToolUse, ID: "t1", Name: "read_file"}}}},
	}}
	var md, text strings.Builder
	if err := Export(sess, "md", &md, sanitize.ForExport, nil); err != nil {
		t.Fatal(err)
	}
	if err := Text(sess, &text); err != nil {
		t.Fatal(err)
	}
	for out, want := range map[string]string{
		md.String():   "\n**Tool call** `read_file` (input cut short, never run):\n\n```json\n{\"path\": \"/tm\n```\n",
		text.String(): "[tool call read_file, input cut short, never run]\n{\"path\": \"/tm\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("lacks %q:\n%s", want, out)
		}
	}
}
