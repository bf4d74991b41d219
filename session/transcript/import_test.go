package transcript

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"muse/api"
	"muse/session"
	"muse/ui/sanitize"
)

// importable returns a saved session with every kind of entry, hostile text
// included.
func importable(t *testing.T, s *session.Store) *session.Session {
	t.Helper()
	p := fullParams()
	p.Image = &session.ImageParams{Model: "wanx-v1", Size: "1024*1024", Watermark: boolp(false)}
	at := func(m int) time.Time { return clockStart.Add(time.Duration(m) * time.Minute) }
	entries := []session.Entry{
		{ID: "e1", Kind: session.KindUser, Time: at(1), Text: "Run ls \x1b]0;pwned\x07 please\u009b2J"},
		fullAssistant("e2"),
		{ID: "e3", Kind: session.KindTool, Time: at(3), ToolResults: []session.ToolResult{
			{ToolUseID: "toolu_01A", Name: "read_file", Approval: "yes", Output: "a\x1b]52;c;aGk=\x07b\x1b[2J\tc\n", ExitCode: 0},
			{ToolUseID: "toolu_01B", Name: "rm", Approval: "no", IsError: true},
		}},
		{ID: "e4", Kind: session.KindImage, Time: at(4), ImagePrompt: "a red fox \u2028in snow",
			ImageParams: &session.ImageParams{Model: "wanx-v1", Size: "1024*1024", NegativePrompt: "blurry", PromptExtend: boolp(true)},
			Images: []session.Image{
				{Index: 0, URL: "https://img.example/1.png", Path: foxPath(s), Width: 1024, Height: 1024, RevisedPrompt: "A red fox"},
				{Index: 1, Error: "content moderation"},
			}},
		{ID: "e5", Kind: session.KindError, Time: at(5), Error: &session.ErrorInfo{Status: 529, Type: "overloaded_error", Message: "Overloaded", Hint: "try again later"}, RequestID: "req_x"},
		{ID: "e6", Kind: session.KindNotice, Time: at(6), Text: "model changed"},
		{ID: "e7", Kind: session.KindAssistant, Time: at(7), Status: session.StatusCancelled,
			Message: &api.Message{Model: "claude-haiku", Content: []api.ContentBlock{{Type: api.BlockText, Text: "Partial"}}}},
	}
	return saved(t, s, p, "Fox \x1b]0;pwned\x07 \u009b and ls", entries...)
}

// foxPath is where the image of importable lies: in the store's images
// folder, the only place an import keeps a path to.
func foxPath(s *session.Store) string {
	return filepath.Join(s.ImageDir("s1"), "fox 1.png")
}

func exportString(t *testing.T, sess *session.Session, format string) string {
	t.Helper()
	var b bytes.Buffer
	if err := Export(sess, format, &b, sanitize.ForExport, nil); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

// withoutIdentity blanks the id and the created and updated times of a
// JSON export.
func withoutIdentity(t *testing.T, export string) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(export), &m); err != nil {
		t.Fatal(err)
	}
	delete(m, "id")
	delete(m, "created")
	delete(m, "updated")
	return mustJSON(t, m)
}

