package input

import (
	"strings"

	"muse/ui/slash"
)

// CommandAfter finds a /command typed after text muse put in the input:
// after a failed turn the prompt is put back, and a "/retry" typed behind it
// ("demo:error please/retry") means the command, not a prompt that ends in
// it. It returns the command and the text put in before it; ok is false
// when the input is not that text followed by a /command (the text was
// edited, or what follows is not a command).
func (m Model) CommandAfter() (command, given string, ok bool) {
	v := m.ed.value()
	if m.given == "" || !strings.HasPrefix(v, m.given) {
		return "", "", false
	}
	typed := strings.TrimSpace(v[len(m.given):])
	if !slash.Is(typed) {
		return "", "", false
	}
	return typed, m.given, true
}

// KeepCommandAfter puts back the input CommandAfter read, the text given
// followed by the command typed: for a command refused, to be fixed.
func (m Model) KeepCommandAfter(value, given string) Model {
	m = m.SetValue(value)
	if strings.HasPrefix(value, given) {
		m.given = given
	}
	return m
}

// KeepDraft marks the text in the input, the user's draft kept after a
// failed turn, as text a /command may follow (see CommandAfter): a /retry
// typed or pasted after it retries the failed prompt, not a prompt sent
// as "draft/retry". The text stays the user's own typing.
func (m Model) KeepDraft() Model {
	m.given = m.ed.value()
	return m
}
