package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

func mode(t *testing.T, path string) fs.FileMode {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

func TestOpenCreatesPrivateDirs(t *testing.T) {
	parent := filepath.Join(t.TempDir(), "data")
	if err := os.Mkdir(parent, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(parent, 0o755); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(parent, "muse", "sessions")
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if s.Dir() != dir {
		t.Errorf("Dir() = %q, want %q", s.Dir(), dir)
	}
	if m := mode(t, dir); m != 0o700 {
		t.Errorf("sessions dir mode = %o, want 700", m)
	}
	if m := mode(t, filepath.Dir(dir)); m != 0o700 {
		t.Errorf("created parent muse/ mode = %o, want 700", m)
	}
	if m := mode(t, parent); m != 0o755 {
		t.Errorf("pre-existing parent mode = %o, want it left at 755", m)
	}
}

func TestOpenTightensExistingDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sessions")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(dir); err != nil {
		t.Fatal(err)
	}
	if m := mode(t, dir); m != 0o700 {
		t.Errorf("existing dir mode = %o after Open, want 700", m)
	}
}

func TestOpenRejectsFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Open(path); err == nil {
		t.Error("Open of a regular file succeeded")
	}
	if _, err := Open(""); err == nil {
		t.Error(`Open("") succeeded`)
	}
}

func TestCreateWritesHeader(t *testing.T) {
	s, _ := newTestStore(t)
	s.now = func() time.Time { return time.Date(2025, 3, 1, 23, 30, 5, 0, time.FixedZone("X", 5*3600)) }
	sess, err := s.Create(fullParams())
	if err != nil {
		t.Fatal(err)
	}
	// The id carries the UTC time, not the local one.
	if !regexp.MustCompile(`^20250301-183005-[0-9a-f]{16}$`).MatchString(sess.ID) {
		t.Errorf("id %q is not YYYYMMDD-HHMMSS-xxxxxxxxxxxxxxxx in UTC", sess.ID)
	}
	want := time.Date(2025, 3, 1, 18, 30, 5, 0, time.UTC)
	if !sess.Created.Equal(want) || !sess.Updated.Equal(want) {
		t.Errorf("Created, Updated = %v, %v; want %v", sess.Created, sess.Updated, want)
	}
	if m := mode(t, s.path(sess.ID)); m != 0o600 {
		t.Errorf("journal mode = %o, want 600", m)
	}
	lines := journalLines(t, s, sess.ID)
	if len(lines) != 1 {
		t.Fatalf("journal has %d lines, want the header only", len(lines))
	}
	var h map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &h); err != nil {
		t.Fatal(err)
	}
	if h["v"] != 2.0 || h["type"] != "header" || h["id"] != sess.ID || h["created"] != "2025-03-01T18:30:05Z" || h["time"] != "2025-03-01T18:30:05Z" {
		t.Errorf("header = %s", lines[0])
	}
	if p, _ := h["params"].(map[string]any); p["model"] != "claude-sonnet-4-5" || p["max_tokens"] != 8192.0 {
		t.Errorf("header params = %v", h["params"])
	}
}

