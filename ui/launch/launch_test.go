package launch

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/pkg/browser"
)

// fake replaces the opener and the environment for one test and records
// what was opened.
func fake(t *testing.T, env map[string]string, found map[string]bool) *[]string {
	t.Helper()
	var opened []string
	oldOpen, oldLook, oldEnv, oldRun := openWith, lookPath, getenv, run
	t.Cleanup(func() { openWith, lookPath, getenv, run = oldOpen, oldLook, oldEnv, oldRun })
	openWith = func(u string) error { opened = append(opened, "browser "+u); return nil }
	lookPath = func(name string) (string, error) {
		if found[name] {
			return "/usr/bin/" + name, nil
		}
		return "", errors.New("not found")
	}
	getenv = func(k string) string { return env[k] }
	run = func(name string, args ...string) error { opened = append(opened, name+" "+args[0]); return nil }
	return &opened
}

func TestOpenFileIsMadeAbsolute(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	if err := os.WriteFile("a b.png", []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	opened := fake(t, nil, nil)
	if err := Open("a b.png"); err != nil {
		t.Fatal(err)
	}
	want := "browser " + filepath.Join(dir, "a b.png")
	if len(*opened) != 1 || (*opened)[0] != want {
		t.Errorf("opened %q, want %q", *opened, want)
	}
}

func TestOpenLinksAsTheyAre(t *testing.T) {
	opened := fake(t, nil, nil)
	for _, u := range []string{"https://example.com/x?y=1", "HTTP://example.com", "file:///tmp/x.png"} {
		if err := Open(u); err != nil {
			t.Fatal(err)
		}
	}
	if len(*opened) != 3 || (*opened)[0] != "browser https://example.com/x?y=1" {
		t.Errorf("opened %q", *opened)
	}
}

func TestOpenRefusesMissingFileAndNothing(t *testing.T) {
	opened := fake(t, nil, nil)
	if err := Open(filepath.Join(t.TempDir(), "gone.png")); err == nil {
		t.Error("a missing file opened")
	}
	if err := Open("  "); err == nil {
		t.Error("nothing opened")
	}
	if len(*opened) != 0 {
		t.Errorf("opened %q", *opened)
	}
}

func TestOpenUnderWSL(t *testing.T) {
	wsl := map[string]string{"WSL_DISTRO_NAME": "Ubuntu"}
	opened := fake(t, wsl, map[string]bool{"wslview": true})
	if err := Open("https://example.com"); err != nil {
		t.Fatal(err)
	}
	if len(*opened) != 1 || (*opened)[0] != "/usr/bin/wslview https://example.com" {
		t.Errorf("opened %q, want wslview", *opened)
	}
	// Without wslview, the browser package's openers.
	opened = fake(t, wsl, nil)
	if err := Open("https://example.com"); err != nil || len(*opened) != 1 || (*opened)[0] != "browser https://example.com" {
		t.Errorf("opened %q, %v", *opened, err)
	}
}

func TestOpenErrorSaysWhatToInstall(t *testing.T) {
	fake(t, nil, nil)
	openWith = func(string) error { return errors.New("exec: \"xdg-open\": executable file not found in $PATH") }
	err := Open("https://example.com")
	if err == nil || !strings.Contains(err.Error(), "xdg-utils") {
		t.Errorf("error %v", err)
	}
}

// pkg/browser reports every program it tried as one name joined by commas;
// muse says plainly that none was there.
func TestOpenErrorWithNoOpener(t *testing.T) {
	fake(t, nil, nil)
	openWith = func(string) error {
		return &exec.Error{Name: "xdg-open,x-www-browser,www-browser", Err: exec.ErrNotFound}
	}
	err := Open("https://example.com/a.png")
	want := "open https://example.com/a.png: no program to open it with: looked for xdg-open, x-www-browser and www-browser (is xdg-utils (xdg-open) installed?)"
	if err == nil || err.Error() != want {
		t.Errorf("error %v\nwant  %s", err, want)
	}
	// Under WSL, wslview was looked for first.
	fake(t, map[string]string{"WSL_DISTRO_NAME": "Ubuntu"}, nil)
	openWith = func(string) error {
		return &exec.Error{Name: "xdg-open,x-www-browser,www-browser", Err: exec.ErrNotFound}
	}
	if err := Open("https://example.com/a.png"); err == nil || !strings.Contains(err.Error(), "looked for wslview, xdg-open, x-www-browser and www-browser (install wslu") {
		t.Errorf("error under WSL: %v", err)
	}
}

func TestOpenerOutputDiscarded(t *testing.T) {
	if browser.Stdout != io.Discard || browser.Stderr != io.Discard {
		t.Error("the opener's output would reach the screen")
	}
}

// xdg-open that ran and found no browser (its exit status 3) is not told
// to be installed: the error says to open the file yourself or set
// $BROWSER.
func TestOpenErrorWhenNoBrowserIsFound(t *testing.T) {
	fake(t, nil, nil)
	old := goos
	t.Cleanup(func() { goos = old })
	goos = "linux"
	openWith = func(string) error { return exec.Command("sh", "-c", "exit 3").Run() }
	err := Open("https://example.com")
	if err == nil || strings.Contains(err.Error(), "xdg-utils") || !strings.Contains(err.Error(), "$BROWSER") {
		t.Errorf("error %v", err)
	}
}
