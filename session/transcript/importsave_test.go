package transcript

import (
	"bytes"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"muse/session"
)

// bigExport is an export of about size bytes: a line of prompts and
// replies of about 4 KiB each.
func bigExport(size int) []byte {
	text := strings.Repeat("All work and no play makes Jack a dull boy. ", 90)
	var b bytes.Buffer
	b.WriteString("{\n  \"id\": \"20250301-090000-abcdef\",\n  \"title\": \"big\",\n  \"params\": {\"model\": \"m\", \"max_tokens\": 1024},\n  \"entries\": [")
	for i := 0; b.Len() < size; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		if i%2 == 0 {
			fmt.Fprintf(&b, "\n    {\"id\": \"e%d\", \"parent\": \"e%d\", \"kind\": \"user\", \"time\": \"2025-03-01T09:00:00Z\", \"text\": %q}", i, i-1, text)
		} else {
			fmt.Fprintf(&b, "\n    {\"id\": \"e%d\", \"parent\": \"e%d\", \"kind\": \"assistant\", \"time\": \"2025-03-01T09:00:00Z\", \"message\": {\"role\": \"assistant\", \"content\": [{\"type\": \"text\", \"text\": %q}]}}", i, i-1, text)
		}
	}
	b.WriteString("\n  ]\n}\n")
	return bytes.Replace(b.Bytes(), []byte(`"parent": "e-1", `), nil, 1)
}

// leftovers lists what is in the store's folder and beside it: the
// images and attachments of sessions, but not the folders that hold them.
func leftovers(t *testing.T, s *session.Store) []string {
	t.Helper()
	var out []string
	root := filepath.Dir(s.Dir())
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if path == root || path == s.Dir() || path == s.ImagesDir() || path == filepath.Join(root, "attachments") {
			return nil
		}
		out = append(out, strings.TrimPrefix(path, root+"/"))
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// failingReader gives r, then fails with err.
type failingReader struct {
	r   io.Reader
	err error
}

func (f *failingReader) Read(p []byte) (int, error) {
	n, err := f.r.Read(p)
	if err == io.EOF {
		return n, f.err
	}
	return n, err
}

// An import that fails, whether at its last byte, after its images were
// stored, or because the input stopped (ctrl+c stops the reader), leaves
// nothing: no session, no temporary file, no image or attachment.
func TestFailedImportLeavesNothing(t *testing.T) {
	png := tinyPNG()
	sum := sha256.Sum256(png)
	hash := hex.EncodeToString(sum[:])
	entries := `"entries": [
  {"id": "a", "kind": "user", "text": "draw", "attachments": [{"name": "x.png", "kind": "image", "media_type": "image/png", "sha256": "` + hash + `", "bytes": ` + fmt.Sprint(len(png)) + `}]},
  {"id": "b", "parent": "a", "kind": "image", "image_prompt": "a fox", "images": [{"index": 0, "sha256": "` + hash + `"}]}
]`
	files := `"files": {"` + hash + `": "` + base64.StdEncoding.EncodeToString(png) + `"}`
	good := `{"id": "20250301-090000-abcdef", "params": {"model": "m"}, ` + entries + `, ` + files + `}`
	for _, tc := range []struct {
		name string
		in   io.Reader
		want string
	}{
		{"trailing garbage after the files", strings.NewReader(good + " x"), "after top-level value"},
		{"an unknown field after the files", strings.NewReader(strings.TrimSuffix(good, "}") + `, "bogus": 1}`), `unknown field "bogus"`},
		{"a head that is no entry", strings.NewReader(strings.TrimSuffix(good, "}") + `, "head": "zz"}`), `the head "zz" is not one of the entries`},
		{"a tree whose entry follows a later one", strings.NewReader(strings.Replace(good, `"parent": "a"`, `"parent": "c"`, 1)[:len(good)-1] + `, "head": "b"}`), `follows "c"`},
		{"the input stops", &failingReader{strings.NewReader(strings.TrimSuffix(good, "}")), errors.New("interrupted")}, "interrupted"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newTestStore(t)
			_, err := Save(s, tc.in, true)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want %q", err, tc.want)
			}
			if left := leftovers(t, s); len(left) > 0 {
				t.Errorf("a failed import left %q", left)
			}
		})
	}
	// The same export, whole, is saved with its image and attachment.
	s := newTestStore(t)
	saved, err := Save(s, strings.NewReader(good), true)
	if err != nil {
		t.Fatal(err)
	}
	sess, err := s.Load(saved.ID)
	if err != nil {
		t.Fatal(err)
	}
	if img := sess.Entries[1].Images[0]; !strings.HasPrefix(img.Path, s.ImageDir(saved.ID)) || img.SHA256 != "" {
		t.Errorf("image %+v, want one saved in %s", img, s.ImageDir(saved.ID))
	}
	if m := s.MissingAttachments(saved.ID, sess.Entries); len(m) != 0 {
		t.Errorf("attachments missing: %+v", m)
	}
}

