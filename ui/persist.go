package ui

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"muse/session"
)

// checkpointEvery is how often a streaming reply's text is written to the
// journal, so a crash loses at most about this much.
const checkpointEvery = time.Second

// journal is the on-disk home of one session. It is created with the first
// record. Only the save command in flight touches sess; the model learns the
// session's id from savedMsg. Each session the screen shows gets its own
// journal, so saves still queued for a session left behind go to that one.
type journal struct {
	sess   *session.Session
	unlock func() error
}

// saveJob is a batch of records for a journal, written in order:
// the title, retractions, settings, then entries.
type saveJob struct {
	j          *journal
	params     session.Params // the settings a new session is created with
	title      string         // a title to record, if any
	retract    []string
	setParams  bool
	entries    []session.Entry
	checkpoint bool // entries are a streaming checkpoint: no fsync needed
}

// savedMsg reports a finished save.
type savedMsg struct {
	j   *journal
	id  string
	err error
}

// save queues a job for the current session; one save runs at a time, so
// records keep their order.
func (m Model) save(job saveJob) (Model, tea.Cmd) {
	if m.opts.Store == nil {
		if m.quitting && !m.saving {
			return m, tea.Quit
		}
		return m, nil
	}
	job.j = m.journal
	job.params = m.params
	// The title goes with the job that creates the session: one with entries.
	if m.sessID == "" && !m.titleSaved && len(job.entries) > 0 {
		job.title, m.titleSaved = m.title, true
	}
	m.queue = append(m.queue, job)
	return m.nextSave()
}

// saveParams records changed settings. A session not yet created takes them
// when it is.
func (m Model) saveParams() (tea.Model, tea.Cmd) {
	if m.sessID == "" && !m.saving && len(m.queue) == 0 {
		return m.layout(), nil
	}
	next, cmd := m.save(saveJob{setParams: true})
	return next.layout(), cmd
}

func (m Model) nextSave() (Model, tea.Cmd) {
	if m.saving || len(m.queue) == 0 {
		if m.quitting && !m.saving && len(m.queue) == 0 {
			return m, tea.Quit
		}
		return m, nil
	}
	job := m.queue[0]
	m.queue = m.queue[1:]
	m.saving, m.savingJ = true, job.j
	return m, writeJournal(m.opts.Store, job)
}

// writeJournal writes a job's records, creating the session first if needed.
func writeJournal(store *session.Store, job saveJob) tea.Cmd {
	return func() tea.Msg {
		j := job.j
		fail := func(err error) tea.Msg {
			id := ""
			if j.sess != nil {
				id = j.sess.ID
			}
			return savedMsg{j: j, id: id, err: err}
		}
		if j.sess == nil {
			if len(job.entries) == 0 && len(job.retract) == 0 {
				return savedMsg{j: j} // nothing worth a session yet
			}
			sess, err := store.Create(job.params)
			if err != nil {
				return fail(err)
			}
			j.sess = sess
			if unlock, err := store.Lock(sess.ID); err == nil {
				j.unlock = unlock
			}
		}
		if job.title != "" {
			if err := store.SetTitle(j.sess, job.title); err != nil {
				return fail(err)
			}
		}
		if err := store.Retract(j.sess, job.retract); err != nil {
			return fail(err)
		}
		if job.setParams {
			if err := store.SetParams(j.sess, job.params); err != nil {
				return fail(err)
			}
		}
		for _, e := range job.entries {
			write := store.Append
			if job.checkpoint {
				write = store.Checkpoint
			}
			if err := write(j.sess, e); err != nil {
				return fail(err)
			}
		}
		return savedMsg{j: j, id: j.sess.ID}
	}
}

func (m Model) saved(msg savedMsg) (Model, tea.Cmd) {
	m.saving, m.savingJ = false, nil
	if msg.j == m.journal && msg.id != "" {
		m.sessID = msg.id
	}
	if msg.err != nil {
		m = m.addEntry(session.Entry{Kind: session.KindNotice, Text: "could not save the session: " + msg.err.Error()})
	}
	var release tea.Cmd
	if msg.j != m.journal && !m.pendingFor(msg.j) {
		release = unlockJournal(msg.j) // a session left behind: its last save landed
	}
	if msg.err != nil && msg.j == m.journal && m.sessID == "" && m.imaging != nil {
		// No session to save the images under: end the image turn.
		m.imaging.entry.Error = &session.ErrorInfo{Message: "the session could not be created: " + msg.err.Error()}
		m.imaging.entry.Status = session.StatusFailed
		m.imaging.result = nil
		fin, cmd := m.finishImage()
		return fin.(Model), tea.Batch(release, cmd)
	}
	next, cmd := m.nextSave()
	var images tea.Cmd
	if next.imaging != nil && next.imaging.result != nil {
		var nm tea.Model
		nm, images = next.maybeSaveImages()
		next = nm.(Model)
	}
	return next, tea.Batch(release, cmd, images)
}

// checkpoint writes the streaming reply's text so far, at most once a second.
func (m Model) checkpoint() (Model, tea.Cmd) {
	r := m.reply
	if r == nil || m.opts.Store == nil || m.now().Sub(r.checkpointed) < checkpointEvery || m.saving {
		return m, nil
	}
	r.checkpointed = m.now()
	live := r.live
	msg := r.message(m.params.Model)
	live.Message = &msg
	live.Status = session.StatusStreaming
	entries := []session.Entry{live}
	if !r.userSaved {
		entries = []session.Entry{r.user, live}
		r.userSaved = true
	}
	return m.save(saveJob{entries: entries, checkpoint: true})
}
