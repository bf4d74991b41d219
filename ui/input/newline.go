package input

import (
	"fmt"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// Two more ways to add a line besides the Newline keys, for the habits
// people bring from other tools: "\" then enter (as in Claude Code and a
// shell), and shift+enter where the terminal sends it apart from enter.

// ContinueKey is "\" then enter, as the help lists it: it adds a line in
// any terminal, where alt+enter and shift+enter may not reach muse. It is
// shown, never matched: ContinueLine takes the enter.
var ContinueKey = key.NewBinding(key.WithKeys(`\`), key.WithHelp(`\ enter`, "newline, in any terminal"))

// ContinueLine takes an enter typed right after a "\": the backslash goes
// and a line break takes its place, as a shell continues a line. ok is
// false, and the enter is the screen's, when the cursor does not follow a
// backslash.
func (m Model) ContinueLine() (next Model, ok bool) {
	e := &m.ed
	if e.selecting || e.col == 0 {
		return m, false
	}
	line := e.lines[e.row]
	p := prevCluster(line, e.col)
	if line[p:e.col] != `\` {
		return m, false
	}
	e.deleteRange(pos{e.row, p}, e.cursor())
	e.insert("\n")
	return m.fit(), true
}

// shiftEnterSeqs are how terminals send shift+enter apart from enter, as
// Bubble Tea v1 names the sequences it does not know: CSI 13;2u (the kitty
// keyboard protocol's form, which kitty, WezTerm, foot and Ghostty send
// when mapped to) and CSI 27;2;13~ (xterm's modifyOtherKeys form).
var shiftEnterSeqs = map[string]bool{
	"?CSI" + fmt.Sprintf("%+v", []byte("13;2u")) + "?":    true,
	"?CSI" + fmt.Sprintf("%+v", []byte("27;2;13~")) + "?": true,
}

// ShiftEnter turns msg, when it is shift+enter sent apart from enter (see
// shiftEnterSeqs), into alt+enter, which adds a line. Bubble Tea v1 hands
// such a sequence on as a message of its own, unexported, that only its
// String names.
func ShiftEnter(msg tea.Msg) (tea.Msg, bool) {
	if _, isKey := msg.(tea.KeyMsg); isKey {
		return msg, false
	}
	s, ok := msg.(fmt.Stringer)
	if !ok || !shiftEnterSeqs[s.String()] {
		return msg, false
	}
	return tea.KeyMsg{Type: tea.KeyEnter, Alt: true}, true
}
