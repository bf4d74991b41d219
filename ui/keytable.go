package ui

import (
	"slices"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"muse/api"
	"muse/session"
	"muse/ui/keyaction"
	"muse/ui/notices"
)

// boundKey is one key of the chat screen's own: the binding of an action
// (see keyaction) and what it does, when cond holds. A binding with no
// keys leaves the choice to cond alone.
type boundKey struct {
	binding key.Binding
	cond    func(Model, tea.KeyMsg) bool
	do      func(Model, tea.KeyMsg) (tea.Model, tea.Cmd)
}

// matches reports whether b handles msg on the screen m.
func (b boundKey) matches(m Model, msg tea.KeyMsg) bool {
	if len(b.binding.Keys()) > 0 && !key.Matches(msg, b.binding) {
		return false
	}
	return b.cond == nil || b.cond(m, msg)
}

// bindKeys is the chat screen's key table, made once from k: handleKey
// tries its rows in order, and the first that matches handles the key.
// Rebinding an action in a profile's [keys] table rebinds its row.
func bindKeys(k KeyMap) []boundKey {
	by := k.byName()
	b := func(action string) key.Binding { return *by[action] }
	emptyInput := func(m Model, _ tea.KeyMsg) bool { return m.comp.Input().Value() == "" }
	scroll := key.NewBinding(key.WithKeys(slices.Concat(k.PageUp.Keys(), k.PageDown.Keys(), k.HalfUp.Keys(), k.HalfDown.Keys(), k.Top.Keys(), k.Bottom.Keys())...))
	return []boundKey{
		{b(keyaction.Exit), func(m Model, _ tea.KeyMsg) bool { return m.comp.Input().Value() == "" && !m.comp.Editing().Active() }, only(Model.stopAndQuit)},
		// shift+tab completes back while completing.
		{b(keyaction.ApproveMode), func(m Model, _ tea.KeyMsg) bool { return len(m.comp.Input().Hint()) == 0 },
			func(m Model, _ tea.KeyMsg) (tea.Model, tea.Cmd) { return m.setApproveAll(!m.approve.All()), nil }},
		{b(keyaction.Suspend), nil, suspendKey},
		{b(keyaction.Quit), nil, quitKey},
		{b(keyaction.Cancel), nil, cancelKey},
		// An enter right behind pasted text may be a line break inside a
		// paste without bracketed paste (Bubble Tea makes its CR an enter):
		// it sends only if no key follows it soon.
		{b(keyaction.Send), func(m Model, _ tea.KeyMsg) bool { return m.comp.Input().AfterPaste() }, func(m Model, _ tea.KeyMsg) (tea.Model, tea.Cmd) {
			in, cmd := m.comp.Input().HoldSend()
			m.comp = m.comp.SetInput(in)
			return m, cmd
		}},
		{b(keyaction.Send), nil, only(Model.submit)},
		{b(keyaction.Help), emptyInput, func(m Model, _ tea.KeyMsg) (tea.Model, tea.Cmd) {
			m.w = m.w.with(func(w *widgets) { w.help = w.help.Toggle() })
			return m.layout(), nil
		}},
		{b(keyaction.Editor), nil, func(m Model, _ tea.KeyMsg) (tea.Model, tea.Cmd) {
			return m, editText(m.comp.Input().Value(), editPrompt)
		}},
		{b(keyaction.Thinking), nil, thinkingKey},
		{b(keyaction.Copy), nil, func(m Model, _ tea.KeyMsg) (tea.Model, tea.Cmd) { return m.copyCommand(false, 0) }},
		{b(keyaction.Select), nil, only(Model.startSelection)},
		{b(keyaction.Sessions), nil, func(m Model, _ tea.KeyMsg) (tea.Model, tea.Cmd) {
			next, cmd, _ := m.updateSession(openPickerMsg{})
			return next, cmd
		}},
		{b(keyaction.Open), nil, func(m Model, _ tea.KeyMsg) (tea.Model, tea.Cmd) { return m.openImage(0) }},
		{b(keyaction.Previews), nil, previewsKey},
		{b(keyaction.New), nil, func(m Model, _ tea.KeyMsg) (tea.Model, tea.Cmd) { return m.clear() }},
		// The composer's own keys: ctrl+v, backspace on an empty input
		// (the last file waiting goes), ↑ on an empty input (the last
		// queued prompt comes back), Tab completion, ↑ and ↓ through the
		// prompts.
		{key.Binding{}, func(m Model, msg tea.KeyMsg) bool { return m.comp.Owns(msg) },
			func(m Model, msg tea.KeyMsg) (tea.Model, tea.Cmd) {
				return m.compose(m.comp.Key(msg, m.turns.Busy(), m.writer))
			}},
		{scroll, nil, func(m Model, msg tea.KeyMsg) (tea.Model, tea.Cmd) {
			var cmd tea.Cmd
			m.conv, cmd = m.conv.Update(msg)
			return m, cmd
		}},
	}
}

