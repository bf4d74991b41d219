package prompts

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"muse/session/dirs"
)

var promptClockStart = time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)

// openPrompts opens the history at path with a clock that advances one
// second per reading, starting after promptClockStart.
func openPrompts(t *testing.T, path string, max int) *History {
	t.Helper()
	h, err := Open(path, max)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	now := promptClockStart
	h.now = func() time.Time {
		mu.Lock()
		defer mu.Unlock()
		now = now.Add(time.Second)
		return now
	}
	return h
}

func mustAddPrompt(t *testing.T, h *History, session, text string) {
	t.Helper()
	if err := h.Add(session, text); err != nil {
		t.Fatalf("Add(%q, %q): %v", session, text, err)
	}
}

// promptFileLines returns the lines of the file at path, which must end in a
// newline, without their newlines.
func promptFileLines(t *testing.T, path string) []string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(b) == 0 || b[len(b)-1] != '\n' {
		t.Fatalf("%s does not end in a newline: %q", path, b)
	}
	return strings.Split(string(b[:len(b)-1]), "\n")
}

// promptRecords decodes every line of the file at path, failing on any that
// is not a valid record.
func promptRecords(t *testing.T, path string) []promptRecord {
	t.Helper()
	var recs []promptRecord
	for i, l := range promptFileLines(t, path) {
		var raw map[string]any
		if err := json.Unmarshal([]byte(l), &raw); err != nil {
			t.Fatalf("line %d is not valid JSON: %q: %v", i+1, l, err)
		}
		for _, k := range []string{"time", "session", "text"} {
			if _, ok := raw[k]; !ok {
				t.Fatalf("line %d has no %q: %q", i+1, k, l)
			}
		}
		var rec promptRecord
		if err := json.Unmarshal([]byte(l), &rec); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		recs = append(recs, rec)
	}
	return recs
}

func promptTexts(recs []promptRecord) []string {
	var out []string
	for _, r := range recs {
		out = append(out, r.Text)
	}
	return out
}

func reloadPrompts(t *testing.T, path string, max int) []string {
	t.Helper()
	h, err := Open(path, max)
	if err != nil {
		t.Fatal(err)
	}
	return h.Prompts()
}

func promptPerm(t *testing.T, path string) fs.FileMode {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	return fi.Mode().Perm()
}

func TestPromptHistoryPath(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{"/home/u/.local/share/muse/sessions", "/home/u/.local/share/muse/prompts.jsonl"},
		{"/home/u/.local/share/muse/sessions/", "/home/u/.local/share/muse/prompts.jsonl"},
		{"/data/x/muse/sessions", "/data/x/muse/prompts.jsonl"},
	} {
		if got := Path(c.in); got != c.want {
			t.Errorf("Path(%q) = %q, want %q", c.in, got, c.want)
		}
	}
	dir, err := dirs.SessionsDir(func(k string) string {
		if k == "HOME" {
			return "/home/u"
		}
		return ""
	}, "")
	if err != nil {
		t.Fatal(err)
	}
	if got, want := Path(dir), "/home/u/.local/share/muse/prompts.jsonl"; got != want {
		t.Errorf("Path(SessionsDir) = %q, want %q", got, want)
	}
}

func TestPromptHistoryRoundTrip(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "muse")
	path := filepath.Join(dir, "prompts.jsonl")
	h := openPrompts(t, path, 0)
	if h.max != defaultPromptMax {
		t.Errorf("max = %d, want the default %d", h.max, defaultPromptMax)
	}
	if got := h.Prompts(); len(got) != 0 {
		t.Errorf("new history holds %q", got)
	}
	if _, err := os.Lstat(dir); !os.IsNotExist(err) {
		t.Fatalf("Open created something: %v", err)
	}
	texts := []string{"hello", "multi\nline <b>&</b> \"quoted\"", "ünïcode ✓"}
	for _, s := range texts {
		mustAddPrompt(t, h, "s1", s)
	}
	if got := h.Prompts(); !slices.Equal(got, texts) {
		t.Errorf("Prompts() = %q, want %q", got, texts)
	}
	recs := promptRecords(t, path)
	if got := promptTexts(recs); !slices.Equal(got, texts) {
		t.Errorf("file holds %q, want %q", got, texts)
	}
	for i, r := range recs {
		if want := promptClockStart.Add(time.Duration(i+1) * time.Second); !r.Time.Equal(want) {
			t.Errorf("record %d time = %v, want %v", i, r.Time, want)
		}
		if r.Session != "s1" {
			t.Errorf("record %d session = %q", i, r.Session)
		}
	}
	if b, _ := os.ReadFile(path); !strings.Contains(string(b), "<b>&</b>") {
		t.Errorf("HTML characters escaped in %q", b)
	}
	if got := reloadPrompts(t, path, 0); !slices.Equal(got, texts) {
		t.Errorf("reloaded %q, want %q", got, texts)
	}
	// Prompts returns a copy.
	p := h.Prompts()
	p[0] = "changed"
	if h.Prompts()[0] != "hello" {
		t.Error("Prompts() shares its slice")
	}
}

