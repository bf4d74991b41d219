package input

import (
	"strings"

	"muse/ui/slash"
	"muse/ui/textfmt"
)

// completion is the Tab completion of an ambiguous /command: its options,
// and the one in the input.
type completion struct {
	options []string // shared by copies of the model: never changed
	idx     int
}

// cycling reports whether the input shows the completion's current option.
func (c completion) cycling(value string) bool {
	return len(c.options) > 1 && value == c.options[c.idx]
}

// complete completes the /command being typed: a unique one with its
// trailing space; an ambiguous one with its first match, then, Tab after
// Tab, the next ones (dir -1 goes back, as shift+tab does).
func (m Model) complete(dir int) Model {
	value := m.ta.Value()
	if c := m.comp; c.cycling(value) {
		n := len(c.options)
		c.idx = ((c.idx+dir)%n + n) % n
		m.comp = c
		return m.SetValue(c.options[c.idx])
	}
	options := slash.Completions(value)
	switch len(options) {
	case 0:
		return m
	case 1:
		m.comp = completion{}
		m = m.SetValue(options[0])
	default:
		idx := 0
		if dir < 0 {
			idx = len(options) - 1
		}
		m.comp = completion{options: options, idx: idx}
		m = m.SetValue(options[idx])
	}
	m.hintHidden = ""
	return m
}

// Hint is what shows under the input while a /command is typed: every
// match of an ambiguous name (the one Tab put in the input marked), then
// the usage of the command chosen; nothing once esc closed it (HideHint).
func (m Model) Hint() []string {
	value := m.ta.Value()
	width := max(m.width, 1)
	if value == "" || (m.hintHidden != "" && value == m.hintHidden) {
		return nil
	}
	if c := m.comp; c.cycling(value) {
		names := make([]string, len(c.options))
		for i, o := range c.options {
			names[i] = strings.TrimSpace(o)
			if i == c.idx {
				names[i] = "[" + names[i] + "]"
			}
		}
		lines := textfmt.WrapWords(names, width, 2)
		if h := slash.Hint(value, width); h != "" {
			lines = append(lines, h)
		}
		return lines
	}
	if options := slash.Completions(value); len(options) > 1 && strings.TrimSpace(value) != "/" {
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
	value := m.ta.Value()
	if !strings.HasPrefix(strings.TrimSpace(value), "/") {
		value = ""
	}
	return textfmt.Key(m.width, value, m.hintHidden, m.comp.cycling(m.ta.Value()), m.comp.idx)
}

// HideHint closes the hint, until the input changes.
func (m Model) HideHint() Model {
	m.hintHidden, m.comp = m.ta.Value(), completion{}
	return m
}
