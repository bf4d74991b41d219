package input

import (
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"muse/ui/sanitize"
)

// Completions a server gives. Tab on what ask takes (an MCP prompt's
// argument value) runs ask's function in a command, since asking is I/O;
// its options apply as a /command's do, if the input still shows what it
// showed at the Tab (askedMsg).

// askedMsg is what a server answered to the completion asked for value.
type askedMsg struct {
	seq     int
	value   string
	options []string
	err     error
}

// WithAskedCompletions returns m completing, on Tab, what ask returns a
// function for: that function asks a server (it does I/O, and runs in a
// command) and returns the input's value with each option in.
func (m Model) WithAskedCompletions(ask func(value string) func() ([]string, error)) Model {
	m.ask = ask
	return m
}

// askCompletion starts the completion f asks for, numbered so that only
// the last one asked applies.
func (m Model) askCompletion(f func() ([]string, error)) (Model, tea.Cmd) {
	m.pathSeq++
	seq, value := m.pathSeq, m.ed.value()
	return m, func() tea.Msg {
		options, err := f()
		return askedMsg{seq: seq, value: value, options: options, err: err}
	}
}

// asked applies the options a server answered, if the input still shows
// what it showed at the Tab.
func (m Model) asked(msg askedMsg) (Model, tea.Cmd) {
	if msg.seq != m.pathSeq || m.ed.value() != msg.value {
		return m, nil // the input changed meanwhile
	}
	switch {
	case msg.err != nil && len(msg.options) == 0:
		return m, notice(sanitize.Line(msg.err.Error()))
	case len(msg.options) == 0:
		return m, notice("the server has no completion for this")
	}
	var note tea.Cmd // on the options the server sent that are left out
	if msg.err != nil {
		note = notice(msg.err.Error())
	}
	// The hint names each by its value alone.
	names := make([]string, len(msg.options))
	for i, o := range msg.options {
		last := o[strings.LastIndexAny(strings.TrimSpace(o), " ")+1:]
		if _, v, ok := strings.Cut(last, "="); ok {
			last = v
		}
		names[i] = strings.TrimSpace(last)
	}
	return m.applyOptions(msg.options, names, 1), note
}
