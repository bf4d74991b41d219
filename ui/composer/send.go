package composer

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"muse/session"
	"muse/ui/input"
	"muse/ui/queue"
	"muse/ui/textfmt"
)

// Out is what an action of the composer asks of the root: a notice for the
// status line (when Noted), a command to run, and a prompt to send.
type Out struct {
	Notice string
	Noted  bool
	Cmd    tea.Cmd
	Send   *Prompt
}

// note is an Out that says notice ("" clears the status line).
func note(notice string) Out { return Out{Notice: notice, Noted: true} }

// Prompt is a prompt to send, with the files it takes. The root sends it
// as a new turn, or queues it behind the turn in flight (Enqueue), and
// then tells the composer how it went (Sent).
type Prompt struct {
	Text  string
	Files []session.File
	// Edit is the id of the prompt being edited that Text replaces, as a
	// new branch beside it; "" for a new prompt.
	Edit string
	// queued marks the queue's next prompt (see Next).
	queued bool
}

// Prompt is text as the prompt to send now, with the files waiting, in
// place of the prompt being edited if one is.
func (m Model) Prompt(text string) *Prompt {
	return &Prompt{Text: text, Files: m.pending.Files(), Edit: m.edit.ID()}
}

// Send asks to send text, the input's: the files its @mentions name, and
// the MCP resources it mentions (resources), are attached first, and it
// is sent once they are (see Attached). Text the user did not type (a
// paste, the editor's) could name ~/.ssh/id_ed25519: its files wait as
// chips, seen, until the next enter. So does a typed mention that a link
// leads out of the working folder (attach.Follow: README.md, a link to
// ~/.config/gh/hosts.yml), its chip naming where it leads, unless the
// user wrote that place themselves (an absolute or ~ path outside the
// folder).
func (m Model) Send(text string, resources []Source) (Model, Out) {
	if m.pending.Preparing() {
		return m, note("an attachment is still being read: enter again once it shows above the input")
	}
	paths, _ := input.Mentions(text)
	if len(paths)+len(resources) == 0 || m.pending.Mentioned(text) {
		return m, Out{Send: m.Prompt(text)}
	}
	sources := make([]Source, len(paths), len(paths)+len(resources))
	for i, p := range paths {
		sources[i] = Source{Path: p, Mention: true}
	}
	sources = append(sources, resources...)
	m.pending = m.pending.Mention(text)
	if m.input.Typed() {
		return m.attach(sources, text, "")
	}
	m, out := m.attach(sources, "", "")
	return m, Decorate(out, func(msg AttachedMsg) AttachedMsg {
		msg.Note = "the text names files: attached above, not sent yet · enter sends them · /detach removes"
		msg.unseen = text
		return msg
	})
}

// Enqueue puts p behind the turn in flight, with its files: the files
// waiting go with it, and the input empties if it holds p. The queue is
// saved beside the session of w (see queue.Save).
func (m Model) Enqueue(p *Prompt, sessID string, w queue.Saver) (Model, tea.Cmd) {
	m.queue = m.queue.Push(queue.Prompt{Text: p.Text, Files: p.Files})
	m.pending = m.pending.Set(nil)
	var cmd, save tea.Cmd
	if strings.TrimSpace(m.input.Value()) == p.Text {
		m.input = m.input.Reset().EndRecall()
		cmd = m.input.Remember(sessID, p.Text)
	}
	m.queue, save = m.queue.Save(w)
	return m, tea.Batch(cmd, save)
}

// Sending is how the root sent a prompt.
type Sending int

const (
	// Refused: no turn started; the prompt stays as it was.
	Refused Sending = iota
	// Retried: the prompt that failed went again as its retry, which took
	// care of the input.
	Retried
	// Started: a turn of the prompt started.
	Started
)

