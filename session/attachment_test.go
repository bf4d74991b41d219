package session

import (
	"bytes"
	"encoding/base64"
	"errors"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"muse/api"
)

// pngBytes is a tiny PNG of 2×1 pixels.
var pngBytes = tinyPNG()

func tinyPNG() []byte {
	var b bytes.Buffer
	png.Encode(&b, image.NewRGBA(image.Rect(0, 0, 2, 1)))
	return b.Bytes()
}

func imageAttachment(name string) Attachment {
	return Attachment{Name: name, Kind: AttachImage, MediaType: "image/png", Width: 2, Height: 1}
}

// sendWithAttachment writes a prompt with one attachment and its reply.
func sendWithAttachment(t *testing.T, w *Writer, a Attachment, data []byte) Attachment {
	t.Helper()
	saved, err := w.SaveAttachment(a, data)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Append(Entry{Kind: KindUser, Text: "what is this?", Attachments: []Attachment{saved}}); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Append(Entry{Kind: KindAssistant, Message: &api.Message{Role: api.RoleAssistant, Content: []api.ContentBlock{{Type: api.BlockText, Text: "a picture"}}}}); err != nil {
		t.Fatal(err)
	}
	return saved
}

func TestAttachmentIsStoredOnceByHashAndSentFromItsFile(t *testing.T) {
	s, _ := newTestStore(t)
	w := NewWriter(s, Params{Model: "m"})
	defer w.Close()
	a := sendWithAttachment(t, w, imageAttachment("a.png"), pngBytes)
	b := sendWithAttachment(t, w, imageAttachment("same-bytes.png"), pngBytes)
	if a.SHA256 != b.SHA256 || a.Bytes != int64(len(pngBytes)) || !validHash(a.SHA256) {
		t.Fatalf("hashes %q %q, bytes %d", a.SHA256, b.SHA256, a.Bytes)
	}
	dir := s.AttachmentDir(w.ID())
	files, _ := os.ReadDir(dir)
	if len(files) != 1 {
		t.Fatalf("the same bytes twice should be stored once, got %d files", len(files))
	}
	fi, _ := os.Stat(filepath.Join(dir, files[0].Name()))
	di, _ := os.Stat(dir)
	if fi.Mode().Perm() != 0o600 || di.Mode().Perm() != 0o700 {
		t.Errorf("modes: file %v, dir %v; want 0600 and 0700", fi.Mode().Perm(), di.Mode().Perm())
	}
	// The journal names the attachment and never holds its bytes.
	journal, _ := os.ReadFile(s.path(w.ID()))
	if bytes.Contains(journal, []byte(base64.StdEncoding.EncodeToString(pngBytes))) {
		t.Error("the journal holds the attachment's bytes")
	}
	sess, err := s.Load(w.ID())
	if err != nil {
		t.Fatal(err)
	}
	if as := sess.Entries[0].Attachments; len(as) != 1 || as[0].MediaType != "image/png" || as[0].SHA256 == "" {
		t.Fatalf("the prompt should record its image: %+v", as)
	} else if data, err := s.ReadAttachment(sess.ID, as[0]); err != nil || !bytes.Equal(data, pngBytes) {
		t.Errorf("the image reads back as %d bytes, %v", len(data), err)
	}
	if missing := s.MissingAttachments(sess.ID, sess.Entries); len(missing) != 0 {
		t.Errorf("nothing is missing, got %+v", missing)
	}
}

func TestMissingOrChangedAttachmentIsNamedAndTheSessionGoesOn(t *testing.T) {
	s, _ := newTestStore(t)
	w := NewWriter(s, Params{Model: "m"})
	a := sendWithAttachment(t, w, imageAttachment("gone.png"), pngBytes)
	w.Close()
	id := w.ID()
	path := s.AttachmentPath(id, a)
	for _, damage := range []func(){
		func() { os.WriteFile(path, []byte("other bytes"), 0o600) },
		func() { os.Remove(path) },
	} {
		damage()
		sess, err := s.Load(id)
		if err != nil {
			t.Fatal(err)
		}
		if m := s.MissingAttachments(id, sess.Entries); len(m) != 1 || m[0].Name != "gone.png" {
			t.Errorf("missing: %+v", m)
		}
		if _, err := s.ReadAttachment(id, a); !errors.Is(err, ErrAttachmentMissing) {
			t.Errorf("read: %v", err)
		}
	}
}

func TestForkKeepsAttachmentsAndDeleteRemovesThem(t *testing.T) {
	s, _ := newTestStore(t)
	w := NewWriter(s, Params{Model: "m"})
	a := sendWithAttachment(t, w, imageAttachment("a.png"), pngBytes)
	w.Close()
	fork, err := s.Fork(w.ID(), 0, "")
	if err != nil {
		t.Fatal(err)
	}
	if data, err := s.ReadAttachment(fork.ID, fork.Entries[0].Attachments[0]); err != nil || !bytes.Equal(data, pngBytes) {
		t.Fatalf("the fork's attachment: %v", err)
	}
	if err := s.Delete(w.ID()); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(s.AttachmentDir(w.ID())); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("deleting a session should remove its attachments: %v", err)
	}
	if _, err := s.ReadAttachment(fork.ID, a); err != nil {
		t.Errorf("deleting the original took the fork's attachment: %v", err)
	}
}

