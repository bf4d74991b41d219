package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"muse/session"
	"muse/ui/internal/waitfor"

	tea "github.com/charmbracelet/bubbletea"
)

// /export while a reply streams: the command works on a copy of the
// session, never on what the engine and the screen keep writing. Under
// -race (CI) a shared slice would be reported.
func TestExportWhileStreaming(t *testing.T) {
	h, hd := newHeldHarness(t, "keep going") // the reply is in flight until let
	tm := start(t, h.modelWith(t, nil, shortReplies), 80, 24)
	send(tm, "keep going")
	waitFor(t, tm, "This is a canned demo") // the reply's first words
	ht := hd.held(t)
	path := filepath.Join(t.TempDir(), "out.md")
	// Each export is waited for in its file: the status line's "exported
	// to" of the first is drawn again as the "/" menu of the second moves it.
	for _, p := range []string{path, path + ".2"} {
		send(tm, "/export "+p)
		waitfor.File(t, p, nil, "the export holding the prompt", func(data []byte) bool {
			return strings.Contains(string(data), "keep going")
		})
	}
	ht.let(t) // the end of the reply is written after the exports read the session
	waitSaved(t, h.store, session.KindAssistant)
	quit(t, tm)
}

// /export refuses to replace a file, as muse sessions export -o does, unless
// --force follows the path; the file is left as it was, and the command
// comes back into the input, for --force to be added.
func TestExportRefusesAnExistingFileWithoutForce(t *testing.T) {
	h := newHarness(t, 0)
	tm := start(t, h.model(t, nil), 160, 24)
	send(tm, "hello there")
	waitFor(t, tm, "end_turn")
	path := filepath.Join(t.TempDir(), "out.md")
	if err := os.WriteFile(path, []byte("mine"), 0o600); err != nil {
		t.Fatal(err)
	}
	send(tm, "/export "+path)
	waitFor(t, tm, "exists: use --force to replace it")
	if data, err := os.ReadFile(path); err != nil || string(data) != "mine" {
		t.Fatalf("the file was replaced: %q (%v)", data, err)
	}
	send(tm, " --force") // after the command put back
	waitFor(t, tm, "exported to")
	quit(t, tm)
	if data, _ := os.ReadFile(path); !strings.Contains(string(data), "hello there") {
		t.Errorf("export with --force:\n%s", data)
	}
}

// A session kept in memory only (--no-save) exports what it holds, not
// only its title.
func TestExportUnsavedSession(t *testing.T) {
	h := newHarness(t, 0)
	tm := start(t, h.unsaved(t, nil), 100, 24)
	send(tm, "hello there")
	waitFor(t, tm, "end_turn")
	path := filepath.Join(t.TempDir(), "out.md")
	send(tm, "/export "+path)
	waitFor(t, tm, "exported to")
	quit(t, tm)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "hello there") || !strings.Contains(string(data), "## Assistant") {
		t.Errorf("the export of an unsaved session:\n%s", data)
	}
}

// /export page writes the session as one HTML page, with its options
// after the path; a bad --max-image-px is refused with what to type.
func TestExportPage(t *testing.T) {
	h := newHarness(t, 0)
	tm := start(t, h.model(t, nil), 160, 24)
	send(tm, "hello there sk-ant-api03-abcdefghijklmnopqrstuv")
	waitFor(t, tm, "end_turn")
	path := filepath.Join(t.TempDir(), "talk.html")
	send(tm, "/export page "+path+" --max-image-px x")
	waitFor(t, tm, "--max-image-px takes a number of pixels")
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC}) // the refused command came back into the input
	send(tm, "/export page "+path+" --redact --no-thinking")
	waitFor(t, tm, "exported to")
	quit(t, tm)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	page := string(data)
	if !strings.HasPrefix(page, "<!DOCTYPE html>") || !strings.Contains(page, "hello there [redacted]") || !strings.Contains(page, "Left out of this page: thinking") {
		t.Errorf("the page:\n%.2000s", page)
	}
}

// pageArgs reads the options of /export page after the path, in any
// order, and leaves the path and --force to exportArgs.
func TestPageArgs(t *testing.T) {
	for _, tc := range []struct {
		arg, rest string
		redact    bool
		px        int
	}{
		{"", "", false, 0},
		{"my page.html --redact", "my page.html", true, 0},
		{"out.html --force --max-image-px 800 --no-tools", "out.html --force", false, 800},
		{"--redact --force", "--force", true, 0},
	} {
		opt, rest, err := pageArgs(tc.arg)
		if err != nil || rest != tc.rest || opt.Redact != tc.redact || opt.MaxImagePx != tc.px {
			t.Errorf("pageArgs(%q) = %+v, %q, %v", tc.arg, opt, rest, err)
		}
	}
	if _, _, err := pageArgs("out.html --max-image-px"); err == nil {
		t.Error("--max-image-px without a number")
	}
}

// A mistyped option is refused, never taken into the file's name (a page
// meant to be redacted was written whole, named "red2.html --redcat"); a
// quoted path is read without its quotes.
func TestExportArgsRefuseUnknownOptions(t *testing.T) {
	for _, c := range []struct {
		arg  string
		page bool
	}{{"red2.html --redcat", true}, {"--bogus", true}, {"notes.md --bogus", false}, {"a --force --x", false}} {
		if path, _, err := exportArgs(c.arg, c.page); err == nil || !strings.Contains(err.Error(), "unknown option") {
			t.Errorf("exportArgs(%q) = %q, %v; want an unknown option", c.arg, path, err)
		}
	}
	for arg, want := range map[string]string{`"/tmp/my page.html"`: "/tmp/my page.html", `'a b.md' --force`: "a b.md", "plain.md": "plain.md", "": ""} {
		if path, _, err := exportArgs(arg, false); err != nil || path != want {
			t.Errorf("exportArgs(%q) = %q, %v; want %q", arg, path, err, want)
		}
	}
	// Through the command: nothing is written.
	dir := t.TempDir()
	msg := exportSession(session.NewWriter(nil, session.Params{}), "page "+filepath.Join(dir, "red2.html")+" --redcat", fixedClock()(), nil)()
	if e, ok := msg.(exportedMsg); !ok || e.err == nil {
		t.Errorf("the export went on: %+v", msg)
	}
	if files, err := os.ReadDir(dir); err != nil || len(files) != 0 {
		t.Errorf("written: %v (%v)", files, err)
	}
}

// A path that starts with ~/ is written under the home folder, as the
// input's path completion offers it.
func TestExportExpandsHome(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	msg := exportSession(session.NewWriter(nil, session.Params{}), "~/notes.md", fixedClock()(), nil)()
	if e, ok := msg.(exportedMsg); !ok || e.err != nil {
		t.Fatalf("export: %+v", msg)
	}
	if _, err := os.Stat(filepath.Join(home, "notes.md")); err != nil {
		t.Errorf("not written under the home folder: %v", err)
	}
}
