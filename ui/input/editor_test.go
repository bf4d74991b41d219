package input

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"muse/ui/textfmt"
)

// clusters are the characters of several code points the issue found
// split: a thumb with a skin tone, a flag, a family joined with ZWJ, and
// an n with a combining tilde.
var clusters = []string{"👍🏽", "🇫🇷", "👨‍👩‍👧", "n\u0303"}

func keyOf(t tea.KeyType) tea.KeyMsg { return tea.KeyMsg{Type: t} }

func runes(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

// Every move stops only between clusters: ← from the end of "a<c>b"
// passes c in one key, and a key typed then goes before or after it,
// never inside; backspace and delete take the whole cluster.
func TestEditsByCluster(t *testing.T) {
	for _, c := range clusters {
		m := update(sized(t, 80, 24), runes("a"+c+"b"))
		m = update(m, keyOf(tea.KeyLeft))
		m = update(m, keyOf(tea.KeyLeft)) // now before c
		m = update(m, runes("#"))
		if want := "a#" + c + "b"; m.Value() != want {
			t.Errorf("%q: typed before the cluster: %q, want %q", c, m.Value(), want)
		}
		m = update(m, keyOf(tea.KeyRight))
		m = update(m, runes("@"))
		if want := "a#" + c + "@b"; m.Value() != want {
			t.Errorf("%q: typed after the cluster: %q, want %q", c, m.Value(), want)
		}
		m = update(m, keyOf(tea.KeyLeft))
		m = update(m, keyOf(tea.KeyBackspace))
		if want := "a#@b"; m.Value() != want {
			t.Errorf("%q: backspace left %q, want %q", c, m.Value(), want)
		}
		m = update(sized(t, 80, 24), runes(c+c))
		m = update(m, tea.KeyMsg{Type: tea.KeyCtrlA})
		m = update(m, keyOf(tea.KeyDelete))
		if m.Value() != c {
			t.Errorf("%q: delete left %q", c, m.Value())
		}
	}
}

// The cursor is drawn on a whole cluster, never on part of one.
func TestCursorDrawnOnWholeCluster(t *testing.T) {
	for _, c := range clusters {
		m := update(sized(t, 80, 24), runes("x"+c+"y"))
		m = update(m, keyOf(tea.KeyLeft))
		m = update(m, keyOf(tea.KeyLeft))
		if v := m.View(); !strings.Contains(v, "x"+cursorOn+c+cursorOff+"y") {
			t.Errorf("%q: cursor drawn as %q", c, rows(t, m)[0])
		}
	}
}

// Word motion and deleting a word pass clusters whole.
func TestWordMotionByCluster(t *testing.T) {
	m := update(sized(t, 80, 24), runes("hi 👨‍👩‍👧🇫🇷 n\u0303o"))
	m = update(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("b"), Alt: true}) // word left
	m = update(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("b"), Alt: true})
	m = update(m, runes("<"))
	if want := "hi <👨‍👩‍👧🇫🇷 n\u0303o"; m.Value() != want {
		t.Fatalf("%q, want %q", m.Value(), want)
	}
	m = update(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("f"), Alt: true})
	m = update(m, runes(">"))
	m = update(m, tea.KeyMsg{Type: tea.KeyCtrlE})
	m = update(m, tea.KeyMsg{Type: tea.KeyCtrlW})
	if want := "hi <👨‍👩‍👧🇫🇷> "; m.Value() != want {
		t.Fatalf("%q, want %q", m.Value(), want)
	}
}

// shift+← selects clusters; typing replaces the selection, backspace
// deletes it.
func TestSelectionByCluster(t *testing.T) {
	m := update(sized(t, 80, 24), runes("a👍🏽🇫🇷b"))
	m = update(m, keyOf(tea.KeyLeft))
	m = update(m, keyOf(tea.KeyShiftLeft))
	m = update(m, keyOf(tea.KeyShiftLeft))
	if got := m.ed.selected(); got != "👍🏽🇫🇷" {
		t.Fatalf("selected %q", got)
	}
	if v := rows(t, m)[0]; !strings.Contains(v, "a"+cursorOn+"👍🏽🇫🇷"+cursorOff+"b") {
		t.Errorf("selection drawn as %q", v)
	}
	m = update(m, runes("x"))
	if m.Value() != "axb" {
		t.Errorf("typing over the selection left %q", m.Value())
	}
	m = update(m, keyOf(tea.KeyShiftLeft))
	m = update(m, keyOf(tea.KeyBackspace))
	if m.Value() != "ab" {
		t.Errorf("backspace on the selection left %q", m.Value())
	}
}

