package prompts

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func mustRefresh(t *testing.T, h *History) {
	t.Helper()
	if err := h.Refresh(); err != nil {
		t.Fatal(err)
	}
}

// A running muse sees the prompts another muse saved once it refreshes, in
// the order they were written, its own among them; a refresh reads only
// what was appended since the last, and nothing when the file is as it was.
func TestRefreshSeesAnotherMusesPrompts(t *testing.T) {
	path := filepath.Join(t.TempDir(), "prompts.jsonl")
	a := openPrompts(t, path, 0)
	b := openPrompts(t, path, 0)
	mustAddPrompt(t, a, "s1", "one")
	mustRefresh(t, a)
	mustAddPrompt(t, b, "s2", "two")
	mustAddPrompt(t, a, "s1", "three")
	if got := a.Prompts(); !slices.Equal(got, []string{"one", "three"}) {
		t.Fatalf("before a refresh: %q", got)
	}
	start := a.read
	mustRefresh(t, a)
	if got, want := a.Prompts(), []string{"one", "two", "three"}; !slices.Equal(got, want) {
		t.Errorf("after a refresh: %q, want %q", got, want)
	}
	line1, _ := encodePrompt(&promptRecord{Time: a.entries[0].Time, Session: "s1", Text: "one"})
	size, _ := os.Stat(path)
	if read := a.read - start; read != size.Size()-int64(len(line1)) {
		t.Errorf("the refresh read %d bytes; only the %d appended since the last were new", read, size.Size()-int64(len(line1)))
	}
	start = a.read
	mustRefresh(t, a)
	if a.read != start {
		t.Errorf("a refresh of an unchanged file read %d bytes", a.read-start)
	}
	// Growing: each refresh reads what was appended, not the whole file.
	for i := range 50 {
		mustAddPrompt(t, b, "s2", "more "+string(rune('a'+i%26))+string(rune('a'+i/26)))
		start = a.read
		mustRefresh(t, a)
		if read := a.read - start; read > 200 {
			t.Fatalf("refresh %d read %d bytes for one prompt", i, read)
		}
	}
	if got := a.Prompts(); len(got) != 53 || got[52] != "more xb" {
		t.Errorf("after 50 more: %d prompts, last %q", len(got), got[len(got)-1])
	}
}

// A file compacted by another muse (replaced) is read whole; a last line
// still being written is left for the next refresh.
func TestRefreshAfterCompactionAndAPartialLine(t *testing.T) {
	path := filepath.Join(t.TempDir(), "prompts.jsonl")
	a := openPrompts(t, path, 2)
	b := openPrompts(t, path, 2)
	for _, p := range []string{"p1", "p2", "p3", "p4", "p5", "p6", "p7", "p8", "p9"} {
		mustAddPrompt(t, b, "s", p) // b compacts past 4*2 lines
	}
	mustRefresh(t, a)
	if got := a.Prompts(); !slices.Equal(got, []string{"p8", "p9"}) {
		t.Errorf("after a compaction: %q", got)
	}
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.WriteString(`{"time":"2025-03-01T09:00:00Z","session":"s","text":"half`); err != nil {
		t.Fatal(err)
	}
	f.Close()
	mustRefresh(t, a)
	if got := a.Prompts(); !slices.Equal(got, []string{"p8", "p9"}) {
		t.Errorf("with a line being written: %q", got)
	}
	mustAddPrompt(t, b, "s", "p10") // after a line break that ends the cut line
	mustRefresh(t, a)
	if got := a.Prompts(); !slices.Equal(got, []string{"p9", "p10"}) {
		t.Errorf("after the cut line: %q", got)
	}
}
