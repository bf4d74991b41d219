//go:build unix

package clipboard

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// fakePNG is what the fake tools write: a PNG's signature and some bytes.
const fakePNG = "\x89PNG\r\n\x1a\nrest of the image"

// fakeTools puts scripts named after clipboard tools in a folder of their
// own and returns a reader that finds programs there only, on system goos
// with the environment vars. Each script is sh code; "$0.args" and
// "$0.env" receive its arguments and environment.
func fakeTools(t *testing.T, goos string, vars map[string]string, scripts map[string]string) imageReader {
	t.Helper()
	dir := t.TempDir()
	for name, body := range scripts {
		script := "#!/bin/sh\necho \"$@\" > \"$0.args\"\nenv > \"$0.env\"\n" + body + "\n"
		if err := os.WriteFile(filepath.Join(dir, name), []byte(script), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	lookPath := func(name string) (string, error) {
		p := filepath.Join(dir, name)
		if _, err := os.Stat(p); err != nil {
			return "", exec.ErrNotFound
		}
		return p, nil
	}
	return imageReader{getenv: env(vars), lookPath: lookPath, goos: goos, limit: MaxImage, timeout: time.Minute}
}

// printPNG is a script body that writes fakePNG.
const printPNG = `printf '\211PNG\r\n\032\nrest of the image'`

// args returns what the fake tool name was run with.
func args(t *testing.T, r imageReader, name string) string {
	t.Helper()
	p, err := r.lookPath(name)
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(p + ".args")
	if err != nil {
		t.Fatalf("%s did not run: %v", name, err)
	}
	return strings.TrimSpace(string(b))
}

// Each platform's tool is run with the arguments that ask for a PNG, and
// what it writes comes back whole.
func TestReadImageRunsThePlatformsTool(t *testing.T) {
	for _, tc := range []struct {
		name, goos string
		vars       map[string]string
		tools      []string
		ran, args  string
	}{
		{"wayland", "linux", map[string]string{"WAYLAND_DISPLAY": "wayland-0"}, []string{"wl-paste", "xclip"}, "wl-paste", "--type image/png"},
		{"xwayland without wl-paste", "linux", map[string]string{"WAYLAND_DISPLAY": "wayland-0", "DISPLAY": ":0"}, []string{"xclip"}, "xclip", "-selection clipboard -t image/png -o"},
		{"x11", "linux", map[string]string{"DISPLAY": ":0"}, []string{"wl-paste", "xclip"}, "xclip", "-selection clipboard -t image/png -o"},
		{"macos", "darwin", nil, []string{"pngpaste", "xclip"}, "pngpaste", "-"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			scripts := map[string]string{}
			for _, name := range tc.tools {
				scripts[name] = printPNG
			}
			r := fakeTools(t, tc.goos, tc.vars, scripts)
			img, err := r.read(context.Background())
			if err != nil || string(img) != fakePNG {
				t.Fatalf("read = %q, %v; want the fake PNG", img, err)
			}
			if got := args(t, r, tc.ran); got != tc.args {
				t.Errorf("%s ran with %q, want %q", tc.ran, got, tc.args)
			}
			for _, other := range tc.tools {
				if p, _ := r.lookPath(other); other != tc.ran {
					if _, err := os.Stat(p + ".args"); err == nil {
						t.Errorf("%s ran too", other)
					}
				}
			}
		})
	}
}

// The tool runs without muse's credentials in its environment.
func TestReadImageKeepsCredentialsFromTheTool(t *testing.T) {
	t.Setenv("MUSE_API_KEY", "secret-key")
	t.Setenv("MUSE_ACCESS_TOKEN", "secret-token")
	r := fakeTools(t, "linux", map[string]string{"DISPLAY": ":0"}, map[string]string{"xclip": printPNG})
	if _, err := r.read(context.Background()); err != nil {
		t.Fatal(err)
	}
	p, _ := r.lookPath("xclip")
	b, err := os.ReadFile(p + ".env")
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(b, []byte("secret")) || !bytes.Contains(b, []byte("PATH=")) {
		t.Errorf("the tool's environment:\n%s", b)
	}
}

// With no tool, the error says what to install on this platform; with no
// display on Linux, that there is no clipboard to reach.
func TestReadImageWithoutATool(t *testing.T) {
	for _, tc := range []struct {
		name, goos string
		vars       map[string]string
		want       string
	}{
		{"wayland", "linux", map[string]string{"WAYLAND_DISPLAY": "wayland-0"}, "install wl-clipboard"},
		{"x11", "linux", map[string]string{"DISPLAY": ":0"}, "install xclip"},
		{"macos", "darwin", nil, "install pngpaste"},
		{"no display", "linux", nil, "neither WAYLAND_DISPLAY nor DISPLAY"},
		{"windows", "windows", nil, "not supported on Windows"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			// Every tool but the platform's is there.
			r := fakeTools(t, tc.goos, tc.vars, map[string]string{"unrelated": printPNG})
			_, err := r.read(context.Background())
			if !errors.Is(err, ErrNoClipboardTool) || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("read: %v; want ErrNoClipboardTool saying %q", err, tc.want)
			}
		})
	}
}

