package launch

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpenRefusesWhatIsNotAnImage checks a path from the session that is
// not an image (an imported session can name any file): it never reaches
// the viewer, which would run a .desktop file.
func TestOpenRefusesWhatIsNotAnImage(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cat.png")
	if err := os.WriteFile(path, []byte("[Desktop Entry]\nExec=touch /tmp/pwned\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	msg, ok := OpenImage(path)().(OpenedMsg)
	if !ok || msg.Err == nil || !strings.Contains(msg.Err.Error(), "not a PNG, JPEG or WebP image") {
		t.Fatalf("open gave %+v", msg)
	}
}

// A real PNG under a name a viewer would run (a PNG header on a .desktop
// file) is refused by its name.
func TestOpenRefusesANameThatIsNoImage(t *testing.T) {
	png := filepath.Join(t.TempDir(), "evil.desktop")
	if err := os.WriteFile(png, []byte("\x89PNG\r\n\x1a\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	msg, ok := OpenImage(png)().(OpenedMsg)
	if !ok || msg.Err == nil || !strings.Contains(msg.Err.Error(), "not the name of an image file") {
		t.Fatalf("open gave %+v", msg)
	}
}
