package ui

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/muesli/termenv"

	"muse/api"
	"muse/api/demo"
	"muse/session"
	"muse/theme"
	"muse/ui/engine"
	"muse/ui/internal/waitfor"
)

// imageTurn runs /size and /image with prompt and returns the final model.
func imageTurn(t *testing.T, prompt string, profile termenv.Profile, w, h int) (Model, *harness) {
	t.Helper()
	hs := newHarness(t, 0)
	m := hs.model(t, nil)
	m.opts.Profile = profile
	tm := start(t, m, w, h)
	send(tm, "/size 48x32")
	send(tm, "/image "+prompt)
	waitSaved(t, hs.store, session.KindImage)
	return quit(t, tm), hs
}

// waitSaved waits until the journal holds a finished entry of kind.
func waitSaved(t *testing.T, store *session.Store, kind string) {
	t.Helper()
	waitfor.Dir(t, store.Dir(), nil, "a finished "+kind+" entry saved", func() bool {
		sess, err := store.Latest()
		return err == nil && len(sess.Entries) > 0 && finished(sess.Entries[len(sess.Entries)-1], kind)
	})
}

func lastImageEntry(t *testing.T, m Model) session.Entry {
	t.Helper()
	es := m.conv.Entries()
	i := lastIndex(es, session.KindImage)
	if i < 0 {
		t.Fatalf("no image entry in %+v", es)
	}
	return es[i]
}

func TestImageTurns(t *testing.T) {
	cases := []struct {
		name, prompt string
		check        func(t *testing.T, e session.Entry, view string)
	}{
		{"b64", "a red fox", func(t *testing.T, e session.Entry, view string) {
			if len(e.Images) != 1 || e.Images[0].Path == "" || e.Images[0].Width != 48 || e.Images[0].Height != 32 {
				t.Fatalf("images %+v", e.Images)
			}
			data, err := os.ReadFile(e.Images[0].Path)
			if err != nil || !strings.HasPrefix(string(data), "\x89PNG") {
				t.Errorf("saved file: %v", err)
			}
			if st, _ := os.Stat(e.Images[0].Path); st.Mode().Perm() != 0o600 {
				t.Errorf("mode %v", st.Mode().Perm())
			}
			if !strings.Contains(view, "48×32") || !strings.Contains(view, "revised: a red fox, rendered") {
				t.Errorf("view:\n%s", view)
			}
		}},
		{"url", "demo:url a lake", func(t *testing.T, e session.Entry, view string) {
			if len(e.Images) != 1 || e.Images[0].Path == "" || !strings.HasPrefix(e.Images[0].URL, "http://127.0.0.1") {
				t.Fatalf("images %+v", e.Images)
			}
			if !strings.Contains(view, "\x1b]8;;http://127.0.0.1") {
				t.Errorf("no hyperlink to the URL in the view")
			}
		}},
		{"mixed", "demo:mixed two things", func(t *testing.T, e session.Entry, view string) {
			if len(e.Images) != 2 || e.Images[0].Path == "" || e.Images[1].Path == "" || e.Images[0].Path == e.Images[1].Path {
				t.Fatalf("images %+v", e.Images)
			}
		}},
		{"bad_base64", "demo:badb64 broken", func(t *testing.T, e session.Entry, view string) {
			if len(e.Images) != 1 || e.Images[0].Error == "" || e.Images[0].Path != "" || !strings.Contains(view, "base64") {
				t.Fatalf("images %+v\n%s", e.Images, view)
			}
		}},
		{"huge_header", "demo:huge giant", func(t *testing.T, e session.Entry, view string) {
			if len(e.Images) != 1 || !strings.Contains(e.Images[0].Error, "too large") || e.Images[0].Path != "" {
				t.Fatalf("images %+v", e.Images)
			}
		}},
		{"download_404", "demo:404 missing", func(t *testing.T, e session.Entry, view string) {
			if len(e.Images) != 1 || !strings.Contains(e.Images[0].Error, "404") {
				t.Fatalf("images %+v", e.Images)
			}
		}},
		{"hostile", "demo:hostile evil", func(t *testing.T, e session.Entry, view string) {
			for _, bad := range []string{"\x1b]0;", "\x1b[2J", "\x1b]8;;javascript"} {
				if strings.Contains(view, bad) {
					t.Errorf("view holds %q", bad)
				}
			}
			if len(e.Images) != 2 || e.Images[0].Path == "" || e.Images[1].Error == "" {
				t.Errorf("images %+v: the good one is kept, the javascript: one fails", e.Images)
			}
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			m, _ := imageTurn(t, tc.prompt, termenv.Ascii, 100, 40)
			e := lastImageEntry(t, m)
			if e.Status != session.StatusComplete {
				t.Errorf("status %q", e.Status)
			}
			tc.check(t, e, m.View())
		})
	}
}

