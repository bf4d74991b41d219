//go:build linux

package e2e

import (
	"os/exec"
	"strings"
	"testing"
	"unicode"

	"github.com/charmbracelet/x/ansi"
)

// widths is how a test's terminal draws a grapheme cluster of more than
// one code point, and what it answers about it.
type widths int

const (
	// clusterTerm draws each cluster whole, in the columns its grapheme
	// width says (👨‍👩‍👧 in 2), and knows nothing of mode 2027: kitty 0.26.
	// It is x/vt as it is.
	clusterTerm widths = iota
	// graphemeTerm draws clusters whole and reports mode 2027 (grapheme
	// clustering) reset, to be set: ghostty, WezTerm, foot, contour.
	graphemeTerm
	// codePointTerm draws each code point of a cluster in its own cells,
	// joiners, selectors and combining marks with the one before, a flag's
	// two letters together (👍🏽 in 4, 👨‍👩‍👧 in 6, 🇫🇷 in 2), and knows
	// nothing of mode 2027: xterm and alacritty.
	codePointTerm
	// quietTerm draws as codePointTerm does but answers no query at all
	// (no cursor position, no device attributes): muse then measures by
	// code point, the safe way.
	quietTerm
)

func (w widths) String() string {
	return [...]string{"clusters (kitty)", "mode 2027", "code points (xterm)", "code points, no answers"}[w]
}

// prime makes tm's emulator draw and answer as w says, before muse starts.
func (w widths) prime(tm *term) {
	switch w {
	case graphemeTerm:
		// x/vt reports a mode once it was set or reset, and reports 0 (not
		// known) for one never touched.
		_, _ = tm.emu.Write([]byte(ansi.ResetModeUnicodeCore))
	case codePointTerm:
		tm.split = &splitter{p: ansi.NewParser()}
	case quietTerm:
		tm.split, tm.mute = &splitter{p: ansi.NewParser()}, true
	}
}

// draw writes b, what muse wrote, to the emulator, as the terminal draws
// it; mu is held.
func (tm *term) draw(b []byte) (int, error) {
	if tm.split != nil {
		b = tm.split.rewrite(b)
	}
	return tm.emu.Write(b)
}

// clusterBreak is an OSC the emulator ignores, but which ends the cluster
// it is composing: written between two code points of a cluster, it has
// x/vt draw each in cells of its own.
const clusterBreak = "\x1b]7778;\x07"

// splitter rewrites what muse writes so that x/vt, which draws grapheme
// clusters whole, draws each code point of one in cells of its own, as
// xterm does. It holds back what may be the start of a longer cluster or
// escape sequence until the rest comes.
type splitter struct {
	held []byte
	p    *ansi.Parser
}

// rewrite returns b, after what was held back, with a clusterBreak between
// the code points of every cluster, less what it holds back now.
func (s *splitter) rewrite(b []byte) []byte {
	in := append(s.held, b...)
	s.held = nil
	var out []byte
	var state byte
	for len(in) > 0 {
		seq, _, n, st := ansi.DecodeSequence(in, state, s.p)
		if n <= 0 {
			break
		}
		if n == len(in) && (st != ansi.NormalState || seq[0] >= 0x80) {
			s.held = append([]byte(nil), in...) // more may come
			break
		}
		state = st
		if seq[0] >= 0x80 {
			out = append(out, strings.Join(codePoints(string(seq)), clusterBreak)...)
		} else {
			out = append(out, seq...)
		}
		in = in[n:]
	}
	return out
}

// codePoints splits the cluster c as xterm draws it: each code point in
// cells of its own, with the zero-width ones (joiners, selectors,
// combining marks) that follow it; a flag's two regional indicators stay
// together.
func codePoints(c string) []string {
	var out []string
	for _, r := range c {
		zero := r == '\u200d' || unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf) || r >= 0xfe00 && r <= 0xfe0f
		flag := isRI(r) && len(out) > 0 && len(out[len(out)-1]) == 4 && isRI([]rune(out[len(out)-1])[0])
		if len(out) == 0 || !(zero || flag) {
			out = append(out, string(r))
		} else {
			out[len(out)-1] += string(r)
		}
	}
	return out
}

