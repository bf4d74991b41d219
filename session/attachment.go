package session

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	_ "image/gif" // GIF attachments: their headers are checked before they are sent
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"muse/api"
	"muse/api/regfile"
	"muse/session/internal/fileio"
)

// Kinds of attachments, as Attachment.Kind names them.
const (
	// AttachImage is an image (PNG, JPEG, GIF or WebP), sent as an image block.
	AttachImage = "image"
	// AttachDocument is a PDF, sent as a document block.
	AttachDocument = "document"
	// AttachText is a text or source file, sent as a plain-text document
	// block titled with its name (see Attachment.Document).
	AttachText = "text"
)

// Attachment is a file sent with a prompt. It says what the file is; its
// bytes, as sent, are stored once per session under their SHA-256 (see
// Writer.SaveAttachment and Writer.ReadAttachment).
type Attachment struct {
	// Name is the file's base name as the user knows it (untrusted: it is
	// sanitized before it is shown).
	Name string `json:"name"`
	// Kind is AttachImage, AttachDocument or AttachText.
	Kind string `json:"kind"`
	// MediaType is what is sent: image/png, image/jpeg, image/gif,
	// image/webp, application/pdf or text/plain.
	MediaType string `json:"media_type"`
	// SHA256 is the hex SHA-256 of the bytes as sent, which name the
	// stored file.
	SHA256 string `json:"sha256"`
	// Bytes is the size of the bytes as sent.
	Bytes int64 `json:"bytes"`
	// Size is the size of the original file, when it differs from Bytes
	// (an image scaled down).
	Size int64 `json:"size,omitempty"`
	// Width and Height are an image's pixels as sent.
	Width  int `json:"width,omitempty"`
	Height int `json:"height,omitempty"`
	// Note says what was done to the file before it was sent, such as
	// "scaled from 6000×4000".
	Note string `json:"note,omitempty"`
	// Document is set on a text file sent as a plain-text document block
	// (api.TextDocumentBlock), as every text file is now. A text file
	// saved before that has it unset, and is sent again as it was then: a
	// text block wrapped in <file name=…> (api.FileTextBlock), so that an
	// old conversation's history does not change.
	Document bool `json:"document,omitempty"`
}

// AsSentNow returns a as a new prompt sends it: a text file as a
// plain-text document (Document set).
func (a Attachment) AsSentNow() Attachment {
	if a.Kind == AttachText {
		a.Document = true
	}
	return a
}

// attachmentsDir is the directory, beside the sessions directory, that
// holds one directory of attachments per session.
const attachmentsDir = "attachments"

// AttachmentDir returns the directory of the attachments of the session
// sessionID: attachments/<sessionID> beside the store's directory. It
// returns "" for an invalid id, or a nil store.
func (s *Store) AttachmentDir(sessionID string) string {
	if s == nil || !validID(sessionID) {
		return ""
	}
	return filepath.Join(filepath.Dir(s.dir), attachmentsDir, sessionID)
}

// AttachmentPath returns the file that holds the bytes of a, an attachment
// of the session sessionID, or "" when a names no valid hash or the id is
// invalid. The file may be missing.
func (s *Store) AttachmentPath(sessionID string, a Attachment) string {
	dir := s.AttachmentDir(sessionID)
	if dir == "" || !validHash(a.SHA256) {
		return ""
	}
	return filepath.Join(dir, a.SHA256+attachmentExt(a.MediaType))
}

// ErrAttachmentMissing means an attachment's stored file is gone, or no
// longer holds the bytes its hash names.
var ErrAttachmentMissing = errors.New("attachment file is missing")

// ReadAttachment returns the bytes of a, an attachment of the session
// sessionID, checked against its hash.
func (s *Store) ReadAttachment(sessionID string, a Attachment) ([]byte, error) {
	path := s.AttachmentPath(sessionID, a)
	if path == "" {
		return nil, fmt.Errorf("read attachment %q: %w", a.Name, ErrAttachmentMissing)
	}
	f, err := os.OpenFile(path, fileio.NoFollow(os.O_RDONLY), 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			err = ErrAttachmentMissing
		}
		return nil, fmt.Errorf("read attachment %q: %w", a.Name, err)
	}
	defer f.Close()
	data, err := regfile.ReadAll(f, MaxAttachmentBytes)
	if err != nil {
		return nil, fmt.Errorf("read attachment %q: %w", a.Name, err)
	}
	if hashOf(data) != a.SHA256 {
		return nil, fmt.Errorf("read attachment %q: its file changed: %w", a.Name, ErrAttachmentMissing)
	}
	return data, nil
}