func TestImageTurnGoldenWithPreview(t *testing.T) {
	m, hs := imageTurn(t, "a red fox", termenv.TrueColor, 160, 30) // wide: the temporary path never wraps
	view := m.View()
	if !strings.Contains(view, "▀") {
		t.Fatalf("no half-block preview:\n%s", view)
	}
	e := lastImageEntry(t, m)
	// The path holds a temporary directory: show it as a fixed one.
	dir := hs.store.ImageDir(m.SessionID())
	view = strings.ReplaceAll(view, dir, "/DATA/images/SESSION")
	view = strings.ReplaceAll(view, m.SessionID(), "SESSION")
	_ = e
	golden.RequireEqual(t, []byte(view))

	// Resumed, the turn looks the same, its preview rebuilt from the file.
	sess, err := hs.store.Latest()
	if err != nil {
		t.Fatal(err)
	}
	r := hs.model(t, sess)
	r.opts.Profile = termenv.TrueColor
	r, _ = updateModel(r, tea.WindowSizeMsg{Width: 160, Height: 30})
	msg := loadPreviews(sess.Entries, r.previewer())()
	r, _ = updateModel(r, msg)
	if !strings.Contains(r.View(), "▀") {
		t.Errorf("resumed turn has no preview")
	}
}

func TestImageCancel(t *testing.T) {
	hs, hd := newHeldHarness(t, "take your time") // the image is in flight until esc
	tm := start(t, hs.model(t, nil), 80, 24)
	send(tm, "/image take your time")
	waitFor(t, tm, "generating")
	ht := hd.held(t)
	tm.Send(tea.KeyMsg{Type: tea.KeyEsc})
	waitFor(t, tm, "cancelled")
	ht.cancelled(t)
	m := quit(t, tm)
	e := lastImageEntry(t, m)
	if e.Status != session.StatusCancelled || m.turns.Image() != nil {
		t.Errorf("status %q, imaging %v", e.Status, m.turns.Image())
	}
}

func TestImageKittyPreview(t *testing.T) {
	hs := newHarness(t, 0)
	m := hs.model(t, nil)
	term := &lockedBuffer{}
	m.opts.Kitty, m.opts.Terminal, m.opts.Profile = true, term, termenv.TrueColor
	tm := start(t, m, 80, 30)
	send(tm, "/size 40x20")
	send(tm, "/image a red fox")
	waitSaved(t, hs.store, session.KindImage)
	final := quit(t, tm)
	sent := term.String()
	if !strings.HasPrefix(sent, "\x1b_Ga=T,f=100,i=") || !strings.Contains(sent, ",U=1,") {
		t.Errorf("no kitty transmission sent: %.60q", sent)
	}
	if view := final.View(); !strings.Contains(view, "\U0010EEEE") || strings.Contains(view, "\x1b_G") {
		t.Errorf("the view should show placeholders, never the transmission")
	}
}

// fakeViewer puts an xdg-open first in PATH that records the file it is
// asked to open; with no script, PATH holds no viewer at all.
func fakeViewer(t *testing.T, script bool) (opened string) {
	t.Helper()
	if runtime.GOOS != "linux" {
		if os.Getenv("CI") != "" {
			t.Fatal("CI runs on Linux, where the viewer is xdg-open")
		}
		t.Skip("the viewer is xdg-open on Linux only")
	}
	dir := t.TempDir()
	opened = filepath.Join(dir, "opened")
	if script {
		body := "#!/bin/sh\nprintf '%s' \"$1\" > " + opened + "\n"
		if err := os.WriteFile(filepath.Join(dir, "xdg-open"), []byte(body), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("PATH", dir)
	return opened
}

// Image files are numbered by the image turns of their session, not by the
// entries before them; /open alone and ctrl+o open the last image saved,
// even after an image turn that failed.
func TestImageFilesAndOpen(t *testing.T) {
	hs := newHarness(t, 0)
	tm := start(t, hs.model(t, nil), 100, 40)
	send(tm, "hello first") // two entries before the first image turn
	waitFor(t, tm, "stop end_turn")
	send(tm, "/size 48x32")
	send(tm, "/image a red fox")
	waitSavedOn(t, hs.store, 3, session.KindImage)
	// The first image turn may still be ending on screen: the command is
	// then refused, kept in the input, and sent again.
	sendWhenIdle(t, tm, "/image demo:404 a lost one", "404 Not Found")
	waitSavedOn(t, hs.store, 4, session.KindImage)
	opened := fakeViewer(t, true)
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlO})
	waitFor(t, tm, "opened")
	m := quit(t, tm)
	es := m.conv.Entries()
	first := es[lastIndex(es[:len(es)-1], session.KindImage)]
	if base := filepath.Base(first.Images[0].Path); !strings.HasPrefix(base, "turn-1-image-1-") || !strings.HasSuffix(base, ".png") {
		t.Errorf("the first image turn saved %s, want turn-1-image-1-<hash>.png", base)
	}
	var got []byte
	waitfor.File(t, opened, nil, "the viewer to be told a path", func(data []byte) bool {
		got = data
		return len(data) > 0
	})
	if string(got) != first.Images[0].Path {
		t.Errorf("ctrl+o opened %q, want %q", got, first.Images[0].Path)
	}
}

