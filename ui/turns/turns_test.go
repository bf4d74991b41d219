package turns

import (
	"errors"
	"testing"
	"time"

	"muse/api"
	"muse/session"
	"muse/ui/engine"
)

var t0 = time.Date(2026, 11, 28, 10, 0, 0, 0, time.UTC)

// inFlight is a model with a message turn in flight whose cancel is
// counted.
func inFlight(cancels *int) Model {
	return Model{}.With(Run{ID: 1, Started: t0, Prompt: "hi", Cancel: func() { *cancels++ }})
}

func stream(typ string, f func(*api.Event)) Item {
	ev := api.Event{Type: typ}
	if f != nil {
		f(&ev)
	}
	return Item{Event: &engine.Event{Kind: engine.StreamEvent, Stream: ev}}
}

func text(s string) Item {
	return stream(api.EventContentBlockDelta, func(e *api.Event) { e.Delta = api.Delta{Type: api.DeltaText, Text: s} })
}

// applyAll applies items in order and returns what the last showed.
func applyAll(m Model, items ...Item) (Model, Shown) {
	var s Shown
	for _, it := range items {
		m, s = m.Apply(it, t0)
	}
	return m, s
}

// A reply streams into the turn: each delta counts a token and shows,
// a ping shows nothing, and the end counts the usage of what was saved.
func TestApplyStreamsAReply(t *testing.T) {
	var n int
	live := session.Entry{ID: "e2", Kind: session.KindAssistant, Status: session.StatusStreaming}
	m, s := applyAll(inFlight(&n), Item{Event: &engine.Event{Kind: engine.ReplyStarted, Entry: live}})
	if s.Kind != ReplyStarted || !m.Streaming() {
		t.Fatalf("started: %+v streaming %v", s.Kind, m.Streaming())
	}
	m, _ = applyAll(m,
		stream(api.EventMessageStart, func(e *api.Event) {
			e.Message = &api.Message{ID: "msg", Model: "m", Usage: api.Usage{InputTokens: 7}}
		}),
		stream(api.EventContentBlockStart, func(e *api.Event) { e.Block = &api.ContentBlock{Type: api.BlockText} }))
	m, s = applyAll(m, text("hello "), text("world"))
	if s.Kind != Streamed || m.Turn().Tokens != 2 {
		t.Fatalf("after two deltas: %v, %d tokens", s.Kind, m.Turn().Tokens)
	}
	if _, s = m.Apply(stream(api.EventPing, nil), t0); s.Kind != Nothing {
		t.Errorf("a ping shows %v", s.Kind)
	}
	m, e := m.Live("fallback")
	if e.ID != "e2" || e.Message == nil || e.Message.Text() != "hello world" {
		t.Fatalf("live %+v", e)
	}
	final := live
	final.Status = session.StatusComplete
	final.Message = &api.Message{Content: []api.ContentBlock{{Type: api.BlockText, Text: "hello world"}}, StopReason: api.StopEndTurn, Usage: api.Usage{InputTokens: 7}}
	m, s = m.Apply(Item{Event: &engine.Event{Kind: engine.ReplyEnded, Entry: final}}, t0)
	if s.Kind != ReplyEnded || !s.Saved || !s.Count || s.Usage.InputTokens != 7 || m.Streaming() {
		t.Errorf("ended: %+v, streaming %v", s, m.Streaming())
	}
}

// A reply that failed before any text came is not kept: the screen drops
// what it showed of it.
func TestApplyDropsAnEmptyFailedReply(t *testing.T) {
	var n int
	live := session.Entry{ID: "e2", Kind: session.KindAssistant}
	m, _ := applyAll(inFlight(&n), Item{Event: &engine.Event{Kind: engine.ReplyStarted, Entry: live}})
	ended := live
	ended.Message = &api.Message{Content: []api.ContentBlock{{Type: api.BlockText, Text: " "}}}
	_, s := m.Apply(Item{Event: &engine.Event{Kind: engine.ReplyEnded, Entry: ended, Err: errors.New("cut")}}, t0)
	if s.Kind != ReplyEnded || s.Saved || s.Live != "e2" {
		t.Errorf("ended: %+v", s)
	}
}