// ReadImage returns the bytes of a generated image's file, for an export:
// only a file in this store's images folder, at most MaxImageBytes.
func (s *Store) ReadImage(img Image) ([]byte, error) {
	p, err := s.OwnImage(img.Path)
	if err != nil {
		return nil, fmt.Errorf("read image %q: %w", img.Path, err)
	}
	// Opened without following a link: one put in place after the check
	// does not lead out either.
	f, err := os.OpenFile(p, fileio.NoFollow(os.O_RDONLY)|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fmt.Errorf("read image: %w", err)
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("read image %s: not a regular file", p)
	}
	data, err := regfile.ReadAll(f, MaxImageBytes)
	if err != nil {
		return nil, fmt.Errorf("read image %s: %w", p, err)
	}
	return data, nil
}

// MaxAttachmentBytes is the largest attachment stored or read, in bytes:
// a PDF's limit, the largest of them.
const MaxAttachmentBytes = 32 << 20

// saveAttachment stores data as an attachment of the session sessionID,
// unless a file of its hash is there already, and returns a with its
// hash and size set.
func (s *Store) saveAttachment(sessionID string, a Attachment, data []byte) (Attachment, error) {
	a.SHA256, a.Bytes = hashOf(data), int64(len(data))
	path := s.AttachmentPath(sessionID, a)
	if path == "" {
		return a, fmt.Errorf("save attachment %q: invalid session id %q", a.Name, sessionID)
	}
	if len(data) > MaxAttachmentBytes {
		return a, fmt.Errorf("save attachment %q: %d bytes is over the limit of %d", a.Name, len(data), MaxAttachmentBytes)
	}
	if _, err := s.ReadAttachment(sessionID, a); err == nil {
		return a, nil // stored once
	}
	if err := s.makeOwn(filepath.Dir(path)); err != nil {
		return a, fmt.Errorf("save attachment %q: %w", a.Name, err)
	}
	if err := fileio.WriteAtomic(path, data); err != nil {
		return a, fmt.Errorf("save attachment %q: %w", a.Name, err)
	}
	return a, nil
}

// copyAttachments stores, for the session to, the attachments of entries
// that the session from holds: a fork refers to the same files. A file that
// cannot be copied is left out: resuming the fork reports it missing.
func (s *Store) copyAttachments(from, to string, entries []Entry) {
	for _, e := range entries {
		for _, a := range e.Files() {
			src, dst := s.AttachmentPath(from, a), s.AttachmentPath(to, a)
			if src == "" || dst == "" {
				continue
			}
			if _, err := os.Stat(dst); err == nil {
				continue
			}
			if s.makeOwn(filepath.Dir(dst)) != nil {
				continue
			}
			if os.Link(src, dst) == nil {
				continue
			}
			if data, err := s.ReadAttachment(from, a); err == nil {
				_ = fileio.WriteAtomic(dst, data)
			}
		}
	}
}

// MissingAttachments returns the attachments of entries whose files the
// session sessionID lacks, each once.
func (s *Store) MissingAttachments(sessionID string, entries []Entry) []Attachment {
	var missing []Attachment
	seen := map[string]bool{}
	for _, e := range entries {
		for _, a := range e.Files() {
			if seen[a.SHA256] {
				continue
			}
			seen[a.SHA256] = true
			path := s.AttachmentPath(sessionID, a)
			if fi, err := os.Stat(path); path == "" || err != nil || !fi.Mode().IsRegular() || fi.Size() != a.Bytes {
				missing = append(missing, a)
			}
		}
	}
	return missing
}