func TestCreateRetriesOnIDClash(t *testing.T) {
	s, _ := newTestStore(t)
	s.now = func() time.Time { return clockStart }
	s.random = bytes.NewReader([]byte{1, 2, 3, 4, 5, 6, 7, 8, 1, 2, 3, 4, 5, 6, 7, 8, 0xab, 0xcd, 0xef, 1, 2, 3, 4, 5})
	a, err := s.Create(Params{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.Create(Params{})
	if err != nil {
		t.Fatal(err)
	}
	if a.ID != "20250301-090000-0102030405060708" || b.ID != "20250301-090000-abcdef0102030405" {
		t.Errorf("ids = %s, %s; want the second to skip the clash", a.ID, b.ID)
	}
	if _, err := s.Create(Params{}); err == nil {
		t.Error("Create succeeded with an exhausted random source")
	}
	if infos, err := s.List(); err != nil || len(infos) != 2 {
		t.Errorf("List() = %v, %v; want 2 sessions and no leftovers", infos, err)
	}
}

func TestRoundTrip(t *testing.T) {
	s, _ := newTestStore(t)
	sess, err := s.Create(fullParams())
	if err != nil {
		t.Fatal(err)
	}
	entries := []Entry{
		userEntry("e1", "Read /tmp/x please <now> & then"),
		fullAssistant("e2"),
		{ID: "e3", Kind: KindError, Time: clockStart, Error: &ErrorInfo{Status: 529, Type: "overloaded_error", Message: "Overloaded", Hint: "try again"}, RequestID: "req_2"},
		{ID: "e4", Kind: KindNotice, Time: clockStart, Text: "model changed"},
	}
	for _, e := range entries {
		if err := s.Append(sess, e); err != nil {
			t.Fatal(err)
		}
	}
	if m := mode(t, s.path(sess.ID)); m != 0o600 {
		t.Errorf("journal mode after appends = %o, want 600", m)
	}
	entries = chain(entries)
	if !reflect.DeepEqual(sess.Entries, entries) {
		t.Errorf("entries in memory differ from those appended")
	}
	if want := clockStart.Add(5 * time.Second); !sess.Updated.Equal(want) {
		t.Errorf("Updated = %v, want the time of the last record %v", sess.Updated, want)
	}

	got, err := s.Load(sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, sess) {
		t.Errorf("loaded session differs:\n got %s\nwant %s", mustJSON(t, got), mustJSON(t, sess))
	}
	// Spot checks, in case both sides lost the same thing.
	m := got.Entries[1].Message
	if m.Content[0].Signature != "EqQBCkYIBRgCKkDsig==" || string(m.Content[2].Input) != `{"path":"/tmp/x","lines":[1,2]}` ||
		m.Content[3].Type != "server_tool_use" || !strings.Contains(string(m.Content[3].Raw), "web_search") ||
		m.Usage.OutputTokens != 345 || m.StopReason != "tool_use" || got.Entries[1].RequestID != "req_011CQ" ||
		got.Entries[1].LatencyMS != 2345 || *got.Entries[1].Params.TopK != 40 || got.Entries[1].Truncated[4] != `{"path":"/tm` {
		t.Errorf("assistant entry lost data: %s", mustJSON(t, got.Entries[1]))
	}
	if *got.Params.Temperature != 0.7 || got.Params.StopSequences[0] != "\n\nHuman:" {
		t.Errorf("params lost data: %+v", got.Params)
	}
	if len(got.Warnings) != 0 {
		t.Errorf("warnings on a clean journal: %q", got.Warnings)
	}

	lines := journalLines(t, s, sess.ID)
	if len(lines) != 1+len(entries) {
		t.Fatalf("journal has %d lines, want %d", len(lines), 1+len(entries))
	}
	for i, l := range lines[1:] {
		var rec struct {
			Type  string          `json:"type"`
			Time  time.Time       `json:"time"`
			Entry json.RawMessage `json:"entry"`
		}
		if err := json.Unmarshal([]byte(l), &rec); err != nil || rec.Type != "entry" || rec.Time.IsZero() || len(rec.Entry) == 0 {
			t.Errorf("line %d = %.80s (%v); want an entry record with a time", i+2, l, err)
		}
	}
	if !strings.Contains(lines[1], "<now> & then") {
		t.Errorf("HTML characters were escaped: %s", lines[1])
	}
}

func TestLargeEntry(t *testing.T) {
	s, _ := newTestStore(t)
	sess, err := s.Create(Params{})
	if err != nil {
		t.Fatal(err)
	}
	e := fullAssistant("a1")
	big := strings.Repeat("0123456789abcdef", 3<<16) // 3 MiB, larger than any buffer
	e.Message.Content[1].Text = big
	if err := s.Append(sess, e); err != nil {
		t.Fatal(err)
	}
	got, err := s.Load(sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Entries) != 1 || got.Entries[0].Message.Content[1].Text != big || len(got.Warnings) != 0 {
		t.Errorf("a 3 MiB entry did not survive: %d entries, warnings %q", len(got.Entries), got.Warnings)
	}
}

func TestReplaceByID(t *testing.T) {
	s, _ := newTestStore(t)
	sess, err := s.Create(Params{Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	partial := fullAssistant("e2")
	partial.Status = StatusStreaming
	partial.Message.Content = partial.Message.Content[1:2]
	final := fullAssistant("e2")
	steps := []Entry{userEntry("e1", "hi"), partial, partial, final, userEntry("e3", "more")}
	for _, e := range steps {
		if err := s.Append(sess, e); err != nil {
			t.Fatal(err)
		}
	}
	want := chain([]Entry{steps[0], final, steps[4]})
	if !reflect.DeepEqual(sess.Entries, want) {
		t.Errorf("in memory: ids %v, want e1 e2 e3 with e2 final", ids(sess.Entries))
	}
	got, err := s.Load(sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got.Entries, want) {
		t.Errorf("loaded: ids %v, statuses %v; want e1 e2 e3 with e2 final", ids(got.Entries), statuses(got.Entries))
	}
	if n := len(journalLines(t, s, sess.ID)); n != 6 {
		t.Errorf("journal has %d lines, want every record kept (6)", n)
	}
}

// chain returns es with each entry's parent the one before it, as Append
// writes them.
func chain(es []Entry) []Entry {
	out := make([]Entry, len(es))
	for i, e := range es {
		if i > 0 {
			e.Parent = es[i-1].ID
		}
		out[i] = e
	}
	return out
}

func ids(es []Entry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.ID)
	}
	return out
}

func statuses(es []Entry) []string {
	var out []string
	for _, e := range es {
		out = append(out, e.Status)
	}
	return out
}

func TestAppendRejectsEntryWithoutID(t *testing.T) {
	s, _ := newTestStore(t)
	sess, err := s.Create(Params{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Append(sess, Entry{Kind: KindUser, Text: "x"}); err == nil {
		t.Error("Append of an entry without id succeeded")
	}
	if len(sess.Entries) != 0 || len(journalLines(t, s, sess.ID)) != 1 {
		t.Error("a rejected entry was recorded")
	}
}

func TestAppendToMissingJournal(t *testing.T) {
	s, _ := newTestStore(t)
	sess, err := s.Create(Params{})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(s.path(sess.ID)); err != nil {
		t.Fatal(err)
	}
	err = s.Append(sess, userEntry("e1", "x"))
	if !errors.Is(err, ErrDeleted) {
		t.Errorf("Append to a removed journal: %v, want ErrDeleted", err)
	}
	// The entry is kept, waiting, and counted as not saved.
	w, _ := writerOf(s, sess)
	if n, werr := w.Unsaved(); len(sess.Entries) != 1 || n != 1 || !errors.Is(werr, ErrDeleted) {
		t.Errorf("after a failed Append: %d entries, %d unsaved (%v); want the entry kept and 1 unsaved", len(sess.Entries), n, werr)
	}
	if _, err := os.Stat(s.path(sess.ID)); !errors.Is(err, fs.ErrNotExist) {
		t.Error("Append recreated a removed journal")
	}
}

func TestTitleAndParams(t *testing.T) {
	s, _ := newTestStore(t)
	sess, err := s.Create(Params{Model: "first", MaxTokens: 100})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Append(sess, userEntry("e1", "hello")); err != nil {
		t.Fatal(err)
	}
	if err := s.SetTitle(sess, "Old title"); err != nil {
		t.Fatal(err)
	}
	p := fullParams()
	if err := s.SetParams(sess, p); err != nil {
		t.Fatal(err)
	}
	*p.Temperature = 2 // the session must not share the caller's memory
	p.StopSequences[0] = "changed"
	if err := s.SetTitle(sess, "New <title> & more"); err != nil {
		t.Fatal(err)
	}
	if sess.Title != "New <title> & more" || sess.Params.Model != "claude-sonnet-4-5" || *sess.Params.Temperature != 0.7 || sess.Params.StopSequences[0] != "\n\nHuman:" {
		t.Errorf("in memory: title %q, params %+v", sess.Title, sess.Params)
	}
	// A title is not a use: Updated is the time of the params.
	if want := clockStart.Add(4 * time.Second); !sess.Updated.Equal(want) {
		t.Errorf("Updated = %v, want %v", sess.Updated, want)
	}
	got, err := s.Load(sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, sess) {
		t.Errorf("loaded:\n got %s\nwant %s", mustJSON(t, got), mustJSON(t, sess))
	}
	lines := journalLines(t, s, sess.ID)
	if !strings.HasPrefix(lines[2], `{"type":"title","time":`) || !strings.HasPrefix(lines[3], `{"type":"params","time":`) {
		t.Errorf("records:\n%s", strings.Join(lines, "\n"))
	}
	if info := got.info(); info.Title != "New <title> & more" || info.Model != "claude-sonnet-4-5" || info.Messages != 1 {
		t.Errorf("Info() = %+v", info)
	}
}

func TestTitleCanBeCleared(t *testing.T) {
	s, _ := newTestStore(t)
	sess, err := s.Create(Params{})
	if err != nil {
		t.Fatal(err)
	}
	for _, title := range []string{"set", ""} {
		if err := s.SetTitle(sess, title); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.Load(sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got.Title != "" || len(got.Warnings) != 0 || got.info().Title != "untitled" {
		t.Errorf("title %q, warnings %q; want it cleared", got.Title, got.Warnings)
	}
}

// damagedSession returns a session with entries e1..e3 and its journal lines.
func damagedSession(t *testing.T) (*Store, *Session, []string) {
	t.Helper()
	s, _ := newTestStore(t)
	sess, err := s.Create(Params{Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []Entry{userEntry("e1", "one"), fullAssistant("e2"), userEntry("e3", "three")} {
		if err := s.Append(sess, e); err != nil {
			t.Fatal(err)
		}
	}
	return s, sess, journalLines(t, s, sess.ID)
}

func TestTornLastLine(t *testing.T) {
	s, sess, lines := damagedSession(t)
	torn := lines[2][:len(lines[2])/2] // half of the assistant record, no newline
	writeJournal(t, s, sess.ID, lines[:2], torn)

	got, err := s.Load(sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ids(got.Entries), []string{"e1"}) {
		t.Errorf("entries %v, want e1 to survive", ids(got.Entries))
	}
	want := fmt.Sprintf("dropped an unfinished last record (%d bytes)", len(torn))
	if len(got.Warnings) != 1 || got.Warnings[0] != want {
		t.Errorf("warnings %q, want [%q]", got.Warnings, want)
	}

	// Appending after the torn record must not glue onto it: opening the
	// session for writing drops it.
	if err := s.Append(got, userEntry("e4", "four")); err != nil {
		t.Fatal(err)
	}
	again, err := s.Load(sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ids(again.Entries), []string{"e1", "e4"}) {
		t.Errorf("after an append: entries %v, want e1 e4", ids(again.Entries))
	}
	if len(again.Warnings) != 0 {
		t.Errorf("opening the session to append should have dropped the torn record; warnings %q", again.Warnings)
	}
}

func TestCompleteLastLineWithoutNewline(t *testing.T) {
	s, sess, lines := damagedSession(t)
	writeJournal(t, s, sess.ID, lines[:3], lines[3])
	got, err := s.Load(sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ids(got.Entries), []string{"e1", "e2", "e3"}) || len(got.Warnings) != 0 {
		t.Errorf("entries %v, warnings %q; want the complete last record kept", ids(got.Entries), got.Warnings)
	}
	if err := s.Append(got, userEntry("e4", "four")); err != nil {
		t.Fatal(err)
	}
	again, err := s.Load(sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ids(again.Entries), []string{"e1", "e2", "e3", "e4"}) || len(again.Warnings) != 0 {
		t.Errorf("after an append: entries %v, warnings %q", ids(again.Entries), again.Warnings)
	}
}

func TestCorruptMiddleLine(t *testing.T) {
	s, sess, lines := damagedSession(t)
	damaged := []string{lines[0], lines[1], `{"type":"entry","entry":{"id":"zz", garbage`, lines[2], "\x00\x01binary", lines[3]}
	writeJournal(t, s, sess.ID, damaged, "")
	got, err := s.Load(sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ids(got.Entries), []string{"e1", "e2", "e3"}) {
		t.Errorf("entries %v, want e1 e2 e3", ids(got.Entries))
	}
	if len(got.Warnings) != 2 || !strings.HasPrefix(got.Warnings[0], "line 3: ") || !strings.HasPrefix(got.Warnings[1], "line 5: ") {
		t.Errorf("warnings %q, want lines 3 and 5 reported", got.Warnings)
	}
	if !reflect.DeepEqual(got.Entries[1], sess.Entries[1]) {
		t.Error("the entry after a corrupt line changed")
	}
}

func TestMalformedKnownRecords(t *testing.T) {
	s, sess, lines := damagedSession(t)
	damaged := []string{lines[0], `{"type":"entry","time":"2025-03-01T09:00:00Z"}`, `{"type":"title"}`, `{"type":"params","params":null}`,
		`{"type":"entry","entry":"not an object"}`, lines[0], "", "   ", lines[1]}
	writeJournal(t, s, sess.ID, damaged, "")
	got, err := s.Load(sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(ids(got.Entries), []string{"e1"}) || got.Title != "" {
		t.Errorf("entries %v, title %q", ids(got.Entries), got.Title)
	}
	for _, n := range []int{2, 3, 4, 5, 6} {
		if !hasWarning(got, fmt.Sprintf("line %d: ", n)) {
			t.Errorf("no warning for line %d; warnings %q", n, got.Warnings)
		}
	}
	if len(got.Warnings) != 5 {
		t.Errorf("warnings %q; blank lines should pass silently", got.Warnings)
	}
}

func TestUnknownRecordsSkippedSilently(t *testing.T) {
	s, sess, lines := damagedSession(t)
	future := []string{
		`{"type":"checkpoint2","time":"2030-01-01T00:00:00Z","blob":{"a":[1,2,3]}}`,
		`{"type":"fork","entry":"a string where v1 has an object","time":42}`,
	}
	withFuture := append([]string{lines[0], lines[1]}, append(future, lines[2:]...)...)
	writeJournal(t, s, sess.ID, withFuture, "")
	got, err := s.Load(sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Warnings) != 0 || !reflect.DeepEqual(got.Entries, sess.Entries) {
		t.Errorf("entries %v, warnings %q; want unknown records ignored", ids(got.Entries), got.Warnings)
	}
	if !got.Updated.Equal(sess.Updated) {
		t.Errorf("Updated = %v; an unknown record must not change it (want %v)", got.Updated, sess.Updated)
	}
}

func TestMissingHeaderRecovered(t *testing.T) {
	for name, first := range map[string][]string{
		"removed":  nil,
		"garbage":  {"#!garbage"},
		"torn":     {`{"v":1,"type":"head`},
		"notfirst": {`{"type":"title","title":"kept","time":"2025-03-01T09:00:30Z"}`},
	} {
		t.Run(name, func(t *testing.T) {
			s, sess, lines := damagedSession(t)
			writeJournal(t, s, sess.ID, append(first, lines[1:]...), "")
			got, err := s.Load(sess.ID)
			if err != nil {
				t.Fatalf("Load: %v; want recovery from the records", err)
			}
			if got.ID != sess.ID || !reflect.DeepEqual(got.Entries, sess.Entries) {
				t.Errorf("id %s, entries %v", got.ID, ids(got.Entries))
			}
			if len(got.Warnings) == 0 || !strings.Contains(got.Warnings[0], "header") || !strings.Contains(got.Warnings[0], "recovered") {
				t.Errorf("warnings %q; want the missing header reported first", got.Warnings)
			}
			if got.Created.IsZero() || got.Created.After(sess.Entries[0].Time.Add(time.Hour)) || !got.Updated.Equal(sess.Updated) {
				t.Errorf("Created %v, Updated %v", got.Created, got.Updated)
			}
			if name == "notfirst" && got.Title != "kept" {
				t.Errorf("the first record was not applied: title %q", got.Title)
			}
		})
	}
}

func TestHeaderIDMismatch(t *testing.T) {
	s, sess, lines := damagedSession(t)
	other := "20250101-000000-aaaaaa"
	writeJournal(t, s, other, lines, "")
	got, err := s.Load(other)
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != other || len(got.Warnings) != 1 || !strings.Contains(got.Warnings[0], sess.ID) {
		t.Errorf("id %s, warnings %q; want the file name's id and a warning", got.ID, got.Warnings)
	}
}

func TestDamagedJournals(t *testing.T) {
	s, _ := newTestStore(t)
	for name, data := range map[string]string{
		"empty":      "",
		"garbage":    "hello world\nsecond line\n",
		"tornheader": `{"v":1,"type":"header","id":"x`,
		"onlyheader": `{"type":"header"` + "\n" + `{"type":"entry"`,
		"binary":     "\x00\x00\x00\x00",
	} {
		id := "20250101-000000-" + name
		if err := os.WriteFile(s.path(id), []byte(data), 0o600); err != nil {
			t.Fatal(err)
		}
		_, err := s.Load(id)
		if !errors.Is(err, ErrDamaged) || !strings.Contains(err.Error(), id) {
			t.Errorf("%s: Load error %v, want ErrDamaged naming the session", name, err)
		}
	}
	if err := os.Mkdir(s.path("20250101-000000-dir"), 0o700); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Load("20250101-000000-dir"); !errors.Is(err, ErrDamaged) {
		t.Errorf("Load of a directory: %v, want ErrDamaged", err)
	}
}

func TestInvalidIDs(t *testing.T) {
	s, _ := newTestStore(t)
	sess, err := s.Create(Params{})
	if err != nil {
		t.Fatal(err)
	}
	header := journalLines(t, s, sess.ID)[0]
	// Plant loadable journals where an unchecked id would lead.
	if err := os.WriteFile(filepath.Join(filepath.Dir(s.Dir()), "x.jsonl"), []byte(header+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(s.Dir(), "a"), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a/b.jsonl", ".jsonl", "..jsonl", "a.b.jsonl"} {
		if err := os.WriteFile(filepath.Join(s.Dir(), name), []byte(header+"\n"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	snapshot := func() map[string]string {
		m := map[string]string{}
		filepath.WalkDir(filepath.Dir(s.Dir()), func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				b, _ := os.ReadFile(p)
				m[p] = string(b)
			}
			return nil
		})
		return m
	}
	before := snapshot()
	for _, id := range []string{"../x", "a/b", "", ".", "..", "a.b", `a\b`, "x\x00", "x y", "/etc/passwd", strings.Repeat("a", 200)} {
		if _, err := s.Load(id); !errors.Is(err, ErrNotFound) {
			t.Errorf("Load(%q) = %v, want ErrNotFound", id, err)
		}
		bad := &Session{ID: id}
		if err := s.Append(bad, userEntry("e1", "x")); !errors.Is(err, ErrNotFound) {
			t.Errorf("Append to %q = %v, want ErrNotFound", id, err)
		}
		if err := s.SetTitle(bad, "t"); !errors.Is(err, ErrNotFound) {
			t.Errorf("SetTitle of %q = %v, want ErrNotFound", id, err)
		}
		if err := s.SetParams(bad, Params{}); !errors.Is(err, ErrNotFound) {
			t.Errorf("SetParams of %q = %v, want ErrNotFound", id, err)
		}
		if len(bad.Entries) != 0 || bad.Title != "" {
			t.Errorf("session %q changed", id)
		}
	}
	if after := snapshot(); !reflect.DeepEqual(before, after) {
		t.Error("invalid ids touched files")
	}
	if _, err := s.Load("20990101-000000-ffffff"); !errors.Is(err, ErrNotFound) {
		t.Errorf("Load of an unknown id: %v, want ErrNotFound", err)
	}
	if err := s.Append(nil, userEntry("e1", "x")); err == nil {
		t.Error("Append to a nil session succeeded")
	}
}

func TestList(t *testing.T) {
	s, _ := newTestStore(t)
	a, err := s.Create(Params{Model: "model-a"})
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []Entry{userEntry("e1", "q"), fullAssistant("e2"), {ID: "e3", Kind: KindError, Error: &ErrorInfo{Message: "x"}}, {ID: "e4", Kind: KindNotice, Text: "n"}, userEntry("e5", "q2")} {
		if err := s.Append(a, e); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.SetTitle(a, "first title"); err != nil {
		t.Fatal(err)
	}
	if err := s.SetTitle(a, "Session A"); err != nil {
		t.Fatal(err)
	}
	b, err := s.Create(Params{Model: "model-b"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SetParams(b, Params{Model: "model-b2"}); err != nil {
		t.Fatal(err)
	}
	// A garbage journal, dated between a and b, and files List must ignore.
	damagedID := "20250301-090000-bad000"
	if err := os.WriteFile(s.path(damagedID), []byte("this is not json\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	mid := clockStart.Add(9 * time.Second)
	if err := os.Chtimes(s.path(damagedID), mid, mid); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"notes.txt", "bad name.jsonl", ".hidden.jsonl"} {
		if err := os.WriteFile(filepath.Join(s.Dir(), name), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(s.Dir(), "sub.jsonl"), 0o700); err != nil {
		t.Fatal(err)
	}

	infos, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(infos) != 3 {
		t.Fatalf("List() = %+v, want 3 sessions", infos)
	}
	if got := []string{infos[0].ID, infos[1].ID, infos[2].ID}; !reflect.DeepEqual(got, []string{b.ID, damagedID, a.ID}) {
		t.Errorf("order %v, want newest updated first: b, damaged, a", got)
	}
	wantB := Info{ID: b.ID, Title: "untitled", Created: b.Created, Updated: b.Updated, Messages: 0, Model: "model-b2"}
	if infos[0] != wantB {
		t.Errorf("b = %+v, want %+v", infos[0], wantB)
	}
	wantA := Info{ID: a.ID, Title: "Session A", Created: a.Created, Updated: a.Updated, Messages: 3, Model: "model-a"}
	if infos[2] != wantA {
		t.Errorf("a = %+v, want %+v", infos[2], wantA)
	}
	d := infos[1]
	if !strings.HasPrefix(d.Title, "(damaged: ") || !strings.HasSuffix(d.Title, ")") || !strings.Contains(d.Title, "header") {
		t.Errorf("damaged title %q", d.Title)
	}
	if !d.Updated.Equal(mid) || !d.Created.Equal(clockStart) {
		t.Errorf("damaged times %v, %v", d.Created, d.Updated)
	}
}

func TestListEmpty(t *testing.T) {
	s, _ := newTestStore(t)
	infos, err := s.List()
	if err != nil || len(infos) != 0 {
		t.Errorf("List() = %v, %v; want nothing", infos, err)
	}
	if err := os.Remove(s.Dir()); err != nil {
		t.Fatal(err)
	}
	if _, err := s.List(); err == nil {
		t.Error("List of a removed directory succeeded")
	}
}

func TestLatest(t *testing.T) {
	s, _ := newTestStore(t)
	if _, err := s.Latest(); !errors.Is(err, ErrNoSessions) {
		t.Errorf("Latest of an empty store: %v, want ErrNoSessions", err)
	}
	a, err := s.Create(Params{Model: "a"})
	if err != nil {
		t.Fatal(err)
	}
	b, err := s.Create(Params{Model: "b"})
	if err != nil {
		t.Fatal(err)
	}
	if got, err := s.Latest(); err != nil || got.ID != b.ID {
		t.Errorf("Latest() = %v, %v; want the newer b", got, err)
	}
	if err := s.Append(a, userEntry("e1", "back to a")); err != nil {
		t.Fatal(err)
	}
	// A damaged journal touched last is not a session to resume.
	bad := "20991231-235959-000000"
	if err := os.WriteFile(s.path(bad), []byte("garbage\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	got, err := s.Latest()
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != a.ID || len(got.Entries) != 1 {
		t.Errorf("Latest() = %s with %d entries, want a, updated last", got.ID, len(got.Entries))
	}
	for _, id := range []string{a.ID, b.ID} {
		if err := os.Remove(s.path(id)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := s.Latest(); !errors.Is(err, ErrNoSessions) {
		t.Errorf("Latest with only a damaged journal: %v, want ErrNoSessions", err)
	}
}

func TestConcurrentUse(t *testing.T) {
	s, _ := newTestStore(t)
	const n = 8
	sessions := make([]*Session, n)
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i := range n {
		wg.Go(func() {
			sess, err := s.Create(Params{Model: fmt.Sprint(i)})
			if err != nil {
				errs <- err
				return
			}
			sessions[i] = sess
			for j := range 5 {
				if err := s.Append(sess, userEntry(fmt.Sprintf("e%d", j), "x")); err != nil {
					errs <- err
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	infos, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	if len(infos) != n {
		t.Fatalf("%d sessions listed, want %d", len(infos), n)
	}
	for _, info := range infos {
		if info.Messages != 5 || strings.HasPrefix(info.Title, "(damaged") {
			t.Errorf("%+v", info)
		}
	}
}