func TestPromptHistoryModes(t *testing.T) {
	base := t.TempDir()
	path := filepath.Join(base, "a", "b", "prompts.jsonl")
	h := openPrompts(t, path, 0)
	mustAddPrompt(t, h, "s1", "hi")
	if m := promptPerm(t, path); m != 0o600 {
		t.Errorf("file mode = %v, want 0600", m)
	}
	for _, d := range []string{filepath.Join(base, "a"), filepath.Join(base, "a", "b")} {
		if m := promptPerm(t, d); m != 0o700 {
			t.Errorf("created dir %s mode = %v, want 0700", d, m)
		}
	}

	// An existing parent is left as it is.
	shared := filepath.Join(base, "shared")
	if err := os.Mkdir(shared, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(shared, 0o755); err != nil {
		t.Fatal(err)
	}
	h2 := openPrompts(t, filepath.Join(shared, "prompts.jsonl"), 0)
	mustAddPrompt(t, h2, "s1", "hi")
	if m := promptPerm(t, shared); m != 0o755 {
		t.Errorf("existing dir mode changed to %v", m)
	}
	if m := promptPerm(t, filepath.Join(shared, "prompts.jsonl")); m != 0o600 {
		t.Errorf("file mode = %v, want 0600", m)
	}
}

func TestPromptHistoryOpenErrors(t *testing.T) {
	if _, err := Open("", 0); err == nil {
		t.Error("empty path: no error")
	}
	if _, err := Open(t.TempDir(), 0); err == nil {
		t.Error("directory: no error")
	}
}

func TestPromptHistoryDuplicates(t *testing.T) {
	path := filepath.Join(t.TempDir(), "prompts.jsonl")
	h := openPrompts(t, path, 0)
	for _, s := range []string{"a", "a", "b", "a", "a", "b"} {
		mustAddPrompt(t, h, "s1", s)
	}
	// Equal to the newest even when sent in another session.
	mustAddPrompt(t, h, "s2", "b")
	want := []string{"a", "b", "a", "b"}
	if got := h.Prompts(); !slices.Equal(got, want) {
		t.Errorf("Prompts() = %q, want %q", got, want)
	}
	if got := promptTexts(promptRecords(t, path)); !slices.Equal(got, want) {
		t.Errorf("file holds %q, want %q", got, want)
	}
	// The newest loaded prompt counts too.
	h2 := openPrompts(t, path, 0)
	mustAddPrompt(t, h2, "s3", "b")
	if got := len(promptFileLines(t, path)); got != len(want) {
		t.Errorf("file has %d lines after adding the newest again, want %d", got, len(want))
	}
}

func TestPromptHistoryBlankIgnored(t *testing.T) {
	path := filepath.Join(t.TempDir(), "prompts.jsonl")
	h := openPrompts(t, path, 0)
	for _, s := range []string{"", " ", "\n\t  \r\n"} {
		mustAddPrompt(t, h, "s1", s)
	}
	if got := h.Prompts(); len(got) != 0 {
		t.Errorf("Prompts() = %q, want none", got)
	}
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Errorf("blank prompts created the file: %v", err)
	}
	mustAddPrompt(t, h, "s1", "x")
	mustAddPrompt(t, h, "s1", "  ")
	if got := promptFileLines(t, path); len(got) != 1 {
		t.Errorf("file has %d lines, want 1", len(got))
	}
}