// Sent settles p once the root sent it as how says: a prompt started
// leaves the input (and goes into the prompt history) with its files, an
// edit sent ends the edit; a queued prompt leaves the files waiting as
// they were, and leaves the queue (saved beside the session of w), or
// waits again, first, the queue stopped, if it was refused.
func (m Model) Sent(p *Prompt, how Sending, sessID string, w queue.Saver) (Model, tea.Cmd) {
	kept := m.pending.Files()
	var cmd tea.Cmd
	switch {
	case how == Refused:
		if p.queued {
			m.queue = m.queue.Unshift(queue.Prompt{Text: p.Text, Files: p.Files})
		}
		return m, nil
	case how == Started && p.Edit != "":
		m.edit, m.input, m.pending = m.edit.Leave(m.input, m.pending)
		m.input = m.input.EndRecall()
		cmd = m.input.Remember(sessID, p.Text)
	case how == Started:
		m.pending = m.pending.Set(nil)
		if strings.TrimSpace(m.input.Value()) == p.Text { // not a queued prompt: the input holds a draft
			m.input = m.input.Reset().EndRecall()
			cmd = m.input.Remember(sessID, p.Text)
		}
	}
	if !p.queued {
		return m, cmd
	}
	m.pending = m.pending.Set(kept)
	var save tea.Cmd
	m.queue, save = m.queue.Save(w)
	return m, tea.Batch(cmd, save)
}

// Next takes the next queued prompt off the queue, to send; the input and
// the files waiting stay as they are. There must be one.
func (m Model) Next() (Model, *Prompt) {
	var q queue.Prompt
	m.queue, q = m.queue.Shift()
	return m, &Prompt{Text: q.Text, Files: q.Files, Edit: m.edit.ID(), queued: true}
}

// AfterTurn goes on with the queue once a turn has ended: the next prompt
// is sent if the turn ended well (ok); otherwise the queue stops, and the
// status line says so after why: notice, what it says now, or lastErr,
// the name of the request that failed.
func (m Model) AfterTurn(ok bool, notice, lastErr string) (Model, Out) {
	if m.queue.Len() == 0 {
		return m, Out{}
	}
	if ok && !m.queue.Stopped() {
		m, p := m.Next()
		return m, Out{Send: p}
	}
	m.queue = m.queue.Stop()
	// Short: the queue's own line says how to go on.
	stopped := fmt.Sprintf("queue stopped: %s waiting", textfmt.Plural(m.queue.Len(), "prompt"))
	switch {
	case notice != "":
		stopped = notice + " · " + stopped
	case lastErr != "":
		stopped = "the turn failed · " + stopped
	default:
		stopped = "cancelled · " + stopped
	}
	return m, note(stopped)
}

// Unqueue brings the last queued prompt back into the (empty) input, and
// its files above it, to be edited, sent again or dropped (see Drop);
// busy says a turn is in flight, which enter queues it behind again.
func (m Model) Unqueue(busy bool, w queue.Saver) (Model, Out) {
	m.queue, m.input, m.pending = m.queue.Unqueue(m.input, m.pending)
	enter := "sends it"
	if busy {
		enter = "queues it again"
	}
	out := note("queued prompt back in the input: enter " + enter + " · ctrl+c drops it")
	m.queue, out.Cmd = m.queue.Save(w)
	return m, out
}

// Drop drops the queued prompt Unqueue brought back, if the input still
// holds it as it came, and its files; ok reports it did.
func (m Model) Drop() (_ Model, ok bool) {
	m.queue, m.input, m.pending, ok = m.queue.Drop(m.input, m.pending)
	return m, ok
}

// Restore shows the queue a session kept, stopped.
func (m Model) Restore(q []session.QueuedPrompt) Model {
	m.queue = m.queue.Restore(q)
	return m
}

// Edit puts the prompt e, number num on the branch of the session of w,
// in the input to be edited, keeping the draft the input held; the
// prompt's files wait above the input as chips, by their own names, to be
// sent with the edit or removed.
func (m Model) Edit(e session.Entry, num int, w *session.Writer) (Model, Out) {
	m.edit, m.input, m.pending = m.edit.Begin(e, num, m.input, m.pending)
	if len(e.Attachments) == 0 {
		return m, Out{}
	}
	m, out := m.attach(stored(w, e.Attachments), "", "")
	// Dropped if that edit has ended when it arrives.
	return m, Decorate(out, func(msg AttachedMsg) AttachedMsg {
		msg.edit = e.ID
		msg.Note = "the prompt's files are above the input: sent with the edit · /detach removes"
		return msg
	})
}

// LeaveEdit ends the edit, if one is under way: the draft and its files
// come back.
func (m Model) LeaveEdit() Model {
	m.edit, m.input, m.pending = m.edit.Leave(m.input, m.pending)
	return m
}
