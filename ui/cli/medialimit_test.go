package cli

import (
	"bytes"
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// -p with 101 images, over the service's 100 media a request, is refused
// before anything is sent, exit 2, saying how many and what to do in a
// shell (no /detach, which only the chat screen has); with
// 100 the demo answers.
func TestPrintRefusesOverTheMediaLimit(t *testing.T) {
	dir := t.TempDir()
	var b bytes.Buffer
	png.Encode(&b, image.NewGray(image.Rect(0, 0, 2, 2)))
	var args []string
	for i := range 101 {
		p := filepath.Join(dir, fmt.Sprintf("%d.png", i))
		if err := os.WriteFile(p, b.Bytes(), 0o600); err != nil {
			t.Fatal(err)
		}
		args = append(args, "-a", p)
	}
	r := runMain(t, nil, "", append([]string{"--demo", "-p", "what are these?"}, args...)...)
	if r.code != 2 || !strings.Contains(r.stderr, "101 images and PDF pages") || !strings.Contains(r.stderr, "attach fewer files") || strings.Contains(r.stderr, "/detach") || r.stdout != "" {
		t.Errorf("101 images: %+v", r)
	}
	r = runMain(t, nil, "", append([]string{"--demo", "-p", "what are these?"}, args[2:]...)...)
	if r.code != 0 || !strings.Contains(r.stdout, "I see a PNG image") {
		t.Errorf("100 images: code %d stderr %q", r.code, r.stderr)
	}
}