// A clipboard without an image: the tool fails and says why, or writes
// nothing, or writes something else than a PNG.
func TestReadImageWithoutAnImage(t *testing.T) {
	for _, tc := range []struct{ name, script, want string }{
		{"fails", "echo 'Error: target image/png not available' >&2; exit 1", "xclip: Error: target image/png not available"},
		{"silent failure", "exit 1", "xclip exited with status 1"},
		{"nothing", "true", "no image on the clipboard"},
		{"text", "printf 'hello'", "5 bytes that are not a PNG image"},
		{"escape in the message", "printf 'bad\\033[2Jthing\\n' >&2; exit 1", "xclip: bad"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := fakeTools(t, "linux", map[string]string{"DISPLAY": ":0"}, map[string]string{"xclip": tc.script})
			img, err := r.read(context.Background())
			if !errors.Is(err, ErrNoImage) || !strings.Contains(err.Error(), tc.want) || img != nil {
				t.Errorf("read = %d bytes, %v; want ErrNoImage saying %q", len(img), err, tc.want)
			}
			if err != nil && strings.Contains(err.Error(), "\x1b") {
				t.Errorf("an escape sequence in the error: %q", err)
			}
		})
	}
}

// An image past the limit is refused, and no more than the limit is kept
// while reading it.
func TestReadImageTooLarge(t *testing.T) {
	r := fakeTools(t, "linux", map[string]string{"DISPLAY": ":0"}, map[string]string{"xclip": printPNG + "; head -c 3000000 /dev/zero"})
	r.limit = 2 << 20
	img, err := r.read(context.Background())
	if err == nil || !strings.Contains(err.Error(), "larger than 2 MiB") || img != nil {
		t.Errorf("read = %d bytes, %v; want larger than 2 MiB", len(img), err)
	}
	out := &limited{limit: 10}
	for range 5 {
		_, _ = out.Write([]byte("abcd"))
	}
	if out.buf.Len() > 10 || out.buf.Cap() > 64 || !out.over {
		t.Errorf("limited kept %d bytes (capacity %d), over %v", out.buf.Len(), out.buf.Cap(), out.over)
	}
}

// A tool that hangs is killed at the time limit, with what it left running
// in the background.
func TestReadImageToolHangs(t *testing.T) {
	r := fakeTools(t, "linux", map[string]string{"DISPLAY": ":0"}, map[string]string{"xclip": "sleep 600 & sleep 600"})
	r.timeout = 50 * time.Millisecond
	_, err := r.read(context.Background())
	if err == nil || !strings.Contains(err.Error(), "read the clipboard with xclip: timed out") {
		t.Errorf("read: %v; want a time-out", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := r.read(ctx); err == nil || !strings.Contains(err.Error(), "cancelled") {
		t.Errorf("read, cancelled: %v", err)
	}
}
