package transcript

import (
	"bytes"
	"encoding/json"
	"image"
	"image/png"
	"net/url"
	"os"
	"regexp"
	"strings"
	"testing"

	"muse/api"
	"muse/session"
	"muse/ui/sanitize"
)

// withAttachments saves a session whose prompt carries an image and a text
// file, stored in s.
func withAttachments(t *testing.T, s *session.Store) *session.Session {
	t.Helper()
	w := session.NewWriter(s, fullParams())
	img, err := w.SaveAttachment(session.Attachment{Name: "shot [1].png", Kind: session.AttachImage, MediaType: "image/png", Width: 3, Height: 2}, tinyPNG())
	if err != nil {
		t.Fatal(err)
	}
	txt, err := w.SaveAttachment(session.Attachment{Name: "notes.md", Kind: session.AttachText, MediaType: "text/plain"}, []byte("# Notes\nline two"))
	if err != nil {
		t.Fatal(err)
	}
	w.Append(session.Entry{ID: "e1", Kind: session.KindUser, Text: "compare", Attachments: []session.Attachment{img, txt}})
	w.Append(session.Entry{ID: "e2", Kind: session.KindAssistant, Message: &api.Message{Role: "assistant", Content: []api.ContentBlock{{Type: api.BlockText, Text: "ok"}}}})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	sess, err := s.Load(w.ID())
	if err != nil {
		t.Fatal(err)
	}
	return sess
}

func tinyPNG() []byte {
	var b bytes.Buffer
	png.Encode(&b, image.NewRGBA(image.Rect(0, 0, 3, 2)))
	return b.Bytes()
}

func TestJSONExportEmbedsAttachmentsAndImportStoresThem(t *testing.T) {
	src := newTestStore(t)
	sess := withAttachments(t, src)
	for _, all := range []bool{false, true} {
		var b bytes.Buffer
		exp := Export
		if all {
			exp = ExportBranches
		}
		if err := exp(sess, "json", &b, sanitize.ForExport, src); err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Files map[string][]byte `json:"files"`
		}
		if err := json.Unmarshal(b.Bytes(), &doc); err != nil || len(doc.Files) != 2 {
			t.Fatalf("the export should embed both files: %v, %d", err, len(doc.Files))
		}
		// Imported into another store, as on another machine.
		dst := newTestStore(t)
		got, err := Import(dst, &b)
		if err != nil {
			t.Fatal(err)
		}
		if m := dst.MissingAttachments(got.ID, got.Entries); len(m) != 0 {
			t.Fatalf("after import %d attachments are missing", len(m))
		}
		as := got.Entries[0].Attachments
		if len(as) != 2 || as[0].Kind != session.AttachImage || as[1].Name != "notes.md" || as[1].Document || got.Entries[0].Text != "compare" {
			t.Fatalf("the imported prompt records %+v", got.Entries[0])
		}
		for i, want := range [][]byte{tinyPNG(), []byte("# Notes\nline two")} {
			if data, err := dst.ReadAttachment(got.ID, as[i]); err != nil || !bytes.Equal(data, want) {
				t.Errorf("%s reads back as %d bytes, %v", as[i].Name, len(data), err)
			}
		}
	}
}

func TestImportRefusesToStoreBytesUnderAnotherHash(t *testing.T) {
	src := newTestStore(t)
	sess := withAttachments(t, src)
	var b bytes.Buffer
	if err := Export(sess, "json", &b, nil, src); err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	json.Unmarshal(b.Bytes(), &doc)
	for k := range doc["files"].(map[string]any) {
		doc["files"].(map[string]any)[k] = "c3dhcHBlZA==" // "swapped"
	}
	forged, _ := json.Marshal(doc)
	dst := newTestStore(t)
	got, err := Import(dst, bytes.NewReader(forged))
	if err != nil {
		t.Fatal(err)
	}
	if m := dst.MissingAttachments(got.ID, got.Entries); len(m) != 2 {
		t.Errorf("forged bytes should leave both attachments missing, %d are", len(m))
	}
}