// The model is a value: a copy keeps the turn as it was when another
// copy applies reports, is cancelled, or ends.
func TestCopiesKeepTheirTurn(t *testing.T) {
	var n int
	m := inFlight(&n)
	kept := m
	m, _ = m.Apply(Item{Event: &engine.Event{Kind: engine.ToolRunning, Call: api.ContentBlock{Name: "get_time"}}}, t0)
	m, ok := m.Cancel()
	if !ok || !m.Turn().Cancelled || m.Turn().Running != "get_time" || n != 1 {
		t.Fatalf("cancelled %v running %q cancels %d", ok, m.Turn().Running, n)
	}
	if kept.Turn().Cancelled || kept.Turn().Running != "" {
		t.Errorf("the copy changed: %+v", kept.Turn())
	}
	if _, ok := m.Cancel(); ok {
		t.Error("cancelled twice")
	}
	ended, e := m.End()
	if ended.Busy() || !e.Cancelled || e.Prompt != "hi" || e.Image || !kept.Busy() {
		t.Errorf("ended %+v, busy %v, copy busy %v", e, ended.Busy(), kept.Busy())
	}
}

// Retrying says why and when, as the request's attempt after the one
// that failed.
func TestApplyRetrying(t *testing.T) {
	var n int
	m, _ := applyAll(inFlight(&n), Item{Event: &engine.Event{Kind: engine.Retrying,
		Retry: api.RetryInfo{Attempt: 1, Wait: 2 * time.Second, Err: errors.New("529 overloaded\nbody")}}})
	if r := m.Turn(); r.Retry != "529 overloaded" || !r.RetryAt.Equal(t0.Add(2*time.Second)) || r.RetryAttempt != 2 {
		t.Errorf("retry %q at %v attempt %d", r.Retry, r.RetryAt, r.RetryAttempt)
	}
}

// A tool call is answered at once when the turn is cancelled, when the
// tool is always allowed, or when every call is; otherwise it waits, and
// the answer gives back the draft put aside.
func TestAskedAndAnswered(t *testing.T) {
	ch := make(chan Item)
	for _, tc := range []struct {
		name        string
		cancelled   bool
		always, all bool
		want        engine.Approval
		run         bool
	}{
		{name: "cancelled", cancelled: true, want: engine.Approval{Stop: true}},
		{name: "always", always: true, want: engine.Approval{Run: true, Always: true}},
		{name: "all", all: true, want: engine.Approval{Run: true}, run: true},
	} {
		var n int
		m := inFlight(&n)
		if tc.cancelled {
			m, _ = m.Cancel()
		}
		answer := make(chan engine.Approval, 1)
		m, wait, run := m.Asked(&Ask{Call: api.ContentBlock{Name: "get_time"}, HasCommand: true, Answer: answer}, ch, tc.always, tc.all)
		if wait == nil || run != tc.run || m.Ask() != nil {
			t.Errorf("%s: wait %v run %v ask %v", tc.name, wait != nil, run, m.Ask())
		}
		if got := <-answer; got != tc.want {
			t.Errorf("%s: answered %+v, want %+v", tc.name, got, tc.want)
		}
	}
	var n int
	answer := make(chan engine.Approval, 1)
	m, wait, _ := inFlight(&n).Asked(&Ask{Call: api.ContentBlock{Name: "ask_user"}, Answer: answer}, ch, false, false)
	if wait != nil || m.Ask() == nil || !m.AwaitsResult(false) {
		t.Fatalf("a tool without a command: wait %v, ask %v", wait != nil, m.Ask())
	}
	m = m.PutAside("my draft")
	ap := m.ResultOf("forty two")
	m, draft, wait := m.Answer(ap)
	if draft != "my draft" || wait == nil || m.Ask() != nil {
		t.Errorf("answered: draft %q, wait %v, ask %v", draft, wait != nil, m.Ask())
	}
	if got := <-answer; got.Result == nil || *got.Result != "forty two" {
		t.Errorf("answered %+v", got)
	}
}

