package turns

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"muse/api"
	"muse/session"
	"muse/ui/engine"
	"muse/ui/sanitize"
	"muse/ui/textfmt"
)

// Kind says what a report asks the screen to show.
type Kind int

// The kinds of Shown.
const (
	// Nothing changes on screen but the status bar.
	Nothing Kind = iota
	// Added: the engine wrote Entry, a prompt, a tool's result or an
	// error, to add to the conversation.
	Added
	// ReplyStarted: a reply starts streaming as Entry: the screen adds it,
	// or, when it shows it already, restarts it (see Continues).
	ReplyStarted
	// Streamed: the reply streaming has something new to show (see Live).
	Streamed
	// ReplyEnded: the reply ended as Entry. Unless Saved, the screen drops
	// it (Live is its id); Count says to count Usage.
	ReplyEnded
	// ImageStarted: the engine wrote the image turn's Entry.
	ImageStarted
	// ImageShown: the image turn's Entry as it now stands, to replace.
	ImageShown
	// ImageEnded: the image turn's Entry as it ended, to replace.
	ImageEnded
	// Notice: a line for the status bar, in Notice.
	Notice
	// SaveFailed: the journal could not be written, as SaveErr says.
	SaveFailed
)

// Shown is what one report of the engine asks the screen to show.
type Shown struct {
	Kind  Kind
	Entry session.Entry
	// Title is the session's title, from the first prompt or image
	// prompt, for a session that has none.
	Title string
	// Live, Saved, Count and Usage are a ReplyEnded's.
	Live  string
	Saved bool
	Count bool
	Usage session.Usage
	// Path and Preview are an image saved and its preview, when one
	// could be built.
	Path, Preview   string
	Notice, SaveErr string
}

// Apply applies one report (an event or an image event) of the turn in
// flight to the turn, at now, and says what the screen shows of it.
func (m Model) Apply(it Item, now time.Time) (Model, Shown) {
	switch {
	case it.Event != nil && m.turn != nil:
		m.turn = clone(m.turn)
		return m, m.turn.apply(*it.Event, now)
	case it.Image != nil && m.image != nil:
		m.image = clone(m.image)
		return m, m.image.apply(*it.Image, it.Preview)
	}
	return m, Shown{}
}

// apply applies one report of the message turn; t is the model's own.
func (t *Run) apply(ev engine.Event, now time.Time) Shown {
	switch ev.Kind {
	case engine.EntryAdded:
		s := Shown{Kind: Added, Entry: ev.Entry}
		if e := ev.Entry; e.Kind == session.KindUser && !t.Compact { // as the engine titles the session
			s.Title = session.TitleFrom(engine.TitleOf(e.Text, e.Attachments))
		}
		return s
	case engine.ReplyStarted:
		t.reply, t.Running, t.Retry = &reply{live: ev.Entry}, "", ""
		return Shown{Kind: ReplyStarted, Entry: ev.Entry}
	case engine.StreamEvent:
		if t.reply == nil || t.Cancelled {
			return Shown{}
		}
		_ = t.reply.acc.Add(ev.Stream)
		switch ev.Stream.Type {
		case api.EventPing, "":
			return Shown{} // nothing on screen changes
		case api.EventContentBlockDelta:
			t.Tokens++
		}
		t.Retry = ""
		return Shown{Kind: Streamed}
	case engine.Retrying:
		t.Retry = errorLine(ev.Retry.Err)
		t.RetryAt, t.RetryAttempt = now.Add(ev.Retry.Wait), ev.Retry.Attempt+1 // the request's second attempt is the first retry
	case engine.ReplyEnded:
		r := t.reply
		t.reply = nil
		if r == nil {
			break
		}
		e := ev.Entry
		s := Shown{Kind: ReplyEnded, Entry: e, Live: r.live.ID}
		s.Saved = e.Message != nil && saved(e, ev.Err, r.base != nil)
		if s.Saved && (r.base == nil || e.Message != r.base.Message) {
			// What the saved reply adds to the session's tally, as a resume
			// adds it up from the journal (every branch's replies): its
			// usage; for a /continue, what the joined reply saved has more
			// than the reply it extended (engine.Join).
			s.Count, s.Usage = true, session.Spent(e.Message)
			if r.base != nil && r.base.Message != nil {
				s.Usage = s.Usage.Less(session.Spent(r.base.Message))
			}
		}
		return s
	case engine.ToolRunning:
		t.Running, t.Progress = ev.Call.Name, ""
	case engine.ToolProgress:
		if t.Running == ev.Call.Name {
			t.Progress = ev.Text
		}
	case engine.Notice:
		return Shown{Kind: Notice, Notice: ev.Text}
	case engine.SaveFailed:
		return Shown{Kind: SaveFailed, SaveErr: ev.Err.Error()}
	}
	return Shown{}
}

// saved tells whether the engine kept a reply that ended with err: a
// complete one, one with text, a continued one, or one cancelled (even
// before anything arrived: its prompt shows it was).
func saved(e session.Entry, err error, continued bool) bool {
	if err == nil || continued || e.Status == session.StatusCancelled {
		return true
	}
	for _, b := range e.Message.Content {
		if b.Type != api.BlockText || strings.TrimSpace(b.Text) != "" {
			return true
		}
	}
	return false
}

// apply applies one report of the image turn; preview is that of an image
// saved. j is the model's own.
func (j *Job) apply(ev engine.ImageEvent, preview string) Shown {
	switch ev.Kind {
	case engine.ImageStarted:
		e := ev.Entry
		j.Entry = &e
		return Shown{Kind: ImageStarted, Entry: e, Title: session.TitleFrom(e.ImagePrompt)}
	case engine.ImageRetrying:
		j.Phase = fmt.Sprintf("retrying in %s (attempt %d): %s",
			ev.Retry.Wait.Round(100*time.Millisecond), ev.Retry.Attempt, errorLine(ev.Retry.Err))
	case engine.ImageTask:
		// The status bar counts the turn's time already.
		j.Phase = "task " + strings.ToLower(sanitize.Line(ev.Task.Status))
	case engine.ImagesDropped:
		return Shown{Kind: Notice, Notice: ev.Text}
	case engine.ImageListed:
		j.Phase = "saving"
		return j.show(ev.Entry)
	case engine.ImageFetching:
		if j.Entry != nil {
			j.Phase = fmt.Sprintf("downloading image %d of %d", ev.Index+1, len(j.Entry.Images))
		}
		j.Done, j.Total = ev.Done, ev.Total
	case engine.ImageSaved:
		s := Shown{Path: ev.Image.Path, Preview: preview}
		if j.Entry != nil && ev.Index < len(j.Entry.Images) {
			e := *j.Entry
			e.Images = slices.Clone(e.Images) // the view keeps the one before
			e.Images[ev.Index] = ev.Image
			s.Kind, s.Entry = ImageShown, e
			j.Entry = &e
		}
		j.Phase, j.Done, j.Total = "saving", 0, 0
		return s
	case engine.ImageEnded:
		s := j.show(ev.Entry)
		s.Kind = ImageEnded
		return s
	case engine.ImageSaveFailed:
		return Shown{Kind: SaveFailed, SaveErr: ev.Err.Error()}
	}
	return Shown{}
}

// show shows e, the image turn's entry as the engine reports it.
func (j *Job) show(e session.Entry) Shown {
	j.Entry = &e
	return Shown{Kind: ImageShown, Entry: e}
}

// errorLine is the first line of err, cut to 80 runes, for the status bar.
func errorLine(err error) string {
	if err == nil {
		return ""
	}
	s := err.Error()
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	return textfmt.TruncateRunes(s, 80)
}