func TestImportRoundTrip(t *testing.T) {
	s := newTestStore(t)
	orig := importable(t, s)
	first := exportString(t, orig, "json")

	imported, err := Import(s, strings.NewReader(first))
	if err != nil {
		t.Fatal(err)
	}
	if imported.ID == orig.ID {
		t.Fatal("the import has the id of the original")
	}
	loaded, err := s.Load(imported.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(loaded.Warnings) > 0 {
		t.Errorf("warnings loading the import: %q", loaded.Warnings)
	}
	if loaded.Title != orig.Title+session.ImportedSuffix || len(loaded.Entries) != len(orig.Entries) {
		t.Fatalf("title %q, %d entries; want %q, %d", loaded.Title, len(loaded.Entries), orig.Title+session.ImportedSuffix, len(orig.Entries))
	}
	for i, e := range loaded.Entries {
		if e.ID != orig.Entries[i].ID || e.Kind != orig.Entries[i].Kind {
			t.Errorf("entry %d is %s %s, want %s %s", i, e.ID, e.Kind, orig.Entries[i].ID, orig.Entries[i].Kind)
		}
	}
	if img := loaded.Entries[3].Images[0]; img.Path != foxPath(s) || img.Width != 1024 {
		t.Errorf("image lost its file: %+v", img)
	}
	// Only the title differs: it is marked as imported.
	marked := *orig
	marked.Title += session.ImportedSuffix
	first = exportString(t, &marked, "json")
	second := exportString(t, loaded, "json")
	if a, b := withoutIdentity(t, first), withoutIdentity(t, second); a != b {
		t.Errorf("the export of the import differs:\n got %s\nwant %s", b, a)
	}
	// The Markdown differs only in the line giving the times.
	stripTimes := regexp.MustCompile(`(?m)^Created .*$`)
	if a, b := stripTimes.ReplaceAllString(exportString(t, &marked, "md"), ""), stripTimes.ReplaceAllString(exportString(t, loaded, "md"), ""); a != b {
		t.Errorf("the Markdown of the import differs:\n got %s\nwant %s", b, a)
	}
	infos, err := s.List()
	if err != nil || len(infos) != 2 {
		t.Errorf("List after import: %d sessions, %v", len(infos), err)
	}
}

func TestImportEmptySession(t *testing.T) {
	s := newTestStore(t)
	orig := &session.Session{ID: "s", Created: clockStart, Updated: clockStart, Params: session.Params{Model: "m"}}
	got, err := Import(s, strings.NewReader(exportString(t, orig, "json")))
	if err != nil {
		t.Fatal(err)
	}
	if got.Title != session.Untitled+session.ImportedSuffix || len(got.Entries) != 0 || got.Params.Model != "m" {
		t.Errorf("imported %+v", got)
	}
}

func TestImportRefuses(t *testing.T) {
	const head = "{\n  \"id\": \"x\",\n  \"entries\": [\n"
	for _, tc := range []struct {
		name, in string
		want     []string
	}{
		{"empty", " \n", []string{"input is empty"}},
		{"not JSON", "hello", []string{"line 1, column 1: not valid JSON", "invalid character 'h'"}},
		{"cut short", head + `    {"id": "e1"`, []string{"line 4, column 16: not valid JSON", "unexpected end"}},
		{"trailing garbage", "{\"id\": \"x\"}\n\nxyz", []string{"line 3, column 1: not valid JSON", "after top-level value"}},
		{"two values", `{"id": "x"} {}`, []string{"line 1, column 13:", "after top-level value"}},
		{"array", " []", []string{"line 1, column 2: the input is an array"}},
		{"no id", `{"title": "t"}`, []string{"line 1, column 1:", `no "id"`}},
		{"unknown field", "{\"id\": \"x\",\n \"frob\": 1}", []string{"line 2, column 2: unknown field \"frob\""}},
		{"field twice", `{"id": "x", "id": "y"}`, []string{"line 1, column 13:", `"id" appears twice`}},
		{"wrong type", `{"id": "x", "title": 5}`, []string{"line 1, column 22: the title is a JSON number, want string"}},
		{"bad time", `{"id": "x", "created": "yesterday"}`, []string{"line 1, column 24:", `"created" time`}},
		{"entries object", `{"id": "x", "entries": {}}`, []string{"line 1, column 24:", "is an object, want an array"}},
		{"entry not object", head + `    "e1"]}`, []string{"line 4, column 5: entry 1 is a string"}},
		{"unknown kind", head + "    {\"id\": \"e1\", \"kind\": \"user\"},\n    {\"id\": \"e2\", \"kind\": \"frobnicate\"}\n]}",
			[]string{"line 5, column 18: entry 2 is of kind \"frobnicate\"", "user, assistant"}},
		{"no kind", head + `    {"id": "e1"}]}`, []string{"line 4, column 5: entry 1 is of kind \"\""}},
		{"no entry id", head + `    {"kind": "user", "text": "hi"}]}`, []string{"line 4, column 5: entry 1 has no id"}},
		{"same entry id", head + "    {\"id\": \"e1\", \"kind\": \"user\"},\n    {\"id\": \"e1\", \"kind\": \"notice\"}]}",
			[]string{"line 5, column 6: entry 2 has the id \"e1\" of entry 1"}},
		{"unknown entry field", head + "    {\"id\": \"e1\", \"kind\": \"error\",\n     \"error\": {\"message\": \"m\", \"bogus\": 1}}]}",
			[]string{"line 5, column 32: entry 1: unknown field \"bogus\""}},
		{"entry wrong type", head + `    {"id": "e1", "kind": "user", "text": 5}]}`, []string{"line 4, column 42: entry 1: field \"text\" is a JSON number, want string"}},
		{"negative max_tokens", "{\"id\": \"x\",\n \"params\": {\"max_tokens\": -5}}", []string{"line 2, column 2: the settings: max_tokens -5: at least 1"}},
		{"top_k zero", `{"id": "x", "params": {"top_k": 0}}`, []string{"line 1, column 13: the settings: top_k 0: at least 1"}},
		{"temperature 2", `{"id": "x", "params": {"temperature": 2}}`, []string{"temperature 2: from 0 to 1"}},
		{"bad block", head + `    {"id": "e1", "kind": "assistant", "message": {"content": [{"type": 1}]}}]}`, []string{"line 4, column 72: entry 1: field \"message.content.type\" is a JSON number"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newTestStore(t)
			sess, err := Import(s, strings.NewReader(tc.in))
			if err == nil {
				t.Fatalf("imported %+v", sess)
			}
			for _, w := range tc.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not say %q", err, w)
				}
			}
			if !strings.HasPrefix(err.Error(), "import session: ") || !strings.Contains(err.Error(), "muse sessions export --format json") {
				t.Errorf("error %q does not say what import reads", err)
			}
			if infos, err := s.List(); err != nil || len(infos) != 0 {
				t.Errorf("a refused import left %d sessions (%v)", len(infos), err)
			}
		})
	}
}

