//go:build linux

package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestAttachGeneratedImage is the run, in a real terminal: make an
// image, attach it, ask the demo what it shows, and get its size and
// colour back; then the same image, sent with -p --attach, gets the same
// answer.
func TestAttachGeneratedImage(t *testing.T) {
	t.Parallel()
	h := newHome(t, "")
	tm := start(t, h, 100, 40, "--demo")
	tm.waitFor("Ask anything")
	tm.typ("/image a red fox in snow\r")
	tm.waitFor("1024×1024")
	tm.typ("/attach image 1\r")
	tm.waitFor("[1] turn-1-image-1-")
	tm.typ("what does it show?\r")
	answer := regexp.MustCompile(`I see a PNG image, 1024×1024 pixels, average colour #[0-9a-f]{6} \([a-z ]+\)\.`)
	tm.waitUntil("the demo's answer about the image", waitDeadline, func(s string) bool { return answer.MatchString(s) })
	tm.waitFor("stop end_turn")
	seen := answer.FindString(tm.screen())
	tm.typ("\x03\x03")
	if code := tm.waitExit(); code != 0 {
		t.Fatalf("muse exited with status %d", code)
	}
	images, _ := filepath.Glob(filepath.Join(h.dir, "data/muse/images/*/turn-1-image-1-*.png"))
	if len(images) != 1 {
		t.Fatalf("generated images: %q", images)
	}
	// The attachment was stored once in the session's folder, 0600.
	stored, _ := filepath.Glob(filepath.Join(h.dir, "data/muse/attachments/*/*.png"))
	if len(stored) != 1 {
		t.Fatalf("stored attachments: %q", stored)
	}
	if fi, err := os.Stat(stored[0]); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("attachment file mode: %v %v", fi.Mode(), err)
	}
	out := h.run(t, "--demo", "-p", "and this?", "--attach", images[0], "--raw")
	if !strings.Contains(out, seen) {
		t.Errorf("-p --attach answered %q, want %q", out, seen)
	}
}

// TestResumeShowsAttachments reopens the session with -c: the prompt lists
// its attachment, and the next prompt still gets a reply.
func TestResumeShowsAttachments(t *testing.T) {
	t.Parallel()
	h := newHome(t, "")
	notes := filepath.Join(h.dir, "notes.md")
	os.WriteFile(notes, []byte("# Plan\nship it\n"), 0o600)
	h.run(t, "--demo", "-p", "read this", "-a", notes)
	tm := start(t, h, 80, 24, "--demo", "-c")
	tm.waitFor("stop end_turn")
	tm.typ("\x1b[H") // home: the top of the conversation
	tm.waitFor("+ notes.md · 15 B")
	tm.typ("and again?\r")
	tm.waitForHeading("and again?")
	// Not "esc cancels" gone: at 80 columns the settings can cut it off a
	// busy status line.
	tm.waitUntil("the reply to end", waitDeadline, func(s string) bool { return !busy(statusLine(s)) })
	tm.typ("\x04") // ctrl+d on an empty input quits
	if code := tm.waitExit(); code != 0 {
		t.Errorf("muse exited with status %d", code)
	}
}