// SaveAttachment stores data, the bytes of a as sent, in the session's
// attachments folder (once per hash), creating the session's journal
// first when it is new, and returns a with its hash and size set. A writer
// with no store, or one whose store cannot write, keeps the bytes in memory
// for the turns of this run, and returns the error of the write.
func (w *Writer) SaveAttachment(a Attachment, data []byte) (Attachment, error) {
	a.SHA256, a.Bytes = hashOf(data), int64(len(data))
	keep := func() {
		w.lock()
		if w.files == nil {
			w.files = map[string][]byte{}
		}
		w.files[a.SHA256] = data
		w.mu.Unlock()
	}
	if w.store == nil {
		keep()
		return a, nil
	}
	if err := w.create(); err != nil {
		keep()
		return a, err
	}
	saved, err := w.store.saveAttachment(w.ID(), a, data)
	if err != nil {
		keep()
	}
	return saved, err
}

// ReadImage returns the bytes of img, a generated image of this session,
// as Store.ReadImage does: only a file in muse's images folder, links
// followed, so a journal that names another file (one that came by sync)
// cannot have it read.
func (w *Writer) ReadImage(img Image) ([]byte, error) {
	w.lock()
	store := w.store
	w.mu.Unlock()
	if store == nil {
		return nil, fmt.Errorf("read image %q: the session is not saved", filepath.Base(img.Path))
	}
	return store.ReadImage(img)
}

// ReadAttachment returns the bytes of a, an attachment of this session:
// from memory when SaveAttachment kept them there, otherwise from its file.
func (w *Writer) ReadAttachment(a Attachment) ([]byte, error) {
	w.lock()
	data, ok := w.files[a.SHA256]
	store, id := w.store, w.sess.ID
	w.mu.Unlock()
	if ok {
		return data, nil
	}
	if store == nil {
		return nil, fmt.Errorf("read attachment %q: %w", a.Name, ErrAttachmentMissing)
	}
	return store.ReadAttachment(id, a)
}

// Files returns the store that keeps the session's attachments, or nil
// for a writer that keeps them in memory.
func (w *Writer) Files() *Store {
	return w.store
}

// maxSentImageSide is the largest side of an image the service takes.
const maxSentImageSide = 8000

// checkImageHeader checks that data is an image whose header decodes, of
// at most maxSentImageSide pixels a side: what the service refuses would
// make every later turn of the session fail.
func checkImageHeader(data []byte) error {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(data))
	switch {
	case err != nil:
		return fmt.Errorf("the image does not decode: %w", err)
	case cfg.Width > maxSentImageSide || cfg.Height > maxSentImageSide:
		return fmt.Errorf("the image is %d×%d px, over the service's %d px a side", cfg.Width, cfg.Height, maxSentImageSide)
	}
	return nil
}

// checkImage decodes an image whole: an imported one must be one the
// service takes, not only a header.
func checkImage(data []byte) error {
	if err := checkImageHeader(data); err != nil {
		return err
	}
	cfg, format, _ := image.DecodeConfig(bytes.NewReader(data))
	if int64(cfg.Width)*int64(cfg.Height) > MaxImagePixels {
		return fmt.Errorf("the image is %d×%d px, over %d pixels", cfg.Width, cfg.Height, MaxImagePixels)
	}
	if cost := DecodeCost("image/"+format, data, cfg); cost > MaxDecodedBytes {
		return fmt.Errorf("the %d×%d px image needs %d MB to decode, over muse's %d MB", cfg.Width, cfg.Height, cost>>20, MaxDecodedBytes>>20)
	}
	if _, _, err := image.Decode(bytes.NewReader(data)); err != nil {
		return fmt.Errorf("the image does not decode: %w", err)
	}
	return nil
}

func hashOf(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}

// validHash reports whether h is a hex SHA-256 as hashOf writes it: it
// names a file, so nothing else may pass.
func validHash(h string) bool {
	if len(h) != sha256.Size*2 {
		return false
	}
	for i := 0; i < len(h); i++ {
		if c := h[i]; !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// attachmentExt is the file name extension of an attachment of mediaType:
// a text file's is .txt.
func attachmentExt(mediaType string) string {
	return cmp.Or(api.MediaExt(mediaType), ".txt")
}