// BenchmarkImport imports a session of 10,000 messages.
func BenchmarkImport(b *testing.B) {
	s, err := session.Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	src := &session.Session{ID: "src", Title: "long", Params: session.Params{Model: "m"}}
	for i := range 10_000 {
		e := session.Entry{ID: fmt.Sprintf("e%d", i), Kind: session.KindUser, Text: strings.Repeat("word ", 40)}
		if i%2 == 1 {
			e = session.Entry{ID: e.ID, Kind: session.KindAssistant, Message: &api.Message{Content: []api.ContentBlock{{Type: api.BlockText, Text: e.Text}}}}
		}
		src.Entries = append(src.Entries, e)
	}
	var buf bytes.Buffer
	if err := Export(src, "json", &buf, sanitize.ForExport, nil); err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(buf.Len()))
	for b.Loop() {
		if _, err := Import(s, bytes.NewReader(buf.Bytes())); err != nil {
			b.Fatal(err)
		}
	}
}

// TestImportOfOneBranchIsALine checks an export of one branch whose parents
// were edited into a cycle, a self-parent and a dangling id: the entries are
// imported in order, each after the one before, and a huge title is cut to
// what a rename keeps.
func TestImportOfOneBranchIsALine(t *testing.T) {
	s := newTestStore(t)
	in := `{"id": "s", "title": "` + strings.Repeat("A", 5000) + `", "entries": [
	{"id": "a", "kind": "user", "text": "one", "parent": "b"},
	{"id": "b", "kind": "user", "text": "two", "parent": "a"},
	{"id": "c", "kind": "user", "text": "three", "parent": "c"},
	{"id": "d", "kind": "user", "text": "four", "parent": "zzz"}]}`
	sess, err := Import(s, strings.NewReader(in))
	if err != nil {
		t.Fatal(err)
	}
	loaded, err := s.Load(sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	parent := ""
	for _, e := range loaded.Entries {
		texts = append(texts, e.Text)
		if e.Parent != parent {
			t.Errorf("entry %s follows %q, want %q", e.ID, e.Parent, parent)
		}
		parent = e.ID
	}
	if got := strings.Join(texts, " "); got != "one two three four" {
		t.Errorf("entries %q", got)
	}
	if n := len([]rune(loaded.Title)); n != 200 {
		t.Errorf("title of %d runes, want 200", n)
	}
	var b strings.Builder
	if err := ExportBranches(loaded, "json", &b, nil, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := Import(s, strings.NewReader(b.String())); err != nil {
		t.Errorf("its export of every branch does not import: %v", err)
	}
}

// An export of a session continued on another machine merges into the
// session it came from: what it adds is added, as a branch where it
// belongs, nothing the session held is changed, and merging it again adds
// nothing. --copy (Import) keeps making a new session.
func TestImportMergesIntoItsSession(t *testing.T) {
	a, b := newTestStore(t), newTestStore(t)
	sess := saved(t, a, session.Params{Model: "m"}, "mine",
		session.Entry{Kind: session.KindUser, Text: "one"},
		session.Entry{Kind: session.KindUser, Text: "two"})
	data, err := os.ReadFile(filepath.Join(a.Dir(), sess.ID+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(b.Dir(), sess.ID+".jsonl"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	w, err := b.OpenWriter(sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	other, err := w.AppendAt(session.Entry{Kind: session.KindUser, Text: "elsewhere"}, sess.All[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	w.SetTitle("theirs")
	w.Close()
	there, err := b.Load(sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	var exp bytes.Buffer
	if err := ExportBranches(there, "json", &exp, nil, nil); err != nil {
		t.Fatal(err)
	}
	for round := range 2 {
		got, merged, added, err := ImportMerge(a, bytes.NewReader(exp.Bytes()))
		if err != nil || !merged || got.ID != sess.ID || added != 1-round {
			t.Fatalf("round %d: merged %v, added %d, err %v", round, merged, added, err)
		}
		if len(got.All) != 3 || got.Title != "mine" || got.Head != other.ID {
			t.Errorf("round %d: %d entries, title %q, head %s", round, len(got.All), got.Title, got.Head)
		}
		for _, e := range got.All {
			if e.ID == other.ID && e.Parent != sess.All[0].ID {
				t.Errorf("the branch follows %s, want %s", e.Parent, sess.All[0].ID)
			}
		}
	}
	cp, err := Import(a, bytes.NewReader(exp.Bytes()))
	if err != nil || cp.ID == sess.ID {
		t.Errorf("copy: %v, id %s", err, cp.ID)
	}
}
