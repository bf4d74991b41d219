package input

import (
	"slices"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"muse/ui/slash"
	"muse/ui/textfmt"
)

// completion is a Tab completion with several options: of an ambiguous
// /command, or of a path (see pathsListed). Tab after Tab puts each option
// in the input in turn.
type completion struct {
	// base is the input before an option is put in (idx -1): the path
	// completed as far as the options agree.
	base string
	// options are the input's value with each option in, cursors where its
	// cursor goes (nil: at the end), and names what the hint shows of each.
	// They are shared by copies of the model: never changed.
	options, names []string
	cursors        []cursorAt
	idx            int
}

// cycling reports whether the input shows the completion's base or its
// current option.
func (c completion) cycling(value string) bool {
	if len(c.options) < 2 {
		return false
	}
	if c.idx < 0 {
		return value == c.base
	}
	return value == c.options[c.idx]
}

// tab completes what is typed: it puts the next of the options in (dir -1
// the one before, as shift+tab does) while they are cycled; else it
// completes a path (in a command: see completePath), or a /command.
func (m Model) tab(dir int) (Model, tea.Cmd) {
	if c := m.comp; c.cycling(m.ed.value()) {
		n := len(c.options)
		switch {
		case c.idx >= 0:
			c.idx = ((c.idx+dir)%n + n) % n
		case dir > 0:
			c.idx = 0
		default:
			c.idx = n - 1
		}
		m.comp = c
		if c.cursors == nil {
			return m.setText(c.options[c.idx]), nil
		}
		return m.setValueAt(c.options[c.idx], c.cursors[c.idx]), nil
	}
	if m.ask != nil {
		if f := m.ask(m.ed.value()); f != nil {
			return m.askCompletion(f) // an MCP prompt's argument value
		}
	}
	if m.more != nil && len(m.more(m.ed.value())) > 0 {
		return m.completeCommand(dir), nil // an MCP prompt or @resource
	}
	if t, ok := m.pathTarget(); ok {
		return m.completePath(t)
	}
	return m.completeCommand(dir), nil
}

// completeCommand completes the /command being typed: a unique one with
// its trailing space; an ambiguous one with its first match (its last, for
// dir -1), then, Tab after Tab, the next ones.
func (m Model) completeCommand(dir int) Model {
	options := slash.Completions(m.ed.value(), m.models)
	if m.more != nil {
		options = append(options, m.more(m.ed.value())...)
	}
	return m.applyOptions(options, nil, dir)
}

// applyOptions puts the options of a completion in the input: a single one
// whole; the first of several (the last, for dir -1), which Tab after Tab
// then cycles, the hint showing their names (nil: the options).
func (m Model) applyOptions(options, names []string, dir int) Model {
	switch len(options) {
	case 0:
		return m
	case 1:
		m.comp = completion{}
		m = m.setText(options[0])
	default:
		idx := 0
		if dir < 0 {
			idx = len(options) - 1
		}
		if names == nil {
			names = make([]string, len(options))
			for i, o := range options {
				names[i] = strings.TrimSpace(o)
			}
		}
		m.comp = completion{options: options, names: names, idx: idx}
		m = m.setText(options[idx])
	}
	m.hintHidden = ""
	return m
}

// WithCompletions returns m completing, besides the slash commands, what
// more returns for the input's value (each the whole value with the
// option in): MCP prompts as /SERVER:NAME and their arguments. more must
// do no I/O.
func (m Model) WithCompletions(more func(value string) []string) Model {
	m.more = more
	return m
}

// WithModels returns m completing /model from models, the service's list.
func (m Model) WithModels(models *slash.Models) Model {
	m.models = models
	return m
}

// Hint is what shows under the input while a /command is typed: every
// match of an ambiguous name (the one Tab put in the input marked), then
// the usage of the command chosen; nothing once esc closed it (HideHint).
func (m Model) Hint() []string {
	value := m.ed.value()
	width := max(m.width, 1)
	if m.search != nil || m.menuOpen() && value != "" {
		return m.menu.Lines()
	}
	if value == "" || (m.hintHidden != "" && value == m.hintHidden) {
		return nil
	}
	if c := m.comp; c.cycling(value) {
		names := slices.Clone(c.names)
		if c.idx >= 0 {
			names[c.idx] = "[" + names[c.idx] + "]"
		} else {
			names = append(names, "· tab cycles")
		}
		lines := textfmt.WrapWords(names, width, 2)
		if h := slash.Hint(value, width); h != "" {
			lines = append(lines, h)
		}
		return lines
	}
	if options := slash.Completions(value, m.models); len(options) > 1 && strings.TrimSpace(value) != "/" {
		names := make([]string, len(options))
		for i, o := range options {
			names[i] = strings.TrimSpace(o)
		}
		return textfmt.WrapWords(append(names, "· tab cycles"), width, 2)
	}
	if h := slash.Hint(value, width); h != "" {
		return []string{h}
	}
	return nil
}

// HintKey is what the hint depends on, for a screen that memoizes it.
func (m Model) HintKey() string {
	value := m.ed.value()
	cycling := m.comp.cycling(value)
	if !cycling && !strings.HasPrefix(strings.TrimSpace(value), "/") {
		value = ""
	}
	var menuLines string
	if m.menuOpen() {
		menuLines = strings.Join(m.menu.Lines(), "\n")
	}
	if m.search != nil {
		value += "\x00search"
	}
	return textfmt.Key(m.width, value, m.hintHidden, cycling, m.comp.idx, len(m.comp.names), menuLines)
}

// HideHint closes the hint, until the input changes.
func (m Model) HideHint() Model {
	if m.search != nil {
		return m.endSearch(true)
	}
	m.hintHidden, m.comp = m.ed.value(), completion{}
	return m.closeMenu()
}
