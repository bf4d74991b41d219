//go:build linux

package e2e

import (
	"strings"
	"testing"

	uv "github.com/charmbracelet/ultraviolet"
)

// The emulator (x/vt) draws each grapheme cluster in one cell as wide as
// ansi.GraphemeWidth says: 👍🏽, 🇫🇷 and 👨‍👩‍👧 take 2 columns and n with a
// combining tilde 1, as kitty and other terminals that segment clusters do.

// cursorCell is where the input's cursor is drawn (muse draws it in reverse
// video, the terminal's own cursor hidden): its column, row and content;
// ok false when no cell is in reverse video.
func (tm *term) cursorCell() (x, y int, content string, ok bool) {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	for y := tm.emu.Height() - 1; y >= 0; y-- {
		for x := 0; x < tm.emu.Width(); x++ {
			c := tm.emu.CellAt(x, y)
			if c != nil && c.Width > 0 && c.Style.Attrs&uv.AttrReverse != 0 {
				return x, y, c.Content, true
			}
		}
	}
	return 0, 0, "", false
}

// cellAt is the content of the cell at x, y.
func (tm *term) cellAt(x, y int) string {
	tm.mu.Lock()
	defer tm.mu.Unlock()
	if c := tm.emu.CellAt(x, y); c != nil {
		return c.Content
	}
	return ""
}

// waitCursorOn waits until the cursor is drawn on a cell holding content.
func (tm *term) waitCursorOn(content string) (x, y int) {
	tm.t.Helper()
	tm.waitUntil("the cursor on "+content, waitDeadline, func(string) bool {
		_, _, c, ok := tm.cursorCell()
		return ok && c == content
	})
	x, y, _, _ = tm.cursorCell()
	return x, y
}

// TestEditAroundClusters types around a thumb with a skin tone, a flag, a
// family joined with ZWJ and an n with a combining tilde, in the real
// binary: ← passes each whole, the cursor is drawn on the cell after it,
// and the keys typed before and after it land there, so the session saves
// the cluster whole ("a#👍🏽@b", never "a👍#🏽@b").
func TestEditAroundClusters(t *testing.T) {
	t.Parallel()
	h := newHome(t, "")
	tm := start(t, h, 60, 16, "--demo")
	tm.waitFor("Ask anything")
	var lines []string
	for i, c := range []string{"👍🏽", "🇫🇷", "👨‍👩‍👧", "n\u0303"} {
		tm.typ("a")
		tm.typ(c)
		tm.typ("b")
		tm.waitUntil("the typed text", waitDeadline, func(s string) bool { return strings.Contains(s, "a"+c+"b") })
		tm.typ("\x1b[D") // ←: onto b
		tm.waitCursorOn("b")
		tm.typ("\x1b[D") // ←: onto the cluster
		x, y := tm.waitCursorOn(c)
		if x != 3 { // after "› a"
			t.Errorf("%q: the cursor is drawn at column %d, want 3", c, x)
		}
		tm.typ("#")
		tm.waitUntil("# typed", waitDeadline, func(s string) bool { return strings.Count(s, "#") == i+1 })
		if got := tm.cellAt(x, y); got != "#" {
			t.Errorf("%q: # went to %q, not where the cursor was drawn", c, got)
		}
		tm.typ("\x1b[C") // →: past the cluster, onto b
		x, y = tm.waitCursorOn("b")
		tm.typ("@")
		want := "a#" + c + "@b"
		tm.waitUntil(want, waitDeadline, func(s string) bool { return strings.Contains(s, want) })
		if got := tm.cellAt(x, y); got != "@" {
			t.Errorf("%q: @ went to %q, not where the cursor was drawn", c, got)
		}
		lines = append(lines, want)
		tm.typ("\x05")   // ctrl+e
		tm.typ("\x1b\r") // alt+enter: a new line
		tm.waitUntil("a new line", waitDeadline, func(s string) bool {
			cx, _, c, ok := tm.cursorCell()
			return ok && cx == 2 && c == " "
		})
	}
	tm.typ("\x7f\r") // the last line break goes; send
	tm.waitUntil("the reply", waitDeadline, func(s string) bool {
		return !busy(statusLine(s)) && strings.Contains(inputLine(s), "Ask anything")
	})
	tm.typ("/quit\r")
	if code := tm.waitExit(); code != 0 {
		t.Fatalf("muse exited with status %d", code)
	}
	m := savedRE.FindStringSubmatch(tm.screen())
	if m == nil {
		t.Fatal("muse did not say which session it saved")
	}
	shown := h.run(t, "sessions", "show", m[1])
	if want := "you:\n" + strings.Join(lines, "\n") + "\n"; !strings.Contains(shown, want) {
		t.Errorf("the saved session lacks %q:\n%s", want, shown)
	}
}

// TestCursorInWrappedClusters fills a narrow input with rows of emoji and
// words, so it wraps, and walks the cursor back over it: at every place
// the key typed lands on the cell the cursor was drawn on. The rows were
// broken by code point while the screen measures clusters, and the cursor
// was drawn columns away from where text went.
func TestCursorInWrappedClusters(t *testing.T) {
	t.Parallel()
	h := newHome(t, "")
	tm := start(t, h, 30, 20, "--demo")
	tm.waitFor("Ask anything")
	text := strings.Repeat("👨‍👩‍👧🇫🇷 go 👍🏽n\u0303 ", 5)
	tm.typ(text)
	tm.waitUntil("the input wrapped", waitDeadline, func(s string) bool {
		return strings.Count(s, "👨‍👩‍👧") == 5
	})
	x, y, _, _ := tm.cursorCell()
	// moved waits until the cursor is drawn somewhere other than x, y, and
	// returns where.
	moved := func() (int, int, string) {
		var nx, ny int
		var c string
		tm.waitUntil("the cursor moved", waitDeadline, func(string) bool {
			var ok bool
			nx, ny, c, ok = tm.cursorCell()
			return ok && (nx != x || ny != y)
		})
		return nx, ny, c
	}
	tm.typ("\x1b[A") // ↑: up a row, into the text
	for step := range 16 {
		var c string
		x, y, c = moved()
		tm.typ("Z")
		tm.waitUntil("Z typed", waitDeadline, func(s string) bool { return strings.Count(s, "Z") == step+1 })
		// Z went in before the cluster the cursor was on, which the cursor
		// is on still, right after the Z.
		nx, ny, nc, _ := tm.cursorCell()
		if nc != c || nx == 0 || tm.cellAt(nx-1, ny) != "Z" {
			t.Fatalf("step %d: the cursor was drawn at %d,%d on %q; after Z it is at %d,%d on %q, after %q:\n%s",
				step, x, y, c, nx, ny, nc, tm.cellAt(nx-1, ny), tm.dump())
		}
		x, y = nx, ny
		tm.typ("\x1b[D") // back before the Z
		x, y, _ = moved()
		tm.typ("\x1b[D") // and one more
	}
	tm.typ("\x03\x04")
	if code := tm.waitExit(); code != 0 {
		t.Errorf("muse exited with status %d", code)
	}
}
