package session

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
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

// A kill -9 during an image save, an attachment's or a compaction leaves a temporary file
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
			files := s.AttachmentDir(id)
			hash := strings.Repeat("ab", 32)
			seed(t, files, clockStart, "."+hash+".pdf.4242.tmp", "."+hash+".txt.7.tmp", "."+hash+".png.8.tmp",
				hash+".pdf", ".notes.txt.1.tmp", "."+hash+".exe.9.tmp")
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
			want := []string{".turn-3-image-1.gif.5.tmp", ".turn-3-image-1.png.x1.tmp", "notes.tmp", "turn-3-image-1.png"}
			if name == "Delete" { // the session's images go with it
				want = want[:3]
			}
			if got := names(t, images); !slices.Equal(got, want) {
				t.Errorf("images folder: %q, want %q", got, want)
			}
			if name == "Delete" { // the session's attachments go with it
				if _, err := os.Stat(files); !os.IsNotExist(err) {
					t.Errorf("attachments folder after delete: %v", err)
				}
			} else if got, want := names(t, files), []string{"." + hash + ".exe.9.tmp", ".notes.txt.1.tmp", hash + ".pdf"}; !slices.Equal(got, want) {
				t.Errorf("attachments folder: %q, want %q", got, want)
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
