package ui

import (
	"strings"

	"muse/ui/slash"
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
	value := m.w.input.Value()
	if c := m.comp; c.cycling(value) {
		n := len(c.options)
		c.idx = ((c.idx+dir)%n + n) % n
		m.comp = c
		m.w.input.SetValue(c.options[c.idx])
		return m.layout()
	}
	options := slash.Completions(value)
	switch len(options) {
	case 0:
		return m
	case 1:
		m.comp = completion{}
		m.w.input.SetValue(options[0])
	default:
		idx := 0
		if dir < 0 {
			idx = len(options) - 1
		}
		m.comp = completion{options: options, idx: idx}
		m.w.input.SetValue(options[idx])
	}
	m.hintHidden = ""
	return m.layout()
}

// hintLines is what shows under the input while a /command is typed: every
// match of an ambiguous name (the one Tab put in the input marked), then
// the usage of the command chosen; nothing once esc closed it.
func (m Model) hintLines() []string {
	value := m.w.input.Value()
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
		lines := wrapWords(names, width, 2)
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
		return wrapWords(append(names, "· tab cycles"), width, 2)
	}
	if h := slash.Hint(value, width); h != "" {
		return []string{h}
	}
	return nil
}

// wrapWords joins words two spaces apart on lines of width, at most
// maxLines of them; when words are left over, the last line ends in "…".
func wrapWords(words []string, width, maxLines int) []string {
	var lines []string
	cur := ""
	for _, w := range words {
		next := w
		if cur != "" {
			next = cur + "  " + w
		}
		if strWidth(next) <= width {
			cur = next
			continue
		}
		if cur != "" {
			lines = append(lines, cur)
		}
		if len(lines) == maxLines {
			lines[maxLines-1] = truncateWidth(lines[maxLines-1]+" …", width)
			return lines
		}
		cur = truncateWidth(w, width)
	}
	if cur != "" {
		lines = append(lines, cur)
	}
	return lines
}