func TestMarkdownExportLinksAttachments(t *testing.T) {
	s := newTestStore(t)
	sess := withAttachments(t, s)
	var b bytes.Buffer
	if err := Export(sess, "md", &b, sanitize.ForExport, s); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	img := regexp.MustCompile(`- Attached !\[shot \\\[1\\\]\.png\]\((file://[^)]+)\) \(image, 3×2\)`).FindStringSubmatch(md)
	if img == nil || !strings.Contains(md, "- Attached [notes.md](file://") {
		t.Fatalf("attachments not linked:\n%s", md)
	}
	u, _ := url.Parse(img[1])
	if data, err := os.ReadFile(u.Path); err != nil || !bytes.HasPrefix(data, []byte("\x89PNG")) {
		t.Errorf("the link does not lead to the stored image: %v", err)
	}
	var plain bytes.Buffer
	Export(sess, "md", &plain, nil, nil)
	if !strings.Contains(plain.String(), "- Attached notes.md (text)") {
		t.Errorf("without files the attachments should be named:\n%s", plain.String())
	}
}

// An export can hold bytes that begin like a PNG and are not one, with a
// matching hash: imported, such an image is left out, so the session never
// sends what the service refuses.
func TestImportLeavesOutAnImageThatDoesNotDecode(t *testing.T) {
	src := newTestStore(t)
	w := session.NewWriter(src, fullParams())
	bad := append([]byte("\x89PNG\r\n\x1a\n"), bytes.Repeat([]byte{0xAB}, 64)...)
	a, _ := w.SaveAttachment(session.Attachment{Name: "bad.png", Kind: session.AttachImage, MediaType: "image/png"}, bad)
	w.Append(session.Entry{ID: "e1", Kind: session.KindUser, Text: "see", Attachments: []session.Attachment{a}})
	w.Close()
	sess, _ := src.Load(w.ID())
	var b bytes.Buffer
	if err := Export(sess, "json", &b, nil, src); err != nil {
		t.Fatal(err)
	}
	dst := newTestStore(t)
	got, err := Import(dst, &b)
	if err != nil {
		t.Fatal(err)
	}
	if m := dst.MissingAttachments(got.ID, got.Entries); len(m) != 1 {
		t.Errorf("the undecodable image should be left out, %d missing", len(m))
	}
}

func TestTextTranscriptListsAttachments(t *testing.T) {
	s := newTestStore(t)
	sess := withAttachments(t, s)
	var b strings.Builder
	if err := Text(sess, &b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "+ shot [1].png (image, 3×2, ") || !strings.Contains(b.String(), "+ notes.md (text, 16 bytes)") {
		t.Errorf("transcript:\n%s", b.String())
	}
}

// A JSON export carries the images the session generated, and an import
// saves them in its own session's folder: deleting the original, or
// importing on another machine, leaves the imported session whole.
func TestExportCarriesGeneratedImages(t *testing.T) {
	src := newTestStore(t)
	w := session.NewWriter(src, fullParams())
	w.Append(session.Entry{ID: "e1", Kind: session.KindUser, Text: "x"})
	id := w.ID()
	img, err := src.SaveImage(id, 1, 0, tinyPNG())
	if err != nil {
		t.Fatal(err)
	}
	w.Append(session.Entry{ID: "e2", Kind: session.KindImage, ImagePrompt: "a fox", Images: []session.Image{{Index: 0, Path: img.Path, Width: 3, Height: 2}}})
	w.Close()
	sess, _ := src.Load(id)
	var b bytes.Buffer
	if err := Export(sess, "json", &b, nil, src); err != nil {
		t.Fatal(err)
	}
	if err := src.Delete(id); err != nil {
		t.Fatal(err)
	}
	dst := newTestStore(t)
	got, err := Import(dst, &b)
	if err != nil {
		t.Fatal(err)
	}
	p := got.Entries[1].Images[0].Path
	if !strings.HasPrefix(p, dst.ImageDir(got.ID)) || got.Entries[1].Images[0].Error != "" {
		t.Fatalf("imported image %+v, want a file in %s", got.Entries[1].Images[0], dst.ImageDir(got.ID))
	}
	if data, err := os.ReadFile(p); err != nil || !bytes.Equal(data, tinyPNG()) {
		t.Errorf("imported image file: %v", err)
	}
}
