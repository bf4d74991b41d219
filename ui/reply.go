package ui

import (
	"context"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"muse/api"
)

// frameInterval bounds screen updates while a reply streams (~30 per second).
const frameInterval = time.Second / 30

// replyItem is one thing the stream pump reports: an event, a retry, or the end.
type replyItem struct {
	event *api.Event
	retry *api.RetryInfo
	done  *replyDone
}

type replyDone struct {
	err       error
	requestID string
}

// replyStartedMsg says a reply's pump is running and where its items arrive.
type replyStartedMsg struct {
	turn int
	ch   <-chan replyItem
}

// replyBatchMsg carries the items that arrived during one frame.
type replyBatchMsg struct {
	turn  int
	items []replyItem
	ch    <-chan replyItem
}

// startReply opens a stream in the background. The pump owns the stream and
// reports through a channel; it never touches the model. ctx's cancel, kept
// by the model, ends it.
func startReply(ctx context.Context, client *api.Client, req api.MessageRequest, turn int) tea.Cmd {
	return func() tea.Msg {
		ch := make(chan replyItem, 256)
		go pump(ctx, client, req, ch)
		return replyStartedMsg{turn: turn, ch: ch}
	}
}

func pump(ctx context.Context, client *api.Client, req api.MessageRequest, ch chan<- replyItem) {
	defer close(ch)
	send := func(it replyItem) bool {
		select {
		case ch <- it:
			return true
		case <-ctx.Done():
			return false
		}
	}
	s, err := client.StreamMessage(ctx, req, api.OnRetry(func(info api.RetryInfo) {
		send(replyItem{retry: &info})
	}))
	if err != nil {
		send(replyItem{done: &replyDone{err: err}})
		return
	}
	defer s.Close()
	for s.Next() {
		ev := s.Current()
		if !send(replyItem{event: &ev}) {
			return
		}
	}
	send(replyItem{done: &replyDone{err: s.Err(), requestID: s.RequestID()}})
}

// waitReply collects the items of one frame: it blocks for the first, then
// gathers what else arrives before the frame ends, so a fast stream causes
// at most ~30 screen updates a second.
func waitReply(turn int, ch <-chan replyItem) tea.Cmd {
	return func() tea.Msg {
		first, ok := <-ch
		if !ok {
			return replyBatchMsg{turn: turn}
		}
		items := []replyItem{first}
		if first.done != nil {
			return replyBatchMsg{turn: turn, items: items}
		}
		deadline := time.NewTimer(frameInterval)
		defer deadline.Stop()
		for {
			select {
			case it, ok := <-ch:
				if !ok {
					return replyBatchMsg{turn: turn, items: items}
				}
				items = append(items, it)
				if it.done != nil {
					return replyBatchMsg{turn: turn, items: items}
				}
			case <-deadline.C:
				return replyBatchMsg{turn: turn, items: items, ch: ch}
			}
		}
	}
}
