package turns

import (
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"muse/ui/engine"
)

// AnswerSettle is how long a yes to a tool call waits for keys behind it:
// far more than a terminal takes to deliver the rest of one paste, far less
// than a person notices.
const AnswerSettle = 40 * time.Millisecond

// AnswerDueMsg says the yes numbered Seq of turn Turn has settled.
type AnswerDueMsg struct{ Turn, Seq int }

// Asked takes a tool call that waits, reported on ch. It is answered at
// once when the turn is cancelled (stop), when always says the user
// allowed the tool for the session, or when all says they approve every
// call (run, in which case run is set: a command runs now); wait then goes
// on reading the engine's reports. Otherwise wait is nil: the call waits
// for the user, and the engine's reports until the answer.
func (m Model) Asked(a *Ask, ch <-chan Item, always, all bool) (_ Model, wait tea.Cmd, run bool) {
	m.turn = clone(m.turn)
	t := m.turn
	switch {
	case t.Cancelled:
		a.Answer <- engine.Approval{Stop: true} // buffered: never blocks
		return m, follow(t.ID, ch), false
	case always:
		a.Answer <- engine.Approval{Run: true, Always: true}
		return m, follow(t.ID, ch), false
	case all: // the session's approve all
		t.Running = a.Call.Name
		a.Answer <- engine.Approval{Run: true}
		return m, follow(t.ID, ch), true
	}
	t.Ask, t.Running = a, ""
	m.wait = ch
	return m, nil, false
}

// PutAside keeps draft, the input's text, while the tool's result or the
// reason of a no is typed there; Answer gives it back.
func (m Model) PutAside(draft string) Model {
	m.draft = draft
	return m
}

// Answer gives ap to the tool call that waits, and returns the draft put
// aside and the command that goes on reading the engine's reports.
func (m Model) Answer(ap engine.Approval) (_ Model, draft string, wait tea.Cmd) {
	m.turn = clone(m.turn)
	t := m.turn
	a := t.Ask
	t.Ask, t.PasteRefused, t.pending = nil, false, nil
	if ap.Run {
		t.Running = a.Call.Name
	}
	a.Answer <- ap // buffered: never blocks
	wait = follow(t.ID, m.wait)
	draft, m.draft, m.wait = m.draft, "", nil
	return m, draft, wait
}

// ResultOf is the answer that text, typed while a tool call waits, gives:
// the reason of a no to a command, or the result of a tool without one.
func (m Model) ResultOf(text string) engine.Approval {
	if m.turn.Ask.HasCommand {
		return engine.Approval{Reason: strings.TrimSpace(text)}
	}
	return engine.Approval{Result: &text}
}

// AwaitsResult says whether a tool call waits for typed text: its result,
// or, when declining, the reason it is declined.
func (m Model) AwaitsResult(declining bool) bool {
	a := m.Ask()
	return a != nil && (!a.HasCommand || declining)
}

// Settle holds ap, a yes, for AnswerSettle: a key behind it in that time
// means it came with other text (see RefusePaste). It returns the command
// that says it has settled (AnswerDueMsg).
func (m Model) Settle(ap engine.Approval) (Model, tea.Cmd) {
	m.turn = clone(m.turn)
	t := m.turn
	t.pending = &ap
	t.pendingSeq++
	id, seq := t.ID, t.pendingSeq
	return m, tea.Tick(AnswerSettle, func(time.Time) tea.Msg { return AnswerDueMsg{Turn: id, Seq: seq} })
}

// Settling says whether a yes waits to settle.
func (m Model) Settling() bool { return m.turn != nil && m.turn.pending != nil }

// RefusePaste drops the yes that waits, if any, and notes that an answer
// came with other text and was not taken.
func (m Model) RefusePaste() Model {
	m.turn = clone(m.turn)
	m.turn.pending, m.turn.PasteRefused = nil, true
	return m
}

// Due returns the yes msg settled, if it still stands.
func (m Model) Due(msg AnswerDueMsg) (engine.Approval, bool) {
	t := m.turn
	if t == nil || t.ID != msg.Turn || t.pending == nil || t.pendingSeq != msg.Seq || t.Ask == nil {
		return engine.Approval{}, false
	}
	return *t.pending, true
}
