package ui

import (
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"muse/session"
	"muse/session/transcript"
	"muse/ui/input"
	"muse/ui/page"
	"muse/ui/sanitize"
)

// exportedMsg reports a finished export.
type exportedMsg struct {
	path string
	err  error
	// line is the /export command, which comes back into an empty input
	// when the export is refused (a file there already), to be fixed.
	line string
}

// exportSession writes the session of w to the path arg names, in a
// command: as Markdown (default ./muse-<id>.md), or, when arg starts with
// "page", as an HTML page (default ./muse-<id>.html, see pageArgs). It
// reads a copy of the session as written (never what the engine and the
// screen keep writing) and writes the file off the event loop. An existing
// file is refused unless --force follows the path (or comes alone), the
// rule of muse sessions export -o. now stamps a session not saved yet;
// secrets are what --redact masks besides what looks like a secret.
func exportSession(w *session.Writer, arg string, now time.Time, secrets []string) tea.Cmd {
	ext := "md"
	var opt *page.Options
	if rest, ok := cutWord(strings.TrimSpace(arg), "page"); ok {
		o, rest, err := pageArgs(rest)
		if err != nil {
			return func() tea.Msg { return exportedMsg{err: fmt.Errorf("export page: %w", err)} }
		}
		if o.Redact {
			o.Secrets = secrets
		}
		ext, opt, arg = "html", &o, rest
	}
	path, force, err := exportArgs(arg, opt != nil)
	if err != nil {
		return func() tea.Msg { return exportedMsg{err: fmt.Errorf("export: %w", err)} }
	}
	return func() tea.Msg {
		sess := w.Snapshot()
		if sess.ID == "" {
			sess.ID = "unsaved"
		}
		if sess.Created.IsZero() {
			sess.Created = now.UTC()
		}
		if path == "" {
			path = fmt.Sprintf("muse-%s.%s", sess.ID, ext)
		}
		path = input.ExpandHome(path)
		files := w.Files()
		err := transcript.WriteFile(path, force, func(out io.Writer) error {
			if opt != nil {
				opt.Files = files
				return page.Write(out, &sess, *opt)
			}
			return transcript.Export(&sess, "md", out, sanitize.ForExport, files)
		})
		if err != nil {
			return exportedMsg{err: fmt.Errorf("export: %w", err)} // err names the path
		}
		abs, _ := filepath.Abs(path)
		return exportedMsg{path: abs}
	}
}

// cutWord returns s after its first word when that word is word.
func cutWord(s, word string) (string, bool) {
	rest, ok := strings.CutPrefix(s, word)
	if !ok || rest != "" && rest[0] != ' ' {
		return s, false
	}
	return strings.TrimSpace(rest), true
}

// pageArgs reads the options of /export page from the end of arg, in any
// order after the path: --redact, --no-thinking, --no-tools and
// --max-image-px N. It returns them and what is left for exportArgs: the
// path, and --force when it was among them.
func pageArgs(arg string) (page.Options, string, error) {
	var opt page.Options
	force := false
	fields := strings.Fields(arg)
flags:
	for len(fields) > 0 {
		last := fields[len(fields)-1]
		switch {
		case last == "--redact":
			opt.Redact = true
		case last == "--no-thinking":
			opt.NoThinking = true
		case last == "--no-tools":
			opt.NoTools = true
		case last == "--force":
			force = true
		case len(fields) >= 2 && fields[len(fields)-2] == "--max-image-px":
			n, err := strconv.Atoi(last)
			if err != nil || n < 0 {
				return opt, "", fmt.Errorf("--max-image-px takes a number of pixels, got %q", last)
			}
			opt.MaxImagePx = n
			fields = fields[:len(fields)-1]
		case last == "--max-image-px":
			return opt, "", fmt.Errorf("--max-image-px takes a number of pixels")
		default:
			break flags
		}
		fields = fields[:len(fields)-1]
	}
	rest := strings.Join(fields, " ")
	if force {
		rest = strings.TrimSpace(rest + " --force")
	}
	return opt, rest, nil
}

// exportArgs reads the argument of /export: a path, empty for the default,
// in quotes when it holds spaces if you like, and --force after it (or
// alone). Any other word that starts with "--" is refused, so that a
// mistyped option (--redcat) never becomes part of the file's name and
// never leaves a page unredacted; page says whether the page's options
// were read before.
func exportArgs(arg string, page bool) (path string, force bool, err error) {
	arg = strings.TrimSpace(arg)
	if arg == "--force" {
		return "", true, nil
	}
	if p, ok := strings.CutSuffix(arg, " --force"); ok {
		arg, force = strings.TrimSpace(p), true
	}
	for _, w := range strings.Fields(arg) {
		if strings.HasPrefix(w, "--") {
			usage := "/export [PATH] [--force]"
			if page {
				usage = "/export page [PATH] [--redact] [--no-thinking] [--no-tools] [--max-image-px N] [--force]"
			}
			return "", false, fmt.Errorf("unknown option %s: %s", sanitize.Line(w), usage)
		}
	}
	if len(arg) >= 2 && (arg[0] == '"' || arg[0] == '\'') && arg[len(arg)-1] == arg[0] {
		arg = arg[1 : len(arg)-1]
	}
	return arg, force, nil
}
