package preview

import (
	"os"
	"strconv"
	"strings"
	"time"

	"golang.org/x/term"

	"muse/ui/textfmt"
)

// maxQueryTimeout bounds how long Detect waits for the terminal: long
// enough for the round trip of a slow link (a terminal answers as soon as
// it reads the question, and its last answer ends the wait), and what a
// terminal that never answers costs at start.
const maxQueryTimeout = time.Second

// Terminal is what the terminal said it can do, when asked at start.
type Terminal struct {
	// Kitty says the terminal shows images with the kitty graphics protocol
	// and its Unicode placeholders.
	Kitty bool
	// SyncOutput says the terminal has synchronized output (mode 2026): a
	// frame written between its set and reset is shown whole, never torn.
	SyncOutput bool
	// Graphemes says the terminal has grapheme clustering (mode 2027): set,
	// it draws every cluster in the cells its width says (see
	// DetectScreen).
	Graphemes bool
	// ProbeWidth is how many columns the terminal drew the width probe's
	// three clusters in, 👨‍👩‍👧👍🏽🇫🇷 (6 when it draws each whole, 12 by code
	// point, 8 in tmux 3.3), 0 when it did not say (see DetectScreen).
	ProbeWidth int
}

// Detect asks the terminal on in and out what it can do: kitty graphics
// with Unicode placeholders, and synchronized output. Call it before the
// program starts, while nothing else reads in. getenv reads the
// environment; nil means os.Getenv.
//
// Nothing is asked, and nothing is waited for, unless in and out are both
// terminals, TERM names one that can take the question (not empty, dumb or
// linux) and timeout is positive. Otherwise in is put in raw mode (the mode
// is always restored) and sent, in one write: a kitty graphics query, unless
// the environment rules placeholders out; XTVERSION (the terminal's name and
// version); DECRQM for mode 2026; and a primary device attributes request,
// which every terminal answers, last, so its answer ends the wait. A
// terminal that does not answer costs the timeout (at most maxQueryTimeout).
//
// Kitty is true only when the terminal answers the graphics query with OK
// and names a version that has placeholders: kitty 0.28 or later (0.26
// draws them as empty boxes), or ghostty. TERM and KITTY_WINDOW_ID alone
// decide nothing. Multiplexers (tmux, screen, zellij), which would need the
// escape sequences passed through, and the terminals known to draw kitty
// images without placeholders (WezTerm, Konsole, iTerm2, Warp, VS Code,
// Apple's Terminal) are not sent the graphics query. SyncOutput is true when
// the terminal reports mode 2026 set or reset (1 or 2). On systems where a
// terminal cannot be read with a deadline, nothing is asked.
func Detect(getenv func(string) string, in, out *os.File, timeout time.Duration) Terminal {
	t, _ := detect(getenv, in, out, timeout, false)
	return t
}

// DetectScreen is Detect for the chat screen, which also asks how the
// terminal draws grapheme clusters, in the same round trip: whether it has
// mode 2027 (Graphemes), and how wide 👨‍👩‍👧 came out when written on the
// alternate screen, which is left at once (ProbeWidth).
//
// The keys are to be read from the Input it returns, which is in with the
// answers that come after the wait taken out: answers the terminal sends
// late (over a slow link, on a busy machine) never reach the chat's
// input as typed text or keys.
func DetectScreen(getenv func(string) string, in, out *os.File, timeout time.Duration) (Terminal, *Input) {
	t, r := detect(getenv, in, out, timeout, true)
	return t, newInput(in, r, time.Now().Add(lateAnswers), time.Now)
}

// detect is Detect, with the width probe when probe is true; the replies
// are what is still to come.
func detect(getenv func(string) string, in, out *os.File, timeout time.Duration, probe bool) (Terminal, replies) {
	none := replies{done: true}
	if getenv == nil {
		getenv = os.Getenv
	}
	if in == nil || out == nil || timeout <= 0 {
		return Terminal{}, none
	}
	inFd, okIn := fileFd(in)
	outFd, okOut := fileFd(out)
	if !okIn || !okOut || !term.IsTerminal(inFd) || !term.IsTerminal(outFd) {
		return Terminal{}, none
	}
	switch getenv("TERM") {
	case "", "dumb", "linux": // would print the question, or ignore it
		return Terminal{}, none
	}
	graphics := placeholdersPossible(getenv)
	q := question(graphics)
	if probe {
		q = withWidthProbe(q)
	}
	r := queryTTY(in, q, min(timeout, maxQueryTimeout))
	return r.got.terminal(graphics), r
}

// WidthMode is how muse measures what it draws on t: by grapheme cluster
// where the terminal has mode 2027 (muse turns it on) or drew each of the
// probe's clusters whole; else by code point, as xterm and alacritty draw,
// which is also the safe measure when the terminal did not say or joins
// only some clusters (tmux 3.3 draws 👍🏽 in 4 columns, 👨‍👩‍👧 in 2): a row
// then comes out short, never past the edge.
func (t Terminal) WidthMode() textfmt.WidthMode {
	if t.Graphemes || t.ProbeWidth == probeWhole {
		return textfmt.Clusters
	}
	return textfmt.CodePoints
}

// terminal is what the answers allow, when graphics says whether the
// graphics query was asked.
func (a answers) terminal(graphics bool) Terminal {
	t := Terminal{Kitty: graphics && a.graphics && placeholdersIn(a.version), SyncOutput: a.sync, Graphemes: a.graphemes}
	if a.probed > 1 {
		t.ProbeWidth = a.probed - 1 // written from column 1
	}
	return t
}

// placeholdersPossible says whether the environment leaves kitty's Unicode
// placeholders possible: false in a multiplexer and in the terminals known
// to lack them, which would answer the graphics query OK all the same.
func placeholdersPossible(getenv func(string) string) bool {
	termName := getenv("TERM")
	switch {
	case getenv("TMUX") != "" || getenv("STY") != "" || getenv("ZELLIJ") != "" ||
		strings.HasPrefix(termName, "screen") || strings.HasPrefix(termName, "tmux"):
		return false
	case getenv("KONSOLE_VERSION") != "" || getenv("WEZTERM_EXECUTABLE") != "":
		return false
	}
	switch strings.ToLower(getenv("TERM_PROGRAM")) {
	case "wezterm", "iterm.app", "warpterminal", "vscode", "apple_terminal":
		return false
	}
	return true
}

// placeholdersIn says whether the terminal whose XTVERSION answer is
// version draws kitty's Unicode placeholders: kitty from 0.28
// ("kitty(0.28.0)"), and ghostty ("ghostty 1.0.1", "Ghostty 1.3.1").
func placeholdersIn(version string) bool {
	if rest, ok := strings.CutPrefix(version, "kitty("); ok {
		v, _, _ := strings.Cut(rest, ")")
		parts := strings.SplitN(v, ".", 3)
		if len(parts) < 2 {
			return false
		}
		major, err1 := strconv.Atoi(parts[0])
		minor, err2 := strconv.Atoi(parts[1])
		return err1 == nil && err2 == nil && (major > 0 || minor >= 28)
	}
	name, _, _ := strings.Cut(version, " ")
	return strings.EqualFold(name, "ghostty")
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
