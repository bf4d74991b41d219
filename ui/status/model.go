package status

import (
	"muse/ui/notices"
	"muse/ui/syncrun"
)

// Model is what the status line keeps of its own between frames: the
// notice, the name of the last failed request (until the next turn
// starts), why the session is not saved (while it is not), the last
// background sync's status, the last notices whole (for ? and /info), and
// how many rows the notice took above the status line at the last layout.
// The root sets it through this small API and describes the rest of the
// screen in a State (see Fill). It is a value and does no I/O.
type Model struct {
	notice, lastErr, saveErr string
	sync                     syncrun.Status
	kept                     notices.Model
	rows                     int
	// busy says the notice is Busy's: the turn's end takes it away.
	busy bool
	// memo is the notice's lines, shared by the copies of the model.
	memo *noticeMemo
}

// New returns a status line with nothing to say.
func New() Model { return Model{memo: &noticeMemo{}} }

// Note makes text the notice; "" clears it.
func (m Model) Note(text string) Model {
	m.notice, m.busy = text, false
	return m
}

// Busy makes text the notice of an action refused while a turn is in
// flight, which TurnEnded takes away: the action can be done then.
func (m Model) Busy(text string) Model {
	m.notice, m.busy = text, true
	return m
}

// TurnEnded clears the notice if Busy set it.
func (m Model) TurnEnded() Model {
	if m.busy {
		m.notice, m.busy = "", false
	}
	return m
}

// Notice is the notice shown, "" for none.
func (m Model) Notice() string { return m.notice }

// Failed names the request that failed last; "" forgets it.
func (m Model) Failed(name string) Model {
	m.lastErr = name
	return m
}

// LastErr names the request that failed last, "" for none.
func (m Model) LastErr() string { return m.lastErr }

// Unsaved says why the session is not saved; "" says it is.
func (m Model) Unsaved(why string) Model {
	m.saveErr = why
	return m
}

// SaveErr says why the session is not saved, "" while it is.
func (m Model) SaveErr() string { return m.saveErr }

// Reset forgets the notice, the failed request and why the session was not
// saved, as another session shows.
func (m Model) Reset() Model {
	m.notice, m.lastErr, m.saveErr, m.busy = "", "", "", false
	return m
}

// Update takes a background sync's status.
func (m Model) Update(msg syncrun.StatusMsg) Model {
	m.sync = syncrun.Status(msg)
	return m
}

// Keep keeps the notice, if new, among the last notices (see Notices).
func (m Model) Keep() Model {
	m.kept = m.kept.Update(m.notice)
	return m
}

// Kept reports whether Keep would keep nothing new: the notice is "" or
// the one kept last.
func (m Model) Kept() bool { return m.kept.Holds(m.notice) }

// Notices are the last notices, whole, for ? and /info.
func (m Model) Notices() notices.Model { return m.kept }

// SetRows notes the rows the notice of s takes above the status line, as
// the screen was laid out for it.
func (m Model) SetRows(s State) Model {
	if m.memo == nil { // the zero Model
		m.memo = &noticeMemo{}
	}
	m.rows = m.NoticeHeight(s)
	return m
}

// Resized reports whether the notice of s takes another number of rows
// above the status line than at the last layout: the screen must be laid
// out again.
func (m Model) Resized(s State) bool { return m.NoticeHeight(s) != m.rows }

// Rows is how many rows the notice took above the status line at the last
// layout.
func (m Model) Rows() int { return m.rows }

// Fill sets in s what the status line keeps: the notice, the failed
// request, why the session is not saved and the sync's status.
func (m Model) Fill(s State) State {
	s.Notice, s.LastErr, s.SaveErr, s.Sync = m.notice, m.lastErr, m.saveErr, m.sync
	return s
}

// Saved notes what a write of the session reported: err, why it failed;
// with none, unsaved records still waiting keep why it was not saved.
func (m Model) Saved(err error, unsaved int) Model {
	if err != nil {
		m.saveErr = err.Error()
	} else if unsaved == 0 {
		m.saveErr = ""
	}
	return m
}
