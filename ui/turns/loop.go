package turns

import (
	"context"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"muse/api"
	"muse/session"
	"muse/ui/engine"
)

// FrameRate is how many frames a second the screen draws at most: a
// streaming reply is rendered at this rate, and so are frames written to the
// terminal (ui/screen, which holds no timer while nothing changes).
const FrameRate = 30

// FrameInterval bounds screen updates while a reply streams.
const FrameInterval = time.Second / FrameRate

// Item is one report of the engine, of a message turn or of an image
// turn: an event, a question, or the end. An entry written comes with the
// id of the session, which writing it may have created: the screen never
// asks the writer. An image saved comes with its preview, built there.
type Item struct {
	Event   *engine.Event
	Image   *engine.ImageEvent
	Preview string
	SessID  string
	Ask     *Ask
	Done    *Done
}

// Done is how the engine ended the turn (Res is a message turn's), and the
// id of the session, which the turn's first entry may have created.
type Done struct {
	Res    engine.Result
	Err    error
	SessID string
}

// Ask is a tool call waiting for the user's answer, which goes to Answer
// (buffered: sending never blocks).
type Ask struct {
	Call       api.ContentBlock
	HasCommand bool
	Answer     chan<- engine.Approval
}

// StartedMsg says the engine runs a turn, a message turn or an image turn,
// and where it reports.
type StartedMsg struct {
	ID int
	Ch <-chan Item
}

// BatchMsg carries the reports that arrived during one frame; Ch is nil
// once the engine's channel is closed.
type BatchMsg struct {
	ID    int
	Items []Item
	Ch    <-chan Item
}

// FlushMsg asks for the render a throttled frame skipped.
type FlushMsg struct{ ID int }

// runTurn starts the engine's message turn in the background.
func runTurn(ctx context.Context, cfg engine.Config, w *session.Writer, t engine.Turn, id int) tea.Cmd {
	return runEngine(ctx, w, id, func(r reporter) (engine.Result, error) {
		emit := func(ev engine.Event) {
			if ev.Kind == engine.StreamEvent {
				r.progress(Item{Event: &ev}) // a cancelled turn's stream is not worth waiting for
				return
			}
			it := Item{Event: &ev}
			if ev.Kind == engine.EntryAdded {
				it.SessID = w.ID()
			}
			r.send(it)
		}
		approve := func(ctx context.Context, call api.ContentBlock, hasCommand bool) engine.Approval {
			answer := make(chan engine.Approval, 1)
			r.send(Item{Ask: &Ask{Call: call, HasCommand: hasCommand, Answer: answer}})
			select {
			case a := <-answer:
				return a
			case <-ctx.Done():
				return engine.Approval{Stop: true}
			}
		}
		return engine.Run(ctx, cfg, w, t, emit, approve)
	})
}

// runImage starts the engine's image turn in the background, building
// there the preview of each image saved with preview.
func runImage(ctx context.Context, cfg engine.ImageConfig, w *session.Writer, t engine.ImageTurn, preview func(path string) string, id int) tea.Cmd {
	return runEngine(ctx, w, id, func(r reporter) (engine.Result, error) {
		emit := func(ev engine.ImageEvent) {
			it := Item{Image: &ev}
			switch ev.Kind {
			case engine.ImageFetching, engine.ImageTask, engine.ImageRetrying:
				r.progress(it)
				return
			case engine.ImageSaved:
				if ev.Image.Path != "" {
					it.Preview = preview(ev.Image.Path)
				}
			}
			r.send(it)
		}
		_, err := engine.RunImage(ctx, cfg, w, t, emit)
		return engine.Result{}, err
	})
}

// reporter is how a turn running in the background reports to the screen.
type reporter struct {
	ctx context.Context
	ch  chan<- Item
}

// send reports it; the screen reads until the turn is done.
func (r reporter) send(it Item) { r.ch <- it }

// progress reports it unless the turn is cancelled: progress of a
// cancelled turn is not worth waiting for.
func (r reporter) progress(it Item) {
	select {
	case r.ch <- it:
	case <-r.ctx.Done():
	}
}

// runEngine starts a turn of the engine in the background, a message turn
// or an image turn: run runs it, reporting through a channel, whose last
// report is the end. It never touches the model; the model keeps ctx's
// cancel. Both kinds of turns come back through this one loop (StartedMsg,
// follow, BatchMsg).
func runEngine(ctx context.Context, w *session.Writer, id int, run func(reporter) (engine.Result, error)) tea.Cmd {
	return func() tea.Msg {
		ch := make(chan Item, 256)
		go func() {
			defer close(ch)
			res, err := run(reporter{ctx: ctx, ch: ch})
			ch <- Item{Done: &Done{Res: res, Err: err, SessID: w.ID()}}
		}()
		return StartedMsg{ID: id, Ch: ch}
	}
}

// follow collects the reports of one frame: it blocks for the first, then
// gathers what else arrives before the frame ends, so a fast stream causes
// at most ~30 screen updates a second.
func follow(id int, ch <-chan Item) tea.Cmd {
	return func() tea.Msg {
		first, ok := <-ch
		if !ok {
			return BatchMsg{ID: id}
		}
		items := []Item{first}
		if first.Done != nil || first.Ask != nil {
			return BatchMsg{ID: id, Items: items, Ch: ch}
		}
		deadline := time.NewTimer(FrameInterval)
		defer deadline.Stop()
		for {
			select {
			case it, ok := <-ch:
				if !ok {
					return BatchMsg{ID: id, Items: items}
				}
				items = append(items, it)
				if it.Done != nil || it.Ask != nil {
					return BatchMsg{ID: id, Items: items, Ch: ch}
				}
			case <-deadline.C:
				return BatchMsg{ID: id, Items: items, Ch: ch}
			}
		}
	}
}