// The rows drawn are never wider than the input, and the cursor is drawn
// where the next key's text goes, measured as the screen measures: at
// every place in a wrapped text of clusters, the columns before the
// cursor on its row are those of the text before it on that row.
func TestWrappedCursorAgreesWithRows(t *testing.T) {
	text := strings.Repeat("ab 👨‍👩‍👧 🇫🇷🇫🇷 n\u0303o 👍🏽x ", 6) + strings.Repeat("👍🏽", 30)
	m := sized(t, 24, 60).SetValue(text)
	width := m.textWidth()
	for range len(text) {
		for _, r := range rows(t, m) {
			if w := textfmt.Width(ansi.Strip(r)); w > 24 {
				t.Fatalf("row %q is %d columns, wider than 24", r, w)
			}
		}
		rs, cur := m.wrapped()
		r := rs[cur]
		line := m.ed.lines[r.line]
		before := textfmt.Width(line[r.start:m.ed.col])
		drawn := rows(t, m)[cur-m.top]
		at := strings.Index(drawn, cursorOn)
		if at < 0 {
			t.Fatalf("no cursor in %q", drawn)
		}
		if got := textfmt.Width(ansi.Strip(drawn[:at])) - 2; got != before && before < width {
			t.Fatalf("cursor drawn at column %d, text before it takes %d: %q", got, before, drawn)
		}
		if m.ed.col == 0 && m.ed.row == 0 {
			break
		}
		m = update(m, keyOf(tea.KeyLeft))
	}
}

// wrapLine keeps words whole, cuts a word wider than the row between
// clusters, and never makes a row wider than the width but for the spaces
// at its end.
func TestWrapLine(t *testing.T) {
	for _, tc := range []struct {
		line  string
		width int
		want  []string
	}{
		{"hello world", 8, []string{"hello ", "world"}},
		{"👨‍👩‍👧👨‍👩‍👧👨‍👩‍👧", 4, []string{"👨‍👩‍👧👨‍👩‍👧", "👨‍👩‍👧"}},
		{"🇫🇷🇫🇷🇫🇷", 5, []string{"🇫🇷🇫🇷", "🇫🇷"}},
		{"abcd", 4, []string{"abcd", ""}},
		{"n\u0303n\u0303n\u0303", 2, []string{"n\u0303n\u0303", "n\u0303", ""}[:2]},
	} {
		var got []string
		for _, s := range wrapLine(tc.line, tc.width) {
			got = append(got, tc.line[s.start:s.end])
		}
		if strings.Join(got, "|") != strings.Join(tc.want, "|") {
			t.Errorf("wrapLine(%q, %d) = %q, want %q", tc.line, tc.width, got, tc.want)
		}
	}
}

// ↑ and ↓ move between wrapped rows and lines, keeping the column.
func TestVerticalMoves(t *testing.T) {
	m := sized(t, 12, 60).SetValue("abcdefgh 👍🏽ij\nxy")
	m = update(m, keyOf(tea.KeyUp)) // to the row "👍🏽ij", after 👍🏽
	m = update(m, keyOf(tea.KeyUp)) // to the row "abcdefgh ", column 2
	m = update(m, runes("#"))
	if want := "ab#cdefgh 👍🏽ij\nxy"; m.Value() != want {
		t.Fatalf("%q, want %q", m.Value(), want)
	}
	m = sized(t, 12, 60).SetValue("abcdefgh 👍🏽ij\nxyz")
	m = update(m, keyOf(tea.KeyUp)) // from column 3 on "xyz" to the row "👍🏽ij"
	m = update(m, runes("#"))
	if want := "abcdefgh 👍🏽i#j\nxyz"; m.Value() != want {
		t.Fatalf("%q, want %q", m.Value(), want)
	}
}

// Text pasted with tabs and CRs is cleaned to edit.
func TestCleanPaste(t *testing.T) {
	m := update(sized(t, 80, 24), tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("a\tb\r\nc\x1b[31m"), Paste: true})
	if m.Value() != "a    b\nc[31m" {
		t.Errorf("%q", m.Value())
	}
}
