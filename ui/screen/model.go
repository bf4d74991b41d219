package screen

import (
	"fmt"
	"runtime/debug"

	tea "github.com/charmbracelet/bubbletea"
)

// Model wraps the root model of a program run with tea.WithoutRenderer:
// it passes every message on, tells the renderer the window's size, and
// hands each view to the renderer instead of to Bubble Tea.
type Model struct {
	inner tea.Model
	r     *Renderer
	crash *crash
}

// crash keeps a panic of the wrapped model, to be reported once the
// terminal is restored (Bubble Tea prints its own report on the alternate
// screen, where it is lost).
type crash struct{ text string }

// wrap returns m drawn by r.
func wrap(m tea.Model, r *Renderer) Model {
	return Model{inner: m, r: r, crash: &crash{}}
}

// Inner is the wrapped model.
func (m Model) Inner() tea.Model { return m.inner }

// panicReport is the report of a panic in the wrapped model's Update or
// View, or "".
func (m Model) panicReport() string { return m.crash.text }

// Init initialises the wrapped model.
func (m Model) Init() tea.Cmd { return m.inner.Init() }

// Update passes msg to the wrapped model; a new window size also goes to
// the renderer.
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	defer m.recover()
	if size, ok := msg.(tea.WindowSizeMsg); ok {
		m.r.resize(size.Width, size.Height)
	}
	var cmd tea.Cmd
	m.inner, cmd = m.inner.Update(msg)
	return m, cmd
}

// View hands the wrapped model's view to the renderer and returns nothing:
// Bubble Tea draws nothing itself.
func (m Model) View() string {
	defer m.recover()
	m.r.draw(m.inner.View())
	return ""
}

// recover notes a panic and passes it on, for Bubble Tea to end the
// program.
func (m Model) recover() {
	if v := recover(); v != nil {
		if m.crash.text == "" {
			m.crash.text = fmt.Sprintf("%v\n\n%s", v, debug.Stack())
		}
		panic(v)
	}
}
