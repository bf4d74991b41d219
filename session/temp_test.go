package session

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

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

// A kill -9 during an image save or a compaction leaves a temporary file
// that nothing else removes: opening the session removes those it left,
// whichever way it is opened, and deleting it too. Other files stay: those
// of other sessions, the index's while they may be being written (less
// than an hour old), and names muse does not make.
func TestOpenRemovesTheTempFilesACrashLeft(t *testing.T) {
	opens := map[string]func(s *Store, id string) (*Writer, error){
		"OpenWriter": func(s *Store, id string) (*Writer, error) { return s.OpenWriter(id) },
		"OpenWriterAsync": func(s *Store, id string) (*Writer, error) {
			w, _, err := s.OpenWriterAsync(id, nil)
			if err == nil {
				w.Snapshot() // waits for the replay
			}
			return w, err
		},
		"Delete": func(s *Store, id string) (*Writer, error) { return nil, s.Delete(id) },
	}
	for name, open := range opens {
		t.Run(name, func(t *testing.T) {
			s, _ := newTestStore(t)
			w := NewWriter(s, Params{Model: "m"})
			var es []Entry
			for i := range 2*previewLines + 1 { // long enough to be replayed in the background
				es = append(es, userEntry(fmt.Sprint("e", i+1), "hi"))
			}
			if err := w.AppendAll(es); err != nil {
				t.Fatal(err)
			}
			id := w.ID()
			w.Close()
			images := s.ImageDir(id)
			old := clockStart.Add(-2 * time.Hour)
			seed(t, images, clockStart, ".turn-3-image-1.png.2084518.tmp", ".turn-12-image-10.jpg.1.tmp", ".turn-1-image-1.webp.77.tmp",
				"turn-3-image-1.png", ".turn-3-image-1.png.x1.tmp", "notes.tmp", ".turn-3-image-1.gif.5.tmp")
			seed(t, s.Dir(), clockStart, "."+id+".jsonl.5551212.tmp", ".other.jsonl.1.tmp", ".index.json.42.tmp")
			seed(t, s.Dir(), old, ".index.json.43.tmp")
			w, err := open(s, id)
			if err != nil {
				t.Fatal(err)
			}
			if w != nil {
				defer w.Close()
				if ws := w.Snapshot().Warnings; len(ws) > 0 {
					t.Errorf("warnings %q", ws)
				}
			}
			if got, want := names(t, images), []string{".turn-3-image-1.gif.5.tmp", ".turn-3-image-1.png.x1.tmp", "notes.tmp", "turn-3-image-1.png"}; !slices.Equal(got, want) {
				t.Errorf("images folder: %q, want %q", got, want)
			}
			got := names(t, s.Dir())
			for _, gone := range []string{"." + id + ".jsonl.5551212.tmp", ".index.json.43.tmp"} {
				if slices.Contains(got, gone) {
					t.Errorf("%s is still there", gone)
				}
			}
			for _, kept := range []string{".other.jsonl.1.tmp", ".index.json.42.tmp"} {
				if !slices.Contains(got, kept) {
					t.Errorf("%s was removed", kept)
				}
			}
		})
	}
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

func TestTempBase(t *testing.T) {
	for name, want := range map[string]string{
		".a.png.123.tmp": "a.png", ".index.json.0.tmp": "index.json", ".x.1.tmp": "x",
		".a.png.12a.tmp": "", "a.png.1.tmp": "", ".a.png.tmp": "", "..1.tmp": "", ".a.png.1.tmpx": "", ".a.png..tmp": "",
	} {
		if got, ok := tempBase(name); got != want || ok != (want != "") {
			t.Errorf("%q: %q %v", name, got, ok)
		}
	}
}