func TestPromptHistoryDamagedLines(t *testing.T) {
	path := filepath.Join(t.TempDir(), "prompts.jsonl")
	data := `{"time":"2025-03-01T09:00:01Z","session":"s1","text":"first"}
garbage{{
null
{"time":"2025-03-01T09:00:02Z","session":"s1","text":""}
[1,2]

{"time":"2025-03-01T09:00:03Z","session":"s2","text":"second"}
{"time":"2025-03-01T09:00:04Z","session":"s2","te`
	if err := os.WriteFile(path, []byte(data), 0o600); err != nil {
		t.Fatal(err)
	}
	h := openPrompts(t, path, 0)
	if got, want := h.Prompts(), []string{"first", "second"}; !slices.Equal(got, want) {
		t.Fatalf("Prompts() = %q, want %q", got, want)
	}
	mustAddPrompt(t, h, "s3", "third")
	lines := promptFileLines(t, path)
	if last := lines[len(lines)-1]; !strings.Contains(last, `"text":"third"`) || !json.Valid([]byte(last)) {
		t.Errorf("last line = %q, want the new record on a line of its own", last)
	}
	if torn := lines[len(lines)-2]; !strings.HasSuffix(torn, `"te`) {
		t.Errorf("line before the new one = %q, want the torn line", torn)
	}
	if got, want := reloadPrompts(t, path, 0), []string{"first", "second", "third"}; !slices.Equal(got, want) {
		t.Errorf("reloaded %q, want %q", got, want)
	}
}

func TestPromptHistoryMaxAndCompaction(t *testing.T) {
	const limit = 3
	dir := t.TempDir()
	path := filepath.Join(dir, "prompts.jsonl")
	h := openPrompts(t, path, limit)
	var all []string
	for i := 1; i <= promptCompactFactor*limit; i++ {
		s := fmt.Sprintf("p%02d", i)
		all = append(all, s)
		mustAddPrompt(t, h, "s1", s)
		if got, want := h.Prompts(), all[max(0, len(all)-limit):]; !slices.Equal(got, want) {
			t.Fatalf("after %d adds Prompts() = %q, want %q", i, got, want)
		}
	}
	// 4*limit lines is not yet past the limit.
	if got := len(promptFileLines(t, path)); got != promptCompactFactor*limit {
		t.Fatalf("file has %d lines before compaction, want %d", got, promptCompactFactor*limit)
	}
	// Loading keeps only the newest limit.
	if got, want := reloadPrompts(t, path, limit), all[len(all)-limit:]; !slices.Equal(got, want) {
		t.Errorf("reloaded with limit %d: %q, want %q", limit, got, want)
	}
	if got := reloadPrompts(t, path, 0); !slices.Equal(got, all) {
		t.Errorf("reloaded with the default limit: %q, want %q", got, all)
	}

	mustAddPrompt(t, h, "s1", "p13")
	all = append(all, "p13")
	want := all[len(all)-limit:]
	if got := promptTexts(promptRecords(t, path)); !slices.Equal(got, want) {
		t.Errorf("after compaction the file holds %q, want %q", got, want)
	}
	if got := h.Prompts(); !slices.Equal(got, want) {
		t.Errorf("after compaction Prompts() = %q, want %q", got, want)
	}
	if got := reloadPrompts(t, path, limit); !slices.Equal(got, h.Prompts()) {
		t.Errorf("reloaded %q, want %q", got, h.Prompts())
	}
	if m := promptPerm(t, path); m != 0o600 {
		t.Errorf("compacted file mode = %v, want 0600", m)
	}
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ents) != 1 {
		var names []string
		for _, e := range ents {
			names = append(names, e.Name())
		}
		t.Errorf("directory holds %q, want only the history", names)
	}

	// Appending goes on after compaction, and the count restarts from limit.
	for i := 14; i <= 14+promptCompactFactor*limit-limit-1; i++ {
		mustAddPrompt(t, h, "s1", fmt.Sprintf("p%02d", i))
	}
	if got := len(promptFileLines(t, path)); got != promptCompactFactor*limit {
		t.Errorf("file has %d lines, want %d", got, promptCompactFactor*limit)
	}
	mustAddPrompt(t, h, "s1", "last")
	if got := len(promptFileLines(t, path)); got != limit {
		t.Errorf("file has %d lines after the second compaction, want %d", got, limit)
	}
}

func TestPromptHistoryCompactionCountsDamagedLines(t *testing.T) {
	const limit = 2
	path := filepath.Join(t.TempDir(), "prompts.jsonl")
	// 8 lines, all garbage: one more line passes 4*limit.
	if err := os.WriteFile(path, []byte(strings.Repeat("junk\n", promptCompactFactor*limit)), 0o600); err != nil {
		t.Fatal(err)
	}
	h := openPrompts(t, path, limit)
	mustAddPrompt(t, h, "s1", "only")
	if got := promptFileLines(t, path); !slices.Equal(got[:1], got) || !strings.Contains(got[0], `"only"`) {
		t.Errorf("file lines = %q, want just the new record", got)
	}
}