// An export written by hand may give its settings after its entries, and
// its files before them: both are saved as from an export muse writes.
func TestImportInAnyOrderOfFields(t *testing.T) {
	png := tinyPNG()
	sum := sha256.Sum256(png)
	hash := hex.EncodeToString(sum[:])
	in := `{"files": {"` + hash + `": "` + base64.StdEncoding.EncodeToString(png) + `"},
 "entries": [{"id": "a", "kind": "user", "text": "draw"}, {"id": "b", "kind": "image", "images": [{"index": 0, "sha256": "` + hash + `"}]}],
 "params": {"model": "late", "max_tokens": 7}, "id": "20250301-090000-abcdef"}`
	s := newTestStore(t)
	saved, err := Save(s, strings.NewReader(in), true)
	if err != nil {
		t.Fatal(err)
	}
	sess, err := s.Load(saved.ID)
	if err != nil {
		t.Fatal(err)
	}
	if sess.Params.Model != "late" || sess.Params.MaxTokens != 7 {
		t.Errorf("settings %+v, want those given after the entries", sess.Params)
	}
	if len(sess.Entries) != 2 || sess.Entries[1].Parent != "a" || !strings.HasPrefix(sess.Entries[1].Images[0].Path, s.ImageDir(saved.ID)) {
		t.Errorf("entries %+v, want the image saved from the files given first", sess.Entries)
	}
}

// A merge that fails late, past the entries it would add, writes nothing
// into the session and lets go of its lock.
func TestFailedMergeChangesNothing(t *testing.T) {
	s := newTestStore(t)
	saved, err := Save(s, bytes.NewReader(bigExport(64<<10)), false)
	if err != nil {
		t.Fatal(err)
	}
	sess, err := s.Load(saved.ID)
	if err != nil {
		t.Fatal(err)
	}
	var exp bytes.Buffer
	if err := Export(sess, "json", &exp, nil, s); err != nil {
		t.Fatal(err)
	}
	in := strings.Replace(exp.String(), `"entries": [`, `"entries": [{"id": "new", "kind": "user", "text": "added?"},`, 1) + " trailing"
	before, err := os.ReadFile(filepath.Join(s.Dir(), saved.ID+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Save(s, strings.NewReader(in), true); err == nil || !strings.Contains(err.Error(), "after top-level value") {
		t.Fatalf("error %v, want the trailing data named", err)
	}
	after, err := os.ReadFile(filepath.Join(s.Dir(), saved.ID+".jsonl"))
	if err != nil || !bytes.Equal(before, after) {
		t.Errorf("the failed merge changed the journal (%v)", err)
	}
	w, err := s.OpenWriter(saved.ID)
	if err != nil {
		t.Fatalf("the session is still locked: %v", err)
	}
	w.Close()
}
