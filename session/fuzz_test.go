package session

import (
	"os"
	"path/filepath"
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