func TestPromptHistoryForSession(t *testing.T) {
	path := filepath.Join(t.TempDir(), "prompts.jsonl")
	h := openPrompts(t, path, 0)
	mustAddPrompt(t, h, "s1", "a")
	mustAddPrompt(t, h, "s2", "b")
	mustAddPrompt(t, h, "s1", "c")
	mustAddPrompt(t, h, "s2", "c") // the newest again: not added
	mustAddPrompt(t, h, "s2", "d")
	check := func(h *History, what string) {
		t.Helper()
		for id, want := range map[string][]string{"s1": {"a", "c"}, "s2": {"b", "d"}, "none": nil} {
			if got := h.ForSession(id); !slices.Equal(got, want) {
				t.Errorf("%s: ForSession(%q) = %q, want %q", what, id, got, want)
			}
		}
	}
	check(h, "in memory")
	check(openPrompts(t, path, 0), "reloaded")
}

func TestRecall(t *testing.T) {
	type step struct {
		op   string // "prev", "next" or "reset"
		want string
		ok   bool
	}
	cases := []struct {
		name    string
		prompts []string
		steps   []step
	}{
		{"empty", nil, []step{
			{"prev", "", false}, {"next", "", false}, {"reset", "", false}, {"prev", "", false},
		}},
		{"single", []string{"a"}, []step{
			{"next", "", false},
			{"prev", "a", true}, {"prev", "", false}, {"prev", "", false},
			{"next", "", true}, {"next", "", false},
			{"prev", "a", true}, {"reset", "", false}, {"next", "", false}, {"prev", "a", true},
		}},
		{"several", []string{"a", "b", "c"}, []step{
			{"prev", "c", true}, {"prev", "b", true}, {"prev", "a", true},
			{"prev", "", false}, // stays at the oldest
			{"next", "b", true}, {"next", "c", true},
			{"next", "", true}, {"next", "", false}, {"next", "", false},
			{"prev", "c", true}, {"prev", "b", true},
			{"reset", "", false}, {"prev", "c", true},
			{"prev", "b", true}, {"prev", "a", true}, {"prev", "", false}, {"next", "b", true},
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			r := NewRecall(c.prompts)
			for i, s := range c.steps {
				var got string
				var ok bool
				switch s.op {
				case "prev":
					got, ok = r.Prev()
				case "next":
					got, ok = r.Next()
				case "reset":
					r.Reset()
					continue
				}
				if got != s.want || ok != s.ok {
					t.Fatalf("step %d %s = %q, %v; want %q, %v", i, s.op, got, ok, s.want, s.ok)
				}
			}
		})
	}

	// NewRecall copies its list.
	p := []string{"a", "b"}
	r := NewRecall(p)
	p[1] = "changed"
	if got, _ := r.Prev(); got != "b" {
		t.Errorf("Prev() = %q after the caller changed its slice, want %q", got, "b")
	}
}