// only makes an action that takes no key a row's action.
func only(f func(Model) (tea.Model, tea.Cmd)) func(Model, tea.KeyMsg) (tea.Model, tea.Cmd) {
	return func(m Model, _ tea.KeyMsg) (tea.Model, tea.Cmd) { return f(m) }
}

// typeKey passes a key to the composer: typing, and the input's own keys.
func typeKey(m Model, msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	var cmd tea.Cmd
	m.comp, cmd = m.comp.Update(msg)
	return m.layout(), cmd
}

// suspendKey stops muse and gives the terminal to the shell (ctrl+z).
func suspendKey(m Model, _ tea.KeyMsg) (tea.Model, tea.Cmd) {
	suspend := m.opts.Suspend
	if suspend == nil {
		return m, tea.Suspend
	}
	return m, func() tea.Msg {
		if err := suspend(); err != nil {
			return notices.Msg{Text: err.Error()}
		}
		return nil
	}
}

// quitKey handles ctrl+c from the inside out: a queued prompt brought
// back, a reply or image in flight, then the draft, then muse itself, on a
// second press only (see ui/quitting).
func quitKey(m Model, _ tea.KeyMsg) (tea.Model, tea.Cmd) {
	pressed, again := m.quitting.Press()
	m.quitting = m.quitting.Forget()
	var dropped bool
	if m.comp, dropped = m.comp.Drop(); dropped {
		m.status = m.status.Note("the queued prompt is dropped")
		return m.layout(), nil
	}
	switch {
	case m.turns.Turn() != nil && !m.turns.Turn().Cancelled || m.turns.Image() != nil:
		return m.cancel()
	case m.comp.Editing().Active():
		m.comp = m.comp.LeaveEdit()
		return m.layout(), nil
	case strings.TrimSpace(m.comp.Input().Value()) != "":
		// The text goes into the prompt history, so ↑ brings it back.
		in, cmd := m.comp.Input().Clear(m.sessID)
		m.comp = m.comp.SetInput(in)
		m.status = m.status.Note("input cleared")
		return m.layout(), cmd
	}
	// Quit on a second press only: a first one, meant to clear the input,
	// must not end the session.
	if again {
		return m.quit()
	}
	m.quitting = pressed
	m.status = m.status.Note(pressed.Hint(m.comp.Queue().Len()))
	return m.layout(), nil
}

// cancelKey handles esc from the inside out: the help, the completion,
// the edit, the read of standard input, then what is in flight.
func cancelKey(m Model, msg tea.KeyMsg) (tea.Model, tea.Cmd) {
	switch {
	case m.w.help.Open():
		m.w = m.w.with(func(w *widgets) { w.help = w.help.Close() })
		return m.layout(), nil
	case len(m.comp.Input().Hint()) > 0:
		m.comp = m.comp.SetInput(m.comp.Input().HideHint())
		return m.layout(), nil
	case m.comp.Editing().Active():
		m.comp = m.comp.LeaveEdit()
		return m.layout(), nil
	case m.piped.Reading():
		var cmd tea.Cmd
		m.piped, cmd = m.piped.Update(msg)
		return m, cmd
	case m.turns.Busy():
		return m.cancel()
	}
	return m, nil
}

// previewsKey shows or hides the image previews.
func previewsKey(m Model, _ tea.KeyMsg) (tea.Model, tea.Cmd) {
	m.conv = m.conv.SetShowPreviews(!m.conv.ShowPreviews())
	m.status = m.status.Note("image previews hidden · " + m.keys.Previews.Help().Key + " shows them")
	if m.conv.ShowPreviews() {
		m.status = m.status.Note("image previews shown · " + m.keys.Previews.Help().Key + " hides them")
	}
	return m, nil
}

// thinkingKey expands or collapses the replies' thinking, and says which;
// with no thinking on screen it says so instead.
func thinkingKey(m Model, _ tea.KeyMsg) (tea.Model, tea.Cmd) {
	k := m.keys.Thinking.Help().Key
	if !showsThinking(m) {
		m.status = m.status.Note("no thinking on screen to expand: /thinking BUDGET turns it on for the next replies")
		return m, nil
	}
	m.conv = m.conv.SetExpandThinking(!m.conv.ExpandThinking())
	m.status = m.status.Note("thinking collapsed · " + k + " expands it")
	if m.conv.ExpandThinking() {
		m.status = m.status.Note("thinking expanded · " + k + " collapses it")
	}
	return m, nil
}

// showsThinking says whether a reply shown, or the one streaming, holds
// thinking.
func showsThinking(m Model) bool {
	es := m.conv.Entries()
	if live, ok := m.turns.Reply(); ok {
		es = append(es[:len(es):len(es)], session.Entry{Message: &live})
	}
	for _, e := range es {
		if e.Message == nil {
			continue
		}
		for _, b := range e.Message.Content {
			if b.Type == api.BlockThinking {
				return true
			}
		}
	}
	return false
}
