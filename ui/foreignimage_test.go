package ui

import (
	"errors"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"muse/session"
	"muse/session/sessiontest"
	"muse/ui/launch"
)

// A resumed session whose hand-written journal names, as its images, a
// real PNG outside muse's images folder (its name holding an escape
// sequence) and a link in the folder that leads to it: neither is read
// for a preview, each shows a note in its place and the status says so
// (after the image of another machine's images folder, which is missing);
// ctrl+o hands neither to the viewer and says why, the path sanitized. An
// image of the folder beside them still previews.
func TestForeignImageIsNotPreviewedOrOpened(t *testing.T) {
	h := newHarness(t, 0)
	const id = "20250301-090000-abcdef"
	dir := h.store.ImageDir(id)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	secret := filepath.Join(t.TempDir(), "id_rsa\x1b]0;pwned\x07.png")
	own := filepath.Join(dir, "turn-1-image-1-abc.png")
	for _, p := range []string{secret, own} {
		if err := os.WriteFile(p, logoPNG(), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	linked := filepath.Join(dir, "turn-1-image-2-def.png")
	if err := os.Symlink(secret, linked); err != nil {
		t.Fatal(err)
	}
	// Another machine's images folder, under another home: a file not
	// synced here, missing, never looked at.
	other := "/home/someone/.local/share/muse/images/" + id + "/turn-1-image-3-0123456789ab.png"
	sessiontest.WriteImageJournal(t, h.store.Dir(), id, own, linked, other, secret)
	sess, err := h.store.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	m := h.model(t, sess)
	m, _ = updateModel(m, tea.WindowSizeMsg{Width: 100, Height: 40})

	msg, ok := loadPreviews(m.conv.Entries(), m.previewer())().(previewsMsg)
	if !ok || msg.foreign != 2 || msg.previews[secret] != foreignPreview || msg.previews[linked] != foreignPreview ||
		msg.previews[own] == "" || msg.previews[own] == foreignPreview || msg.previews[other] != "" ||
		len(msg.missing) != 1 || msg.missing[0] != filepath.Base(other) {
		t.Fatalf("previews: %+v", msg)
	}
	m, _ = updateModel(m, msg)
	view := m.View()
	// The saved path's line is a link the terminal opens on a click only
	// for a file named in muse's images folder.
	link := func(p string) string { return "\x1b]8;;" + (&url.URL{Scheme: "file", Path: p}).String() + "\x1b\\" }
	if !strings.Contains(view, link(own)) || strings.Contains(view, link(secret)) || strings.Contains(view, link(other)) {
		t.Errorf("links: own %v, foreign %v, another machine's %v",
			strings.Contains(view, link(own)), strings.Contains(view, link(secret)), strings.Contains(view, link(other)))
	}
	if strings.Count(view, strings.TrimSpace(foreignPreview)) != 2 || !strings.Contains(view, "1 file of this session is missing") {
		t.Errorf("no note of the images left out:\n%s", view)
	}

	opened := fakeViewer(t, true)
	m, cmd := updateModel(m, tea.KeyMsg{Type: tea.KeyCtrlO})
	if cmd == nil {
		t.Fatal("ctrl+o gave no command")
	}
	got, ok := cmd().(launch.OpenedMsg)
	if !ok || !errors.Is(got.Err, session.ErrForeignImage) {
		t.Fatalf("ctrl+o gave %+v", got)
	}
	if _, err := os.Stat(opened); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the viewer was started: %v", err)
	}
	m, _ = updateModel(m, got)
	view = m.View()
	if !strings.Contains(view, "image not in muse's images folder: not opened") || strings.Contains(view, "\x1b]0;pwned") {
		t.Errorf("no note, or the path raw:\n%q", view)
	}
	// /open 2 names the link that leads out: refused too.
	if _, cmd = m.openImage(2); cmd == nil {
		t.Fatal("/open 2 gave no command")
	}
	if got, ok := cmd().(launch.OpenedMsg); !ok || !errors.Is(got.Err, session.ErrForeignImage) {
		t.Errorf("/open 2 gave %+v", got)
	}
}
