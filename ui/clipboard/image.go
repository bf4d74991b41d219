package clipboard

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
	"time"

	"muse/ui/sanitize"
	"muse/ui/toolrun"
)

// Reading an image from the system clipboard. Go has no portable way to
// reach it, so muse runs the program each system has for it: wl-paste on
// Wayland, xclip on X11, pngpaste on macOS. It runs through toolrun, as a
// tool does: in a process group of its own, killed when the read ends,
// without muse's credentials in its environment, for a limited time.

// ErrNoClipboardTool says no program that reads an image from the system
// clipboard can be run here; the error wrapping it names what to install.
var ErrNoClipboardTool = errors.New("no program to read an image from the clipboard")

// ErrNoImage says the clipboard holds no image (or none as PNG).
var ErrNoImage = errors.New("no image on the clipboard")

// MaxImage is the largest clipboard image ReadImage returns, in bytes.
const MaxImage = 64 << 20

// imageTimeout bounds a read: a clipboard tool that hangs (an X server that
// does not answer) never holds muse up.
const imageTimeout = 5 * time.Second

// pngMagic starts every PNG file.
var pngMagic = []byte("\x89PNG\r\n\x1a\n")

// imageReader is where ReadImage looks: the environment, the programs
// installed, the system, and its limits; tests replace each.
type imageReader struct {
	getenv   func(string) string
	lookPath func(string) (string, error)
	goos     string
	limit    int
	timeout  time.Duration
}

// ReadImage returns the image on the system clipboard, as PNG. It runs a
// program, so call it in a command, never in Update. The error wraps
// ErrNoClipboardTool when there is no program to run (saying what to
// install), ErrNoImage when the clipboard holds no image, and says so when
// the image is larger than MaxImage or the program fails.
func ReadImage(ctx context.Context) ([]byte, error) {
	r := imageReader{getenv: os.Getenv, lookPath: exec.LookPath, goos: runtime.GOOS, limit: MaxImage, timeout: imageTimeout}
	return r.read(ctx)
}

// imageTool is a program that writes the clipboard's image as PNG.
type imageTool struct {
	name string
	args []string
}

// tools returns the programs to try, in order, and what to install when
// none is there; none at all where no clipboard can be reached.
func (r imageReader) tools() (tools []imageTool, install string) {
	wlPaste := imageTool{"wl-paste", []string{"--type", "image/png"}}
	xclip := imageTool{"xclip", []string{"-selection", "clipboard", "-t", "image/png", "-o"}}
	switch {
	case r.goos == "darwin":
		return []imageTool{{"pngpaste", []string{"-"}}}, "install pngpaste (brew install pngpaste)"
	case r.goos == "windows":
		return nil, "reading an image from the clipboard is not supported on Windows: save it to a file and attach that"
	case r.getenv("WAYLAND_DISPLAY") != "":
		// Under XWayland, DISPLAY is set too, and xclip reaches the same
		// clipboard.
		tools = []imageTool{wlPaste}
		if r.getenv("DISPLAY") != "" {
			tools = append(tools, xclip)
		}
		return tools, "install wl-clipboard, which has wl-paste"
	case r.getenv("DISPLAY") != "":
		return []imageTool{xclip}, "install xclip"
	}
	return nil, "no display to reach a clipboard on (neither WAYLAND_DISPLAY nor DISPLAY is set): save the image to a file and attach that"
}

// read runs the first of the tools that is installed.
func (r imageReader) read(ctx context.Context) ([]byte, error) {
	tools, install := r.tools()
	for _, tool := range tools {
		path, err := r.lookPath(tool.name)
		if err != nil {
			continue
		}
		return r.run(ctx, tool.name, append([]string{path}, tool.args...))
	}
	return nil, fmt.Errorf("%s (%w)", install, ErrNoClipboardTool) // what to do first: a narrow status line cuts the end
}

// run runs the tool name with argv and returns the PNG it wrote.
func (r imageReader) run(ctx context.Context, name string, argv []string) ([]byte, error) {
	out := &limited{limit: r.limit}
	res := toolrun.Run(ctx, toolrun.Spec{Argv: argv, Stdout: out, Timeout: r.timeout, MaxOutput: 4 << 10})
	switch {
	case out.over:
		return nil, fmt.Errorf("the image on the clipboard is larger than %d MiB", r.limit>>20)
	case res.Err != nil:
		return nil, fmt.Errorf("read the clipboard with %s: %w", name, res.Err)
	case res.ExitCode != 0 || out.buf.Len() == 0:
		if says := firstLine(res.Output); says != "" {
			return nil, fmt.Errorf("%w (%s: %s)", ErrNoImage, name, says)
		}
		return nil, fmt.Errorf("%w (%s exited with status %d)", ErrNoImage, name, res.ExitCode)
	case !bytes.HasPrefix(out.buf.Bytes(), pngMagic):
		return nil, fmt.Errorf("%w: %s gave %d bytes that are not a PNG image", ErrNoImage, name, out.buf.Len())
	}
	return out.buf.Bytes(), nil
}

// firstLine is the first line of what a tool said, cleaned and cut short.
func firstLine(s string) string {
	s, _, _ = strings.Cut(strings.TrimSpace(s), "\n")
	s = sanitize.Line(s)
	if r := []rune(s); len(r) > 120 {
		s = string(r[:120]) + "…"
	}
	return s
}

// limited keeps what is written to it, up to limit bytes; a write past
// that fails, which stops the tool's output.
type limited struct {
	buf   bytes.Buffer
	limit int
	over  bool
}

func (l *limited) Write(p []byte) (int, error) {
	if l.buf.Len()+len(p) > l.limit {
		l.over = true
		return 0, errors.New("too large")
	}
	return l.buf.Write(p)
}
