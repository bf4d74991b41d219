package session

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzIndex feeds any bytes to the index reader: it never panics, and what
// it accepts names only valid ids, each its own.
func FuzzIndex(f *testing.F) {
	f.Add([]byte(`{"version":1,"sessions":{"20261122-100000-aaaaaa":{"info":{"id":"20261122-100000-aaaaaa","title":"t","created":"2026-11-22T10:00:00Z","updated":"2026-11-22T10:00:00Z","messages":2,"model":"m"},"size":10,"mtime":1}}}`))
	f.Add([]byte(`{"version":1,"sessions":{"../x":{"info":{"id":"../x"}}}}`))
	f.Add([]byte(`{"version":2}`))
	f.Add([]byte("not json"))
	f.Fuzz(func(t *testing.T, data []byte) {
		dir := t.TempDir()
		s, err := Open(dir)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, indexName), data, 0o600); err != nil {
			t.Fatal(err)
		}
		for id, e := range s.readIndex() {
			if !validID(id) || e.Info.ID != id {
				t.Fatalf("the index reader accepted id %q for %q", id, e.Info.ID)
			}
		}
		if _, err := s.List(); err != nil {
			t.Fatalf("List over a fuzzed index: %v", err)
		}
	})
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
		h, err := OpenPromptHistory(path, 10)
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
		back, err := OpenPromptHistory(path, 10)
		if err != nil {
			t.Fatal(err)
		}
		if got := back.Prompts(); len(got) == 0 || got[len(got)-1] != "fresh prompt" {
			t.Fatalf("the prompt added after fuzzed data was lost: %q", got)
		}
	})
}
