//go:build linux

package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

// What a new user meets first, in the real binary: menus and help that
// say the truth, a picker that esc leaves, a status line that reads
// right, token counts that agree, previews that fit a small screen.

// TestFileMenuSaysWhenCut: the @ menu lists 50 files at most; when more
// match, its last line says how many: "1 of 50 shown · 51 match, type to
// narrow", not "1 of 50" (or "1 of 51" with a source), and once the typing
// narrows them it counts them all.
func TestFileMenuSaysWhenCut(t *testing.T) {
	t.Parallel()
	h := newHome(t, "")
	for i := range 51 {
		if err := os.WriteFile(filepath.Join(h.dir, fmt.Sprintf("note%02d.md", i)), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	tm := start(t, h, 80, 24, "--demo")
	tm.waitFor("Ask anything")
	for i, k := range []string{"@", "n", "o", "t", "e"} { // typed a key at a time
		tm.typ(k)
		want := "› " + "@note"[:i+1]
		tm.waitUntil(k+" typed", waitDeadline, func(s string) bool { return inputLine(s) == want })
	}
	tm.waitFor("1 of 50 shown · 51 match, type to narrow")
	tm.typ("4")
	tm.waitUntil("10 files counted", waitDeadline, func(s string) bool {
		return strings.Contains(s, "▸ note40.md") && strings.Contains(s, "1 of 10 ·") && !strings.Contains(s, "narrow")
	})
	quitNow(t, tm)
}

// TestHelpListsBackslashEnter: the ? help names "\ enter", which adds a
// line in any terminal, and it does.
func TestHelpListsBackslashEnter(t *testing.T) {
	t.Parallel()
	h := newHome(t, "")
	tm := start(t, h, 80, 24, "--demo")
	tm.waitFor("Ask anything")
	tm.typ("?")
	tm.waitFor(`\ enter`)
	tm.waitFor("newline, in any terminal")
	tm.typ("\x1b")
	tm.waitUntil("the help closed", waitDeadline, func(s string) bool { return !strings.Contains(s, "newline, in any terminal") })
	tm.typ(`one\`)
	tm.waitUntil("the backslash typed", waitDeadline, func(s string) bool { return inputLine(s) == `› one\` })
	tm.typ("\r")
	tm.waitUntil("a second line", waitDeadline, func(s string) bool {
		return strings.Contains(s, "› one\n\n") && !strings.Contains(s, `one\`) && !strings.Contains(s, "you")
	})
	quitNow(t, tm)
}

// TestResumePickerEscQuits: muse -r alone opens the picker as the first
// screen, saying esc quits; esc then ends muse with status 0, and no
// session is made.
func TestResumePickerEscQuits(t *testing.T) {
	t.Parallel()
	h := newHome(t, "")
	h.run(t, "--demo", "-p", "a first session")
	before := h.run(t, "sessions", "list")
	tm := start(t, h, 80, 24, "--demo", "-r")
	tm.waitUntil("the picker", waitDeadline, func(s string) bool {
		return strings.Contains(s, "resume a session") && strings.Contains(s, "esc quit") && strings.Contains(s, "a first session")
	})
	tm.typ("\x1b")
	if code := tm.waitExit(); code != 0 {
		t.Errorf("esc: muse exited with status %d", code)
	}
	if after := h.run(t, "sessions", "list"); after != before {
		t.Errorf("esc on the picker made a session:\nbefore\n%s\nafter\n%s", before, after)
	}
}

// sessionTally is the "session:" line /info writes.
var sessionTally = regexp.MustCompile(`session:[ \x{a0}]in[ \x{a0}]\d+ · out[ \x{a0}]\d+ · cache[ \x{a0}]read[ \x{a0}]\d+ · cache[ \x{a0}]write[ \x{a0}]\d+`)

// info runs /info, the first of the run, and returns the session's tally
// it shows.
func info(tm *term) string {
	tm.t.Helper()
	tm.typ("/info\r")
	var got string
	tm.waitUntil("/info", waitDeadline, func(s string) bool {
		got = sessionTally.FindString(s)
		return got != ""
	})
	return got
}

// outTokens is the output tokens the status line of screen s counts.
func outTokens(s string) int {
	var in, out int
	_, line, _ := strings.Cut(statusLine(s), "in ")
	if _, err := fmt.Sscanf(line, "%d out %d", &in, &out); err != nil {
		return -1
	}
	return out
}

// idle reports whether the reply has ended on screen s: no spinner (the
// settings can cut "esc cancels" off a busy line), and a stop said.
func idle(s string) bool {
	l := statusLine(s)
	return !busy(l) && strings.Contains(l, "stop ")
}

// TestTokensAgreeAfterResume: a reply cut at max_tokens, its /continue
// and a regenerated reply on a second branch; /info tells the same
// session tally before quitting and after muse -c (it counted only the
// active branch after a resume). On the way, the status line keeps two
// blanks before the settings at the width where they would touch, and
// sessions search says what its * marks (the reply on the other branch).
func TestTokensAgreeAfterResume(t *testing.T) {
	t.Parallel()
	h := newHome(t, "")
	tm := start(t, h, 120, 40, "--demo", "--max-tokens", "40")
	tm.waitFor("Ask anything")
	tm.typ("\x1b[Z") // shift+tab: approve all, said on the status line's right
	tm.waitFor("approve all")
	tm.typ("hello there\r")
	tm.waitUntil("the reply cut", waitDeadline, func(s string) bool { return idle(s) && strings.Contains(statusLine(s), "stop max_tokens") })
	first := outTokens(tm.screen())
	tm.typ("/continue\r")
	tm.waitUntil("the reply continued", waitDeadline, func(s string) bool {
		return idle(s) && outTokens(s) > first && strings.Count(s, "boring") == 1
	})
	tm.typ("\x1b[1;5A") // ctrl+↑: the reply
	tm.waitFor("selected: reply")
	tm.typ("r")
	tm.waitUntil("a second branch", waitDeadline, func(s string) bool { return idle(s) && strings.Contains(statusLine(s), "2 branches") })
	if strings.Contains(statusLine(tm.screen()), "selected:") {
		tm.typ("\x1b") // an esc that changes nothing would make the next key alt+key
		tm.waitUntil("selection left", waitDeadline, func(s string) bool { return !strings.Contains(s, "selected:") })
	}
	live := info(tm)

	// The status line at the width where its two parts would be one blank
	// apart: two blanks, the settings shortened or the left part cut.
	if !strings.Contains(statusLine(tm.screen()), "approve all") {
		t.Fatalf("the status line does not say approve all:\n%s", tm.dump())
	}
	line := strings.TrimRight(statusLine(tm.screen()), " ")
	left, right, ok := strings.Cut(line, "   ")
	if !ok {
		t.Fatalf("the status line has no gap: %q", line)
	}
	left, right = strings.TrimSpace(left), strings.TrimSpace(right)
	w := utf8.RuneCountInString(left) + 1 + utf8.RuneCountInString(right)
	tm.resize(w, 40)
	tm.waitUntil(fmt.Sprintf("the status line redrawn at %d columns", w), waitDeadline, func(s string) bool {
		return strings.Contains(statusLine(s), "demo-image")
	})
	line = statusLine(tm.screen())
	i := strings.Index(line, "approve all")
	if i < 0 {
		i = strings.Index(line, "all!")
	}
	// A line without the setting passes no check: say so.
	if i <= 0 || !strings.HasSuffix(line[:i], "  ") {
		t.Errorf("at %d columns the settings touch the left part, or approve all is gone: %q", w, line)
	}
	tm.resize(120, 40)
	quitNow(t, tm)

	tm = start(t, h, 120, 40, "--demo", "-c")
	tm.waitFor("2 branches")
	if resumed := info(tm); resumed != live {
		t.Errorf("/info live: %q; after muse -c: %q", live, resumed)
	}
	quitNow(t, tm)

	out, errs := runFor(t, h, "sessions", "search", "boring")
	if !strings.Contains(out, "*") || !strings.Contains(errs, "* a turn on a branch that is not the session's active one") {
		t.Errorf("sessions search does not say what * marks:\n%s\n%s", out, errs)
	}
}

// TestImagePreviewFitsSmallScreen: on a 60x20 screen a generated image's
// preview is at most 9 rows (preview.MaxRows), and shows whole with its
// caption, the input and the status line.
func TestImagePreviewFitsSmallScreen(t *testing.T) {
	t.Parallel()
	h := newHome(t, "")
	tm := start(t, h, 60, 20, "--demo")
	tm.waitFor("Ask anything")
	tm.typ("/image a red fox in snow\r")
	rows := func(s string) int {
		n := 0
		for _, l := range strings.Split(s, "\n") {
			if strings.Contains(l, "▀▀▀▀▀") {
				n++
			}
		}
		return n
	}
	tm.waitUntil("the preview", waitDeadline, func(s string) bool {
		return rows(s) > 0 && strings.Contains(s, "1024×1024") && strings.Contains(s, "Ask anything")
	})
	s := tm.screen()
	if n := rows(s); n > 9 {
		t.Errorf("the preview takes %d of 20 rows:\n%s", n, tm.dump())
	}
	if !strings.Contains(statusLine(s), "demo-chat") || !strings.Contains(s, "revised:") {
		t.Errorf("the caption or the status line is out of view:\n%s", tm.dump())
	}
	quitNow(t, tm)
}