func TestPromptHistoryConcurrentAdd(t *testing.T) {
	for _, max := range []int{0, 5} {
		t.Run(fmt.Sprintf("max=%d", max), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "muse", "prompts.jsonl")
			h := openPrompts(t, path, max)
			const workers, each = 8, 25
			var wg sync.WaitGroup
			errs := make(chan error, workers*each)
			for w := range workers {
				wg.Add(1)
				go func() {
					defer wg.Done()
					id := fmt.Sprintf("s%d", w)
					for i := range each {
						if err := h.Add(id, fmt.Sprintf("w%d-%d", w, i)); err != nil {
							errs <- err
						}
						_ = h.Prompts()
						_ = h.ForSession(id)
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
			recs := promptRecords(t, path) // every line valid JSON
			got := h.Prompts()
			if max == 0 {
				if len(recs) != workers*each {
					t.Errorf("file has %d records, want %d", len(recs), workers*each)
				}
				if len(got) != workers*each {
					t.Errorf("Prompts() holds %d, want %d", len(got), workers*each)
				}
				for w := range workers {
					own := h.ForSession(fmt.Sprintf("s%d", w))
					want := make([]string, each)
					for i := range want {
						want[i] = fmt.Sprintf("w%d-%d", w, i)
					}
					if !slices.Equal(own, want) {
						t.Errorf("ForSession(s%d) = %q, want %q", w, own, want)
					}
				}
			} else {
				if len(recs) > promptCompactFactor*max {
					t.Errorf("file has %d records, more than %d", len(recs), promptCompactFactor*max)
				}
				if len(got) != max {
					t.Errorf("Prompts() holds %d, want %d", len(got), max)
				}
				if tail := promptTexts(recs[len(recs)-len(got):]); !slices.Equal(tail, got) {
					t.Errorf("file ends with %q, memory holds %q", tail, got)
				}
			}
			if re := reloadPrompts(t, path, max); !slices.Equal(re, got) {
				t.Errorf("reloaded %q, want %q", re, got)
			}
		})
	}
}

// A symbolic link at the history's path is never followed: the file it
// names is neither read nor written.
func TestPromptHistoryRefusesALink(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	if err := os.WriteFile(victim, []byte("keep\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "prompts.jsonl")
	if err := os.Symlink(victim, path); err != nil {
		t.Fatal(err)
	}
	h, err := Open(path, 10)
	if err == nil {
		if err := h.Add("s", "secret prompt"); err == nil {
			t.Error("a prompt was written through a link")
		}
	}
	data, _ := os.ReadFile(victim)
	fi, _ := os.Stat(victim)
	if string(data) != "keep\n" || fi.Mode().Perm() != 0o644 {
		t.Errorf("the link's target changed: %q, mode %o", data, fi.Mode().Perm())
	}
}

// seed writes the files names in dir, each last changed at mtime.
func seed(t *testing.T, dir string, mtime time.Time, names ...string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	for _, n := range names {
		p := filepath.Join(dir, n)
		if err := os.WriteFile(p, []byte("left by a crash"), 0o600); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
}

// names lists the files in dir.
func names(t *testing.T, dir string) []string {
	t.Helper()
	des, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, de := range des {
		out = append(out, de.Name())
	}
	return out
}

// The prompt history's compaction removes what an earlier one left an hour
// ago or more, not one that may be running in another muse.
func TestPromptCompactionRemovesStaleTempFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "prompts.jsonl")
	h := openPrompts(t, path, 2)
	now := time.Date(2025, 3, 1, 9, 0, 0, 0, time.UTC)
	h.now = func() time.Time { return now }
	seed(t, dir, now.Add(-2*time.Hour), ".prompts.jsonl.1.tmp")
	seed(t, dir, now.Add(-time.Minute), ".prompts.jsonl.2.tmp")
	for i := range promptCompactFactor*2 + 1 {
		mustAddPrompt(t, h, "s1", fmt.Sprint("p", i))
	}
	if got := names(t, dir); !slices.Equal(got, []string{".prompts.jsonl.2.tmp", "prompts.jsonl"}) {
		t.Errorf("files %q", got)
	}
}

// FuzzPromptHistory feeds any bytes to the prompt history reader: it never
// panics, keeps at most max prompts, none of them blank, and a prompt added
// afterwards is read back.
func FuzzPromptHistory(f *testing.F) {
	f.Add([]byte(`{"time":"2026-11-22T10:00:00Z","session":"s","text":"hello"}` + "\n"))
	f.Add([]byte("{\"text\":\"a\"}\n{\"text\":\n{\"text\":\"   \"}\n\xff\xfe\n"))
	f.Add([]byte(strings.Repeat(`{"text":"x"}`+"\n", 50)))
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(t.TempDir(), "prompts.jsonl")
		if err := os.WriteFile(path, data, 0o600); err != nil {
			t.Fatal(err)
		}
		h, err := Open(path, 10)
		if err != nil {
			t.Fatalf("open a fuzzed history: %v", err)
		}
		ps := h.Prompts()
		if len(ps) > 10 {
			t.Fatalf("%d prompts kept, max 10", len(ps))
		}
		for _, p := range ps {
			if strings.TrimSpace(p) == "" {
				t.Fatalf("a blank prompt was kept")
			}
		}
		if err := h.Add("s", "fresh prompt"); err != nil {
			t.Fatal(err)
		}
		back, err := Open(path, 10)
		if err != nil {
			t.Fatal(err)
		}
		if got := back.Prompts(); len(got) == 0 || got[len(got)-1] != "fresh prompt" {
			t.Fatalf("the prompt added after fuzzed data was lost: %q", got)
		}
	})
}

// Prompts and Entries never wait for the lock Add and Refresh hold through
// their I/O: a screen calls them from its event loop. Here the lock is
// held, as an Add syncing the file holds it, while they are called; they
// return, with what the history held.
func TestPromptsDoNotWaitForTheLock(t *testing.T) {
	h := openPrompts(t, filepath.Join(t.TempDir(), "prompts.jsonl"), 10)
	if err := h.Add("s1", "first"); err != nil {
		t.Fatal(err)
	}
	h.mu.Lock() // an Add mid-fsync
	done := make(chan []string)
	go func() { done <- h.Prompts() }()
	got := <-done // hangs (and the test times out) if Prompts takes the lock
	es := h.Entries()
	h.mu.Unlock()
	if len(got) != 1 || got[0] != "first" || len(es) != 1 || es[0].Session != "s1" {
		t.Errorf("Prompts %q, Entries %+v", got, es)
	}
}