// With no viewer installed, the error is shown whole in the conversation.
func TestOpenWithoutViewerShowsTheWholeError(t *testing.T) {
	hs := newHarness(t, 0)
	tm := start(t, hs.model(t, nil), 60, 30)
	send(tm, "/size 48x32")
	send(tm, "/image a red fox")
	// /open opens the image the screen holds: wait until it shows the
	// saved file (its link names it), not until the journal holds it,
	// which comes first.
	waitFor(t, tm, "turn-1-image-1-")
	fakeViewer(t, false)
	send(tm, "/open")
	waitFor(t, tm, "could not be opened")
	m := quit(t, tm)
	es := m.conv.Entries()
	last := es[len(es)-1]
	if last.Kind != session.KindNotice || !strings.Contains(last.Text, "xdg-open") || !strings.Contains(last.Text, lastImageEntry(t, m).Images[0].Path) {
		t.Fatalf("no notice with the whole error: %+v", last)
	}
	if !strings.Contains(strings.Join(strings.Fields(m.View()), ""), "(xdg-open)installed?") { // wrapped anywhere
		t.Errorf("the error is cut on screen:\n%s", m.View())
	}
}

// ctrl+g says what it did.
func TestPreviewToggleSaysSo(t *testing.T) {
	hs := newHarness(t, 0)
	m := hs.model(t, nil)
	m, _ = updateModel(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	m, _ = updateModel(m, tea.KeyMsg{Type: tea.KeyCtrlG})
	if !strings.Contains(m.View(), "image previews hidden") {
		t.Errorf("ctrl+g said nothing:\n%s", m.View())
	}
	m, _ = updateModel(m, tea.KeyMsg{Type: tea.KeyCtrlG})
	if !strings.Contains(m.View(), "image previews shown") {
		t.Errorf("ctrl+g said nothing:\n%s", m.View())
	}
}

// unsaved is the chat screen of a session kept in memory only (--no-save),
// its images kept in imageStore, which may be nil.
func (h *harness) unsaved(t *testing.T, imageStore *session.Store) Model {
	t.Helper()
	th, err := theme.New("dark", true)
	if err != nil {
		t.Fatal(err)
	}
	return New(Options{
		Config:     engine.Config{Client: api.New(h.srv.URL, api.WithAccessToken(demo.DefaultToken), api.WithMaxRetries(0)), Now: fixedClock()},
		ImageStore: imageStore, Theme: th, Profile: termenv.TrueColor,
		Params: session.Params{Model: "demo-chat", MaxTokens: 1024}, ImageModel: "demo-image",
		Getenv: func(string) string { return "" },
	})
}

// With --no-save the image turn ends (it stayed at "saving…" for ever): its
// images go to a one-shot folder, with their previews, as -p saves them.
func TestImageWithNoSave(t *testing.T) {
	hs := newHarness(t, 0)
	tm := start(t, hs.unsaved(t, hs.store), 100, 40)
	send(tm, "/size 48x32")
	send(tm, "/image a red fox")
	waitFor(t, tm, "turn-1-image-1-")
	m := quit(t, tm)
	e := lastImageEntry(t, m)
	if m.turns.Image() != nil || e.Status != session.StatusComplete {
		t.Fatalf("imaging %v, status %q", m.turns.Image(), e.Status)
	}
	path := e.Images[0].Path
	if !strings.HasPrefix(filepath.Base(filepath.Dir(path)), "oneshot-") || !strings.Contains(m.View(), "▀") {
		t.Errorf("saved to %q; view:\n%s", path, m.View())
	}
	if ids, err := hs.store.List(); err != nil || len(ids) != 0 {
		t.Errorf("a session kept in memory was written: %v (%v)", ids, err)
	}
}

// With nowhere to save images, the turn still ends, and each image says why
// it was not saved.
func TestImageWithNowhereToSave(t *testing.T) {
	hs := newHarness(t, 0)
	tm := start(t, hs.unsaved(t, nil), 100, 40)
	send(tm, "/image a red fox")
	waitFor(t, tm, "not saved")
	m := quit(t, tm)
	if e := lastImageEntry(t, m); m.turns.Image() != nil || e.Status != session.StatusComplete || strings.Contains(m.View(), "saving…") {
		t.Errorf("imaging %v, status %q; view:\n%s", m.turns.Image(), e.Status, m.View())
	}
}

// A server that sends more images than asked has the rest dropped, and the
// status bar says so.
func TestImageDroppedSaysSo(t *testing.T) {
	hs := newHarness(t, 0)
	tm := start(t, hs.model(t, nil), 100, 40)
	send(tm, "/size 16x16")
	send(tm, "/image demo:many cats")
	waitFor(t, tm, "the server sent 12 images; kept the first 4")
	waitSaved(t, hs.store, session.KindImage)
	m := quit(t, tm)
	if e := lastImageEntry(t, m); len(e.Images) != 4 {
		t.Errorf("%d images kept", len(e.Images))
	}
}

// An asynchronous task shows its state on the status line, and esc stops
// polling it: the turn is saved cancelled at once.
func TestImageTaskProgressAndCancel(t *testing.T) {
	hs, hd := newHeldHarness(t, "/api/v1/tasks/") // the task's first poll waits until esc
	tm := start(t, hs.model(t, nil), 100, 40)
	send(tm, "/image demo:task a slow fox")
	waitFor(t, tm, "task pending")
	ht := hd.held(t)
	tm.Send(tea.KeyMsg{Type: tea.KeyEsc})
	waitSaved(t, hs.store, session.KindImage)
	ht.cancelled(t)
	m := quit(t, tm)
	sess, err := hs.store.Latest()
	if err != nil {
		t.Fatal(err)
	}
	if e := sess.Entries[len(sess.Entries)-1]; e.Status != session.StatusCancelled || m.turns.Image() != nil {
		t.Errorf("saved %q, imaging %v", e.Status, m.turns.Image())
	}
}

// An image attachment's preview is read through the store's checks
// (session.Store.ReadAttachment): its file swapped for another image of
// the same size, or a link put in its place (to a copy of the very bytes),
// is reported missing and never shown as the attachment.
func TestAttachmentPreviewOnlyOfTheCheckedFile(t *testing.T) {
	solid := func(c color.RGBA) []byte {
		img := image.NewRGBA(image.Rect(0, 0, 4, 4))
		for i := 0; i < len(img.Pix); i += 4 {
			img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = c.R, c.G, c.B, c.A
		}
		var buf bytes.Buffer
		if err := png.Encode(&buf, img); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	}
	red, blue := solid(color.RGBA{255, 0, 0, 255}), solid(color.RGBA{254, 0, 0, 255})
	if len(red) != len(blue) {
		t.Fatalf("the two images differ in size (%d, %d): the swap would be found by its size alone", len(red), len(blue))
	}
	hs := newHarness(t, 0)
	w := session.NewWriter(hs.store, session.Params{Model: "demo-chat"})
	a, err := w.SaveAttachment(session.Attachment{Name: "red.png", Kind: session.AttachImage, MediaType: "image/png", Width: 4, Height: 4}, red)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Append(session.Entry{Kind: session.KindUser, Text: "what is this?", Attachments: []session.Attachment{a}}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	sess, err := hs.store.Latest()
	if err != nil {
		t.Fatal(err)
	}
	m := hs.model(t, sess)
	m.opts.Profile = termenv.TrueColor
	m, _ = updateModel(m, tea.WindowSizeMsg{Width: 100, Height: 40})
	path := hs.store.AttachmentPath(sess.ID, a)
	copyOf := filepath.Join(t.TempDir(), "red.png")
	if err := os.WriteFile(copyOf, red, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name  string
		place func() error
		shown bool
	}{
		{"the stored file", func() error { return nil }, true},
		{"another image of the same size", func() error { return os.WriteFile(path, blue, 0o600) }, false},
		{"a link to a copy of its bytes", func() error {
			if err := os.Remove(path); err != nil {
				return err
			}
			return os.Symlink(copyOf, path)
		}, false},
	} {
		if err := c.place(); err != nil {
			t.Fatal(err)
		}
		msg, ok := loadPreviews(sess.Entries, m.previewer())().(previewsMsg)
		if !ok {
			t.Fatalf("%s: no previews", c.name)
		}
		_, shown := msg.previews[attachmentPreviewKey(a)]
		missing := slices.Contains(msg.missing, "red.png")
		if shown != c.shown || missing == c.shown {
			t.Errorf("%s: shown %v, missing %v; want shown %v", c.name, shown, missing, c.shown)
		}
	}
}
