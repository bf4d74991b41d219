package session

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/image/webp"

	"muse/api/regfile"
	"muse/session/internal/fileio"
)

// Limits on images: those SaveImage accepts and the previews DecodeImage
// makes, and what an image turn reads. They are muse's only ones: the chat
// screen and the command line both go by them.
const (
	// MaxImageSide is the largest width or height of an image, in pixels.
	MaxImageSide = 8192
	// MaxImagePixels is the largest number of pixels of an image.
	MaxImagePixels = 40_000_000
	// MaxImageBytes is the largest image read, downloaded or decoded from
	// base64, in bytes.
	MaxImageBytes = 64 << 20
	// MaxGenerationBytes bounds the bytes of all the images of one
	// generation, downloaded and decoded: with api.MaxImages images of
	// MaxImageBytes, a hostile server could otherwise have 256 MiB read.
	MaxGenerationBytes = 128 << 20
)

// Image formats, as SavedImage.Format names them.
const (
	FormatPNG  = "png"
	FormatJPEG = "jpeg"
	FormatWebP = "webp"
)

// imagesDir is the directory, beside the sessions directory, that holds one
// directory of images per session.
const imagesDir = "images"

// SavedImage is an image written by SaveImage.
type SavedImage struct {
	// Path is the absolute path of the file.
	Path string
	// Format is FormatPNG, FormatJPEG or FormatWebP.
	Format        string
	Width, Height int
}

// ImageDir returns the directory of the images of the session sessionID:
// images/<sessionID> beside the store's directory, so
// $XDG_DATA_HOME/muse/images/<sessionID> for the default store. It returns ""
// for an invalid id.
func (s *Store) ImageDir(sessionID string) string {
	if !validID(sessionID) {
		return ""
	}
	return filepath.Join(filepath.Dir(s.dir), imagesDir, sessionID)
}

// ImagesDir returns the directory that holds the image directories of all
// the sessions (see ImageDir).
func (s *Store) ImagesDir() string { return filepath.Join(filepath.Dir(s.dir), imagesDir) }

// SaveImage writes the image data, generated at the turn for the session
// sessionID as its index-th result, to the session's image directory and
// returns where it went.
//
// The format is told from the first bytes alone and must be PNG, JPEG or
// WebP; the size is read from the header, and an image over MaxImageSide
// pixels a side or MaxImagePixels pixels is refused. The data is not decoded
// further. The file is named turn-<turn>-image-<index>-<tag>.<ext>, from
// those numbers and the first 12 hex digits of the SHA-256 of its bytes,
// so that two machines that continue a session never write different
// images under one name; it is written with mode
// 0600 to a temporary file, synced and renamed, so it is never seen half
// written. The directory and its missing parents are made with mode 0700.
func (s *Store) SaveImage(sessionID string, turn, index int, data []byte) (SavedImage, error) {
	if !validID(sessionID) {
		return SavedImage{}, fmt.Errorf("save image of session %q: invalid id: %w", sessionID, ErrNotFound)
	}
	if turn < 0 || index < 0 {
		return SavedImage{}, fmt.Errorf("save image of session %s: negative turn %d or index %d", sessionID, turn, index)
	}
	dir := s.ImageDir(sessionID)
	tag := sha256.Sum256(data)
	si, err := saveImage(dir, "turn-"+strconv.Itoa(turn)+"-image-"+strconv.Itoa(index)+"-"+hex.EncodeToString(tag[:6]), data, s.makeOwn)
	if err != nil {
		return SavedImage{}, fmt.Errorf("save image of session %s: %w", sessionID, err)
	}
	return si, nil
}