func TestWriterWithoutStoreKeepsAttachmentsInMemory(t *testing.T) {
	w := NewWriter(nil, Params{Model: "m"})
	a := sendWithAttachment(t, w, Attachment{Name: "n.txt", Kind: AttachText, MediaType: "text/plain"}, []byte("line one\nline two"))
	if data, err := w.ReadAttachment(a); err != nil || string(data) != "line one\nline two" {
		t.Errorf("text attachment reads back as %q, %v", data, err)
	}
	if w.Files().AttachmentPath("x", a) != "" {
		t.Error("a writer without a store has no attachment paths")
	}
}

func TestAttachmentPathRefusesWhatIsNotAHash(t *testing.T) {
	s, _ := newTestStore(t)
	for _, h := range []string{"", "../../etc/passwd", strings.Repeat("A", 64), strings.Repeat("a", 63), strings.Repeat("a", 63) + "/"} {
		if p := s.AttachmentPath("20250101-abc", Attachment{SHA256: h}); p != "" {
			t.Errorf("hash %q gave the path %q", h, p)
		}
	}
}

// sessionWithImages writes a session of 100 entries whose first n prompts
// each carry an image of size bytes, and returns its id.
func sessionWithImages(t testing.TB, s *Store, n, size int) string {
	t.Helper()
	w := NewWriter(s, Params{Model: "m"})
	for i := 0; i < 50; i++ {
		e := Entry{Kind: KindUser, Text: "what is in this picture?"}
		if i < n {
			data := bytes.Repeat([]byte{byte(i), byte(i >> 8), 7}, size/3)
			a, err := w.SaveAttachment(imageAttachment(fmt.Sprintf("photo-%d.png", i)), data)
			if err != nil {
				t.Fatal(err)
			}
			e.Attachments = []Attachment{a}
		}
		w.Append(e)
		w.Append(Entry{Kind: KindAssistant, Message: &api.Message{Role: api.RoleAssistant, Content: []api.ContentBlock{{Type: api.BlockText, Text: "a landscape"}}}})
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return w.ID()
}

// TestJournalDoesNotGrowWithAttachments counts bytes: 50 image attachments
// of 1 MB add to the journal only what names them, so opening the session
// reads as much as opening one without them.
func TestJournalDoesNotGrowWithAttachments(t *testing.T) {
	s, _ := newTestStore(t)
	plain := sessionWithImages(t, s, 0, 0)
	with := sessionWithImages(t, s, 50, 1<<20)
	a, _ := os.Stat(s.path(plain))
	b, _ := os.Stat(s.path(with))
	if perImage := (b.Size() - a.Size()) / 50; perImage > 400 {
		t.Errorf("each attachment adds %d bytes to the journal; want only its description (≤ 400)", perImage)
	}
}

// BenchmarkOpenWithAttachments opens a session of 50 prompts, with and
// without an image of 1 MB on each: the times should match.
func BenchmarkOpenWithAttachments(b *testing.B) {
	for _, n := range []int{0, 50} {
		b.Run(fmt.Sprintf("images=%d", n), func(b *testing.B) {
			s, err := Open(filepath.Join(b.TempDir(), "sessions"))
			if err != nil {
				b.Fatal(err)
			}
			id := sessionWithImages(b, s, n, 1<<20)
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if _, err := s.Load(id); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// A folder link planted in the images folder (images/evil -> a folder of
// secrets) does not lead ReadImage out of it (attack review).
func TestReadImageRefusesALinkedFolder(t *testing.T) {
	s, err := Open(filepath.Join(t.TempDir(), "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	root := filepath.Join(filepath.Dir(s.Dir()), imagesDir)
	if err := os.MkdirAll(root, 0o700); err != nil {
		t.Fatal(err)
	}
	secrets := t.TempDir()
	if err := os.WriteFile(filepath.Join(secrets, "id_rsa"), []byte("PRIVATE KEY"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(secrets, filepath.Join(root, "evil")); err != nil {
		t.Fatal(err)
	}
	if data, err := s.ReadImage(Image{Path: filepath.Join(root, "evil", "id_rsa")}); err == nil || strings.Contains(string(data), "PRIVATE") {
		t.Errorf("read through a linked folder: %q, %v", data, err)
	}
	// A real image in a real folder still reads.
	if err := os.MkdirAll(filepath.Join(root, "s1"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(root, "s1", "a.png"), []byte("png"), 0o600); err != nil {
		t.Fatal(err)
	}
	if data, err := s.ReadImage(Image{Path: filepath.Join(root, "s1", "a.png")}); err != nil || string(data) != "png" {
		t.Errorf("a real image: %q, %v", data, err)
	}
}
