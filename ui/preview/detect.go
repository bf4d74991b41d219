package preview

import (
	"os"
	"strings"
	"time"

	"golang.org/x/term"
)

// MaxQueryTimeout bounds how long DetectKitty waits for the terminal.
const MaxQueryTimeout = 100 * time.Millisecond

// DetectKitty reports whether the terminal on tty can show images with the
// kitty graphics protocol and its Unicode placeholders. Call it before the
// program starts, while nothing else reads tty. getenv reads the
// environment; nil means os.Getenv.
//
// The environment decides when it can: no terminal, TERM=dumb, tmux, screen
// and zellij (which would need the escape sequences passed through) and the
// terminals known to lack placeholders (WezTerm, Konsole, iTerm2, Warp,
// VS Code, Apple's Terminal) give false; kitty (TERM=xterm-kitty or
// KITTY_WINDOW_ID set) and ghostty give true. Otherwise the terminal is
// asked: tty is put in raw mode, sent a graphics query and a primary device
// attributes request, and it must answer the query with OK before it answers
// the request, within timeout (at most MaxQueryTimeout; 0 or less means no
// query). The terminal's mode is always restored. On systems where tty
// cannot be read with a deadline, there is no query.
func DetectKitty(getenv func(string) string, tty *os.File, timeout time.Duration) bool {
	if getenv == nil {
		getenv = os.Getenv
	}
	if tty == nil {
		return false
	}
	fd, ok := fileFd(tty)
	if !ok || !term.IsTerminal(fd) {
		return false
	}
	if v, known := kittyFromEnv(getenv); known {
		return v
	}
	if timeout <= 0 {
		return false
	}
	return queryTTY(tty, min(timeout, MaxQueryTimeout))
}

// kittyFromEnv tells from the environment whether the terminal has kitty's
// Unicode placeholders; known is false when the environment does not say.
func kittyFromEnv(getenv func(string) string) (v, known bool) {
	termName := getenv("TERM")
	program := getenv("TERM_PROGRAM")
	switch {
	case termName == "" || termName == "dumb" || termName == "linux":
		return false, true
	case getenv("TMUX") != "" || getenv("STY") != "" || getenv("ZELLIJ") != "" ||
		strings.HasPrefix(termName, "screen") || strings.HasPrefix(termName, "tmux"):
		return false, true
	case termName == "xterm-kitty" || getenv("KITTY_WINDOW_ID") != "" ||
		termName == "xterm-ghostty" || strings.EqualFold(program, "ghostty"):
		return true, true
	case getenv("KONSOLE_VERSION") != "" || getenv("WEZTERM_EXECUTABLE") != "":
		// These draw kitty images but not its placeholders, yet would
		// answer the query with OK.
		return false, true
	}
	switch strings.ToLower(program) {
	case "wezterm", "iterm.app", "warpterminal", "vscode", "apple_terminal":
		return false, true
	}
	return false, false
}

// fileFd returns the descriptor of f without putting it in blocking mode,
// as f.Fd would, which would stop read deadlines from working.
func fileFd(f *os.File) (int, bool) {
	rc, err := f.SyscallConn()
	if err != nil {
		return 0, false
	}
	var fd int
	if err := rc.Control(func(u uintptr) { fd = int(u) }); err != nil {
		return 0, false
	}
	return fd, true
}