// SaveImageIn writes the image data to the directory dir, chosen by the
// user, as <base>.<ext>, with the checks and the atomic write of SaveImage.
// base must be a plain file name given by the program, never text from the
// server. A missing dir is made, with its parents, with mode 0700; an
// existing one is left as it is.
func SaveImageIn(dir, base string, data []byte) (SavedImage, error) {
	if base == "" || base == "." || base == ".." || strings.ContainsAny(base, `/\`+"\x00") {
		return SavedImage{}, fmt.Errorf("save image: %q is not a plain file name", base)
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return SavedImage{}, fmt.Errorf("save image in %s: %w", dir, err)
	}
	format, cfg, err := imageConfig(bytes.NewReader(data), MaxImageSide, MaxImagePixels)
	if err != nil {
		return SavedImage{}, fmt.Errorf("save image in %s: %w", abs, err)
	}
	if err := os.MkdirAll(abs, fileio.DirMode); err != nil {
		return SavedImage{}, fmt.Errorf("save image in %s: %w", abs, err)
	}
	path, err := writeFresh(abs, base, "."+imageExt(format), data)
	if err != nil {
		return SavedImage{}, fmt.Errorf("save image in %s: %w", abs, err)
	}
	return SavedImage{Path: path, Format: format, Width: cfg.Width, Height: cfg.Height}, nil
}

// writeFresh writes data to a new file in dir named base+ext, or, when that
// exists, "base (2)"+ext, "base (3)"+ext…, as browsers name downloads: a
// file already there is never replaced. (A suffix like "-2" would make
// "image-1-2.png", which reads like "1 of 2".)
// The file appears whole or not at all: it is written beside, then linked
// to its name, which fails if the name was taken meanwhile.
func writeFresh(dir, base, ext string, data []byte) (string, error) {
	tmp, err := fileio.WriteTemp(filepath.Join(dir, base+ext), data)
	if err != nil {
		return "", err
	}
	defer os.Remove(tmp)
	for n := 1; n <= 1000; n++ {
		name := base + ext
		if n > 1 {
			name = fmt.Sprintf("%s (%d)%s", base, n, ext)
		}
		path := filepath.Join(dir, name)
		err := os.Link(tmp, path)
		if err == nil {
			return path, fileio.SyncDir(dir)
		}
		if !errors.Is(err, fs.ErrExist) {
			return "", err
		}
	}
	return "", fmt.Errorf("%s%s and the 999 names after it are taken", base, ext)
}

// saveImage checks data and writes it atomically to dir/<base>.<ext>, after
// making dir with mkdir.
func saveImage(dir, base string, data []byte, mkdir func(string) error) (SavedImage, error) {
	format, cfg, err := imageConfig(bytes.NewReader(data), MaxImageSide, MaxImagePixels)
	if err != nil {
		return SavedImage{}, err
	}
	if err := mkdir(dir); err != nil {
		return SavedImage{}, err
	}
	path := filepath.Join(dir, base+"."+imageExt(format))
	if err := fileio.WriteAtomic(path, data); err != nil {
		return SavedImage{}, err
	}
	return SavedImage{Path: path, Format: format, Width: cfg.Width, Height: cfg.Height}, nil
}

// DeleteImages removes the image directory of the session sessionID and
// everything in it. A directory that does not exist is not an error.
func (s *Store) DeleteImages(sessionID string) error {
	dir := s.ImageDir(sessionID)
	if dir == "" {
		return fmt.Errorf("delete images of session %q: invalid id: %w", sessionID, ErrNotFound)
	}
	if err := s.checkOwn(dir); err != nil {
		return fmt.Errorf("delete images of session %s: %w", sessionID, err)
	}
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("delete images of session %s: %w", sessionID, err)
	}
	return nil
}

// DecodeImage decodes the PNG, JPEG or WebP image in the file path, after
// checking from its header that it is at most maxSide pixels a side and
// maxPixels pixels (MaxImageSide and MaxImagePixels when 0 or less).
func DecodeImage(path string, maxSide, maxPixels int) (image.Image, error) {
	// Never blocks on a FIFO or device a hand-edited journal names: opened
	// without waiting, then checked to be a regular file.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fmt.Errorf("decode image: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("decode image %s: not a regular file", path)
	}
	img, err := decodeImage(f, fi.Size(), maxSide, maxPixels)
	if err != nil {
		return nil, fmt.Errorf("decode image %s: %w", path, err)
	}
	return img, nil
}

// DecodeImageData is DecodeImage of an image in memory, such as an
// attachment's bytes read through ReadAttachment's checks.
func DecodeImageData(data []byte, maxSide, maxPixels int) (image.Image, error) {
	img, err := decodeImage(bytes.NewReader(data), int64(len(data)), maxSide, maxPixels)
	if err != nil {
		return nil, fmt.Errorf("decode image: %w", err)
	}
	return img, nil
}

// imageSource is what an image is decoded from: a file or bytes.
type imageSource interface {
	io.Reader
	io.ReaderAt
	io.Seeker
}

// decodeImage decodes the image of size bytes that r holds (see
// DecodeImage).
func decodeImage(r imageSource, size int64, maxSide, maxPixels int) (image.Image, error) {
	if maxSide <= 0 {
		maxSide = MaxImageSide
	}
	if maxPixels <= 0 {
		maxPixels = MaxImagePixels
	}
	format, cfg, err := imageConfig(r, maxSide, maxPixels)
	if err != nil {
		return nil, err
	}
	// The decode is costed from the file's first bytes, which hold its
	// header (a JPEG's frame header comes after its EXIF and the like);
	// one whose header is not there costs the most it could.
	head := make([]byte, min(size, costHead))
	n, err := r.ReadAt(head, 0)
	if err != nil && !errors.Is(err, io.EOF) {
		return nil, err
	}
	if cost := DecodeCost("image/"+format, head[:n], cfg); cost > MaxDecodedBytes {
		return nil, fmt.Errorf("%d×%d px needs %d MB to decode, over muse's %d MB", cfg.Width, cfg.Height, cost>>20, MaxDecodedBytes>>20)
	}
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	var img image.Image
	switch format {
	case FormatPNG:
		img, err = png.Decode(r)
		if err != nil {
			img, err = decodeRepairedPNG(r, err)
		}
	case FormatJPEG:
		img, err = jpeg.Decode(r)
	default:
		img, err = webp.Decode(r)
	}
	if err != nil {
		return nil, err
	}
	return img, nil
}

// decodeRepairedPNG decodes the PNG of r again without its ancillary chunks
// whose CRC is bad (withoutBadAncillary); failing that, or when there is
// none, it returns the first decode's error, first.
func decodeRepairedPNG(r io.ReadSeeker, first error) (image.Image, error) {
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return nil, first
	}
	data, err := regfile.ReadAll(r, MaxImageBytes)
	if err != nil {
		return nil, first
	}
	fixed, ok := withoutBadAncillary(data)
	if !ok {
		return nil, first
	}
	img, err := png.Decode(bytes.NewReader(fixed))
	if err != nil {
		return nil, first
	}
	return img, nil
}

// costHead is how much of an image file DecodeImage reads to cost its
// decode: room for a JPEG's EXIF, ICC profile and XMP before its frame
// header.
const costHead = 1 << 20

// imageConfig tells the format of the image r holds from its first bytes
// and reads its size from its header, refusing one over the limits.
func imageConfig(r io.Reader, maxSide, maxPixels int) (string, image.Config, error) {
	var head [12]byte
	n, err := io.ReadFull(r, head[:])
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return "", image.Config{}, err
	}
	format := sniffImage(head[:n])
	if format == "" {
		return "", image.Config{}, errors.New("not a PNG, JPEG or WebP image")
	}
	r = io.MultiReader(bytes.NewReader(head[:n]), r)
	var cfg image.Config
	switch format {
	case FormatPNG:
		cfg, err = png.DecodeConfig(r)
	case FormatJPEG:
		cfg, err = jpeg.DecodeConfig(r)
	default:
		cfg, err = webp.DecodeConfig(r)
	}
	if err != nil {
		return "", image.Config{}, fmt.Errorf("damaged %s image: %w", imageName(format), err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return "", image.Config{}, fmt.Errorf("%s image of %d×%d px is empty", imageName(format), cfg.Width, cfg.Height)
	}
	if cfg.Width > maxSide || cfg.Height > maxSide || int64(cfg.Width)*int64(cfg.Height) > int64(maxPixels) {
		return "", image.Config{}, fmt.Errorf("image of %d×%d px is too large (limit %d px a side, %s megapixels)",
			cfg.Width, cfg.Height, maxSide, strconv.FormatFloat(float64(maxPixels)/1e6, 'f', -1, 64))
	}
	return format, cfg, nil
}

// sniffImage returns the format whose signature head starts with, or "".
func sniffImage(head []byte) string {
	switch {
	case bytes.HasPrefix(head, []byte("\x89PNG\r\n\x1a\n")):
		return FormatPNG
	case bytes.HasPrefix(head, []byte("\xff\xd8\xff")):
		return FormatJPEG
	case len(head) >= 12 && string(head[:4]) == "RIFF" && string(head[8:12]) == "WEBP":
		return FormatWebP
	}
	return ""
}

// imageExt returns the file name extension of a format.
func imageExt(format string) string {
	if format == FormatJPEG {
		return "jpg"
	}
	return format
}

// imageName returns the name of a format in messages.
func imageName(format string) string {
	switch format {
	case FormatPNG:
		return "PNG"
	case FormatJPEG:
		return "JPEG"
	}
	return "WebP"
}

// ImageFormat reads the start of the file at path and returns its image
// format (FormatPNG, FormatJPEG or FormatWebP), or an error saying it is
// none: a path read from a session (an imported one, say) is opened in a
// viewer only if it holds an image.
func ImageFormat(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	head := make([]byte, 12)
	n, _ := io.ReadFull(f, head)
	if format := sniffImage(head[:n]); format != "" {
		return format, nil
	}
	return "", fmt.Errorf("%s is not a PNG, JPEG or WebP image", path)
}

// localImages points the images of sess that name a file of this muse's
// images folder as another machine has it (another home, another user)
// at the same file here, when it is here: a journal names each image by
// its absolute path, and a synced folder holds it under another one. The
// journal is not changed.
func (s *Store) localImages(sess *Session) {
	dir := s.ImageDir(sess.ID)
	if dir == "" {
		return
	}
	fix := func(es []Entry) {
		for i := range es {
			for j := range es[i].Images {
				img := &es[i].Images[j]
				base := filepath.Base(img.Path)
				if img.Path == "" || filepath.Dir(img.Path) == dir || !isImageName(base) || filepath.Base(filepath.Dir(img.Path)) != sess.ID {
					continue
				}
				here := filepath.Join(dir, base)
				if fi, err := os.Lstat(here); err == nil && fi.Mode().IsRegular() {
					img.Path = here
				}
			}
		}
	}
	fix(sess.All)
	fix(sess.Entries)
}

// ErrForeignImage is the error for an image path, as a journal names it,
// that is not a file of muse's images folder once its links are followed:
// a journal that came by sync (Syncthing, git) or was written by hand can
// name any file as an image (~/.ssh/id_rsa, /etc/shadow), which muse never
// reads, previews or hands to a viewer.
var ErrForeignImage = errors.New("image not in muse's images folder")

// OwnImage returns the file of the image at path, a path a journal names,
// with its links followed, when that is a regular file in this store's
// images folder (the folder's own links followed too). A path whose name
// lies outside the folder is refused without a look at the file it names;
// one inside whose links lead out is refused once they are followed: both
// with an error wrapping ErrForeignImage. One that names an image of
// another machine's images folder (images/<id>/turn-…, under another
// home), whose file has not come here, wraps fs.ErrNotExist too. What it
// returns is the file to read or open, named without links.
func (s *Store) OwnImage(path string) (string, error) {
	if s == nil || path == "" {
		return "", ErrForeignImage
	}
	root, p := s.ImagesDir(), filepath.Clean(path)
	if !s.NamesImage(path) {
		if elsewhere(p) {
			return "", elsewhereError{}
		}
		return "", ErrForeignImage
	}
	// The images folder must be muse's own, not a link (images -> ~) that
	// a sync planted, as for a write (checkOwn): through one, a name in it
	// would be any file where the link leads.
	if err := s.checkOwn(root); err != nil {
		return "", fmt.Errorf("%w: %w", ErrForeignImage, err)
	}
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", fmt.Errorf("muse's images folder: %w", err)
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return "", err
	}
	if !strings.HasPrefix(real, realRoot+string(filepath.Separator)) {
		return "", fmt.Errorf("%w once its links are followed", ErrForeignImage)
	}
	fi, err := os.Stat(real)
	if err != nil {
		return "", err
	}
	if !fi.Mode().IsRegular() {
		return "", &regfile.NotRegularError{Mode: fi.Mode()}
	}
	return real, nil
}

// NamesImage reports whether path, by its name alone, is a file in this
// store's images folder: the look OwnImage makes before it touches the
// disk, for what may not do I/O (the chat screen's link to a saved image).
func (s *Store) NamesImage(path string) bool {
	if s == nil || path == "" {
		return false
	}
	p := filepath.Clean(path)
	return filepath.IsAbs(p) && strings.HasPrefix(p, s.ImagesDir()+string(filepath.Separator))
}

// elsewhereError is OwnImage's error for an image of another machine's
// images folder: ErrForeignImage, and fs.ErrNotExist.
type elsewhereError struct{}

func (elsewhereError) Error() string {
	return "image of another machine's images folder, not on this one"
}

func (elsewhereError) Is(target error) bool {
	return target == ErrForeignImage || target == fs.ErrNotExist
}

// elsewhere reports whether path names a generated image as another
// machine's images folder holds it: images/<session id>/turn-….
func elsewhere(path string) bool {
	dir := filepath.Dir(path)
	return isImageName(filepath.Base(path)) && validID(filepath.Base(dir)) && filepath.Base(filepath.Dir(dir)) == imagesDir
}
