package launch

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"muse/session"
)

// imagesFolder returns a store and a folder of its images folder, where
// muse saves a session's images.
func imagesFolder(t *testing.T) (*session.Store, string) {
	t.Helper()
	store, err := session.Open(filepath.Join(t.TempDir(), "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(store.ImagesDir(), "20261122-100000-abcdef")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	return store, dir
}

// pngHead is the start of a PNG, all ImageFormat reads.
const pngHead = "\x89PNG\r\n\x1a\n\x00\x00\x00\x0dIHDR"

// TestOpenRefusesWhatIsNotAnImage checks a path from the session that is
// not an image (an imported session can name any file): it never reaches
// the viewer, which would run a .desktop file.
func TestOpenRefusesWhatIsNotAnImage(t *testing.T) {
	store, dir := imagesFolder(t)
	opened := fake(t, nil, nil)
	path := filepath.Join(dir, "cat.png")
	if err := os.WriteFile(path, []byte("[Desktop Entry]\nExec=touch /tmp/pwned\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	msg, ok := OpenImage(store, path)().(OpenedMsg)
	if !ok || msg.Err == nil || !strings.Contains(msg.Err.Error(), "not a PNG, JPEG or WebP image") || len(*opened) != 0 {
		t.Fatalf("open gave %+v, opened %q", msg, *opened)
	}
}

// A real PNG under a name a viewer would run (a PNG header on a .desktop
// file) is refused by its name.
func TestOpenRefusesANameThatIsNoImage(t *testing.T) {
	store, dir := imagesFolder(t)
	opened := fake(t, nil, nil)
	png := filepath.Join(dir, "evil.desktop")
	if err := os.WriteFile(png, []byte(pngHead), 0o600); err != nil {
		t.Fatal(err)
	}
	msg, ok := OpenImage(store, png)().(OpenedMsg)
	if !ok || msg.Err == nil || !strings.Contains(msg.Err.Error(), "not the name of an image file") || len(*opened) != 0 {
		t.Fatalf("open gave %+v, opened %q", msg, *opened)
	}
}

// A journal that came by sync or was written by hand names a file outside
// muse's images folder, a PNG by name and content (what the check of an
// image alone lets through), a link in the folder that leads out, or
// another machine's images folder: the
// viewer is never started, and the note says why, the path (untrusted
// text) without its escape sequences. An image of the folder opens, by its
// file, links followed.
func TestOpenRefusesAFileOutsideTheImagesFolder(t *testing.T) {
	store, dir := imagesFolder(t)
	opened := fake(t, nil, nil)
	outside := filepath.Join(t.TempDir(), "secret\x1b]0;pwned\x07.png")
	if err := os.WriteFile(outside, []byte(pngHead), 0o600); err != nil {
		t.Fatal(err)
	}
	linked := filepath.Join(dir, "turn-1-image-1-abc.png")
	if err := os.Symlink(outside, linked); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{outside, linked, filepath.Join(dir, "..", "..", "..", filepath.Base(filepath.Dir(outside)), filepath.Base(outside))} {
		msg, ok := OpenImage(store, path)().(OpenedMsg)
		if !ok || !errors.Is(msg.Err, session.ErrForeignImage) || !strings.Contains(msg.Err.Error(), "not in muse's images folder") ||
			!strings.Contains(msg.Err.Error(), "not opened") || strings.ContainsAny(msg.Err.Error(), "\x1b\x07") {
			t.Errorf("%q: open gave %+v", path, msg)
		}
	}
	other := "/home/someone/.local/share/muse/images/20261122-100000-abcdef/turn-1-image-1-0123456789ab.png"
	if msg, ok := OpenImage(store, other)().(OpenedMsg); !ok || !errors.Is(msg.Err, session.ErrForeignImage) ||
		!strings.Contains(msg.Err.Error(), "another machine's images folder, not on this one: not opened") {
		t.Errorf("another machine's image: open gave %+v", msg)
	}
	if len(*opened) != 0 {
		t.Errorf("the viewer was started on %q", *opened)
	}
	own := filepath.Join(dir, "turn-2-image-1-def.png")
	if err := os.WriteFile(own, []byte(pngHead), 0o600); err != nil {
		t.Fatal(err)
	}
	inside := filepath.Join(dir, "latest.png")
	if err := os.Symlink(own, inside); err != nil {
		t.Fatal(err)
	}
	real, err := filepath.EvalSymlinks(own)
	if err != nil {
		t.Fatal(err)
	}
	if msg, ok := OpenImage(store, inside)().(OpenedMsg); !ok || msg.Err != nil || len(*opened) != 1 || (*opened)[0] != "browser "+real {
		t.Errorf("an image of the folder: %+v, opened %q", msg, *opened)
	}
}