// isRI reports whether r is a regional indicator, half of a flag.
func isRI(r rune) bool { return r >= 0x1f1e6 && r <= 0x1f1ff }

// borders are the columns of the table borders ("│") in row y.
func (tm *term) borders(y int) []int {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	var xs []int
	for x := 0; x < tm.emu.Width(); x++ {
		if c := tm.emu.CellAt(x, y); c != nil && c.Content == "│" {
			xs = append(xs, x)
		}
	}
	return xs
}

// TestWidthsReplyAligned asks the demo for a reply whose table, quote and
// code block hold 👍🏽, 🇫🇷, 👨‍👩‍👧 and n with a combining tilde, in a
// terminal that draws clusters whole (kitty), one that says so through
// mode 2027, and one that draws each code point (xterm). muse asks the
// terminal at start how it draws 👨‍👩‍👧, and measures as it does: in each,
// the table's column borders stand in the same columns on every row and
// every row ends whole. A terminal that answers nothing is measured by
// code point. Glamour measured per code point and its tables per
// cluster, so one terminal or the other had rows 2 to 4 columns off.
func TestWidthsReplyAligned(t *testing.T) {
	t.Parallel()
	for _, kind := range []widths{clusterTerm, graphemeTerm, codePointTerm, quietTerm} {
		t.Run(kind.String(), func(t *testing.T) {
			t.Parallel()
			h := newHome(t, "")
			tm := startTerm(t, h, 70, 40, exec.Command(museBin, "--demo"), true, kind)
			tm.waitFor("Ask anything")
			if kind == graphemeTerm {
				tm.mu.Lock()
				on := tm.modes[ansi.ModeUnicodeCore]
				tm.mu.Unlock()
				if !on {
					t.Errorf("muse did not turn grapheme clustering (mode 2027) on")
				}
			}
			tm.typ("demo:widths\r")
			tm.waitUntil("the reply", waitDeadline, func(s string) bool {
				return strings.Contains(s, "row plain end") && !busy(statusLine(s))
			})
			rows := map[string]int{}
			for y, l := range strings.Split(tm.screen(), "\n") {
				for _, name := range []string{"Cluster", "thumb, skin tone", "flag", "family", "n, combining tilde", "letters"} {
					if strings.Contains(l, name) {
						rows[name] = y
					}
				}
			}
			if len(rows) != 6 {
				t.Fatalf("found rows %v of the table", rows)
			}
			want := tm.borders(rows["letters"])
			if len(want) != 2 {
				t.Fatalf("the row of letters has borders at %v", want)
			}
			screen := tm.screen()
			for name, y := range rows {
				if got := tm.borders(y); len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
					t.Errorf("the row %q has its borders at %v, the row of letters at %v:\n%s", name, got, want, tm.dump())
				}
				line := strings.Split(screen, "\n")[y]
				if name != "Cluster" && !strings.HasSuffix(strings.TrimRight(line, " "), "2") && !strings.HasSuffix(strings.TrimRight(line, " "), "5") {
					t.Errorf("the row %q is cut: %q", name, line)
				}
			}
			if !strings.Contains(screen, "row 👍🏽 🇫🇷 👨\u200d👩\u200d👧 n\u0303 end") {
				t.Errorf("the code row is not whole:\n%s", tm.dump())
			}
			tm.typ("\x03\x03")
			if code := tm.waitExit(); code != 0 {
				t.Errorf("muse exited with status %d", code)
			}
			tm.checkRestored()
			if on, set := tm.modes[ansi.ModeUnicodeCore]; set && on {
				t.Errorf("grapheme clustering (mode 2027) is left on")
			}
		})
	}
}