// A yes settles before it is given: a key behind it refuses it, and only
// the last yes's message gives it.
func TestSettle(t *testing.T) {
	var n int
	m, _, _ := inFlight(&n).Asked(&Ask{Call: api.ContentBlock{Name: "get_time"}, HasCommand: true, Answer: make(chan engine.Approval, 1)}, nil, false, false)
	m, cmd := m.Settle(engine.Approval{Run: true})
	if !m.Settling() || cmd == nil {
		t.Fatal("a yes does not settle")
	}
	first := AnswerDueMsg{Turn: 1, Seq: 1}
	if ap, ok := m.Due(first); !ok || !ap.Run {
		t.Errorf("due %+v %v", ap, ok)
	}
	refused := m.RefusePaste()
	if _, ok := refused.Due(first); ok || refused.Settling() || !refused.Turn().PasteRefused {
		t.Error("a refused yes is still given")
	}
	again, _ := refused.Settle(engine.Approval{Run: true})
	if _, ok := again.Due(first); ok {
		t.Error("an old yes's message gives the new one")
	}
	if _, ok := again.Due(AnswerDueMsg{Turn: 1, Seq: 2}); !ok {
		t.Error("the new yes is not given")
	}
}

// A skipped frame is owed once, and flushed when a frame is still stale.
func TestOweAndFlush(t *testing.T) {
	var n int
	m, _ := applyAll(inFlight(&n), Item{Event: &engine.Event{Kind: engine.ReplyStarted, Entry: session.Entry{ID: "e2"}}})
	m, tick := m.Owe()
	m, again := m.Owe()
	if tick == nil || again != nil {
		t.Fatalf("owed: first %v, second %v", tick != nil, again != nil)
	}
	m, due := m.Flush(FlushMsg{ID: 1})
	if !due {
		t.Error("a stale frame is not flushed")
	}
	m, _ = m.Live("m")
	if _, due := m.Flush(FlushMsg{ID: 1}); due {
		t.Error("a frame shown is flushed again")
	}
}

// An image turn's saved image replaces the entry shown in a copy: the
// entry shown before keeps its images.
func TestImageSavedReplacesACopy(t *testing.T) {
	m := Model{image: &Job{ID: 3, Cancel: func() {}}}
	e := session.Entry{ID: "i1", Kind: session.KindImage, ImagePrompt: "a fox", Images: []session.Image{{}}}
	m, s := m.Apply(Item{Image: &engine.ImageEvent{Kind: engine.ImageStarted, Entry: e}}, t0)
	if s.Kind != ImageStarted || s.Title == "" {
		t.Fatalf("started %+v", s)
	}
	before := s.Entry
	m, s = m.Apply(Item{Image: &engine.ImageEvent{Kind: engine.ImageSaved, Image: session.Image{Path: "/tmp/fox.png"}}, Preview: "P"}, t0)
	if s.Kind != ImageShown || s.Entry.Images[0].Path != "/tmp/fox.png" || s.Path != "/tmp/fox.png" || s.Preview != "P" {
		t.Fatalf("saved %+v", s)
	}
	if before.Images[0].Path != "" || m.Image().Phase != "saving" {
		t.Errorf("the entry before changed: %+v, phase %q", before.Images, m.Image().Phase)
	}
	m, ok := m.Cancel()
	if !ok || m.Image().Phase != "cancelling" {
		t.Errorf("cancel %v phase %q", ok, m.Image().Phase)
	}
	if _, end := m.End(); !end.Image || !end.Cancelled {
		t.Errorf("ended %+v", end)
	}
}

// follow returns what arrived before the end in one batch; a closed
// channel ends the batch without a channel, the end with one.
func TestFollow(t *testing.T) {
	ch := make(chan Item, 4)
	ch <- text("a")
	ch <- text("b")
	ch <- Item{Done: &Done{}}
	b := follow(7, ch)().(BatchMsg)
	if b.ID != 7 || len(b.Items) != 3 || b.Ch == nil || b.Items[2].Done == nil {
		t.Fatalf("batch %+v", b)
	}
	ch <- text("c")
	close(ch)
	b = follow(7, ch)().(BatchMsg)
	if len(b.Items) != 1 || b.Ch != nil {
		t.Errorf("closed: %+v", b)
	}
	if (Model{}).Wait(7, ch) != nil {
		t.Error("waits for a turn not in flight")
	}
}
