package e2e

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"muse/session/sessiontest"
)

// TestForeignImageIsNeitherShownNorOpened: a session's journal that came
// by sync or was written by hand names, as its images, a file muse saved
// (in its images folder), a link there that leads to a file outside, and
// that file itself, a real PNG. muse -c previews the first only, with a
// note in the place of the others; ctrl+o (the last image) and /open 2
// (the link) never start the viewer, and say why; the session goes on.
func TestForeignImageIsNeitherShownNorOpened(t *testing.T) {
	t.Parallel()
	h := newHome(t, "")
	const id = "20250301-090000-abcdef"
	images := filepath.Join(h.dir, "data", "muse", "images", id)
	secrets := filepath.Join(h.dir, "home", ".ssh")
	for _, d := range []string{images, secrets, h.sessionsDir()} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	own, secret, linked := filepath.Join(images, "turn-1-image-1-abc.png"), filepath.Join(secrets, "id_rsa.png"), filepath.Join(images, "turn-1-image-2-def.png")
	for _, p := range []string{own, secret} {
		if err := os.WriteFile(p, redPNG(t), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(secret, linked); err != nil {
		t.Fatal(err)
	}
	sessiontest.WriteImageJournal(t, h.sessionsDir(), id, own, linked, secret)
	// A viewer that records what it is given.
	bin, opened := t.TempDir(), filepath.Join(h.dir, "opened")
	if err := os.WriteFile(filepath.Join(bin, "xdg-open"), []byte("#!/bin/sh\nprintf '%s\\n' \"$1\" >> "+opened+"\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	for i, kv := range h.env {
		if strings.HasPrefix(kv, "PATH=") {
			h.env[i] = "PATH=" + bin + ":" + strings.TrimPrefix(kv, "PATH=")
		}
	}

	tm := start(t, h, 100, 40, "--demo", "-c")
	tm.waitUntil("the note of the images left out", waitDeadline, func(s string) bool {
		return strings.Count(s, "image not in muse's images folder: not shown or opened") == 2 && strings.Contains(s, "▀")
	})
	tm.typ("\x0f") // ctrl+o: the last image, the file outside
	tm.waitFor("image not in muse's images folder: not opened")
	tm.typ("/open 2\r") // the link in the folder that leads out
	tm.waitUntil("the second refusal", waitDeadline, func(s string) bool {
		return strings.Count(strings.Join(strings.Fields(s), " "), "images folder once its links are followed: not opened") == 1
	})
	tm.typ("hello\r") // the session goes on
	tm.waitFor("stop end_turn")
	tm.typ("\x04")
	if code := tm.waitExit(); code != 0 {
		t.Errorf("muse exited with status %d", code)
	}
	if data, err := os.ReadFile(opened); err == nil || len(data) > 0 {
		t.Errorf("the viewer was started on %q (%v)", data, err)
	}
}

// redPNG is an 8×8 red PNG.
func redPNG(t *testing.T) []byte {
	t.Helper()
	img := image.NewNRGBA(image.Rect(0, 0, 8, 8))
	for y := range 8 {
		for x := range 8 {
			img.Set(x, y, color.NRGBA{R: 0xff, A: 0xff})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
