package input

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"muse/session/prompts"
	"muse/ui/notices"
)

// The prompt history: ↑ and ↓ recall the prompts sent before, in this
// session and others, while the input is empty or shows a recalled prompt;
// a prompt sent and a draft cleared go into it.

// recalling reports whether the key k walks the history: ↑ or ↓ while the
// input is empty or still shows the recalled prompt.
func (m Model) recalling(k tea.KeyMsg) bool {
	if !key.Matches(k, m.keys.Prev, m.keys.Next) {
		return false
	}
	v := m.ed.value()
	return v == "" || (m.recall != nil && v == m.recalled)
}

// recallPrompt puts the prompt before (older) or after the one shown in the
// input.
func (m Model) recallPrompt(older bool) Model {
	if m.recall == nil {
		var sent []string
		if m.history != nil {
			sent = m.history.Prompts()
		}
		m.recall = prompts.NewRecall(sent)
	}
	var text string
	var ok bool
	if older {
		text, ok = m.recall.Prev()
	} else {
		text, ok = m.recall.Next()
	}
	if ok {
		m = m.SetValue(text)
		m.recalled = text
	}
	return m
}

// EndRecall forgets the walk through the history: the next ↑ starts from
// the newest prompt.
func (m Model) EndRecall() Model {
	m.recall = nil
	return m
}

// DraftKeptMsg says a draft cleared with Clear is in the prompt history,
// where ↑ finds it.
type DraftKeptMsg struct{}

// Remember keeps text, sent in the session sessionID, in the prompt
// history, in a command.
func (m Model) Remember(sessionID, text string) tea.Cmd {
	h := m.history
	if h == nil {
		return nil
	}
	*m.session = sessionID
	// This session's for ctrl+r, the first prompt of a new session too,
	// sent before the session had an id.
	*m.sessionPrompts = append(*m.sessionPrompts, text)
	return func() tea.Msg {
		if err := h.Add(sessionID, text); err != nil {
			return notices.Msg{Text: "could not save the prompt history: " + err.Error()}
		}
		return nil
	}
}

// Clear empties the input; its text goes into the prompt history, in a
// command that reports DraftKeptMsg, so ↑ brings it back.
func (m Model) Clear(sessionID string) (Model, tea.Cmd) {
	text := m.ed.value()
	m = m.Reset().EndRecall()
	h := m.history
	if h == nil {
		return m, nil
	}
	return m, func() tea.Msg {
		if err := h.Add(sessionID, text); err != nil {
			return notices.Msg{Text: "input cleared; it could not be kept for ↑: " + err.Error()}
		}
		return DraftKeptMsg{}
	}
}
