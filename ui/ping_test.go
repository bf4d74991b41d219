package ui

import (
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"muse/api"
	"muse/session"
	"muse/ui/engine"
	"muse/ui/turns"
)

// A flood of ping events changes nothing on screen, and so renders nothing.
func TestPingFloodRendersNothing(t *testing.T) {
	now := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	m := benchModel(t, 0, 100, 40)
	m.opts.Now = func() time.Time { return now }
	m.now = m.opts.Now
	m.comp = m.comp.SetInput(m.comp.Input().SetValue("hello"))
	next, _ := m.Update(tea.KeyMsg{Type: tea.KeyEnter})
	m = next.(Model)
	id := m.turns.Turn().ID
	ch := make(chan turns.Item)
	feed := func(it turns.Item) {
		now = now.Add(time.Second) // every frame is due
		next, _ := m.Update(turns.BatchMsg{ID: id, Items: []turns.Item{it}, Ch: ch})
		m = next.(Model)
	}
	live := session.Entry{ID: "e2", Kind: session.KindAssistant, Status: session.StatusStreaming, Message: &api.Message{Model: "m"}}
	feed(turns.Item{Event: &engine.Event{Kind: engine.ReplyStarted, Entry: live}})
	feed(event(api.EventMessageStart, func(e *api.Event) { e.Message = &api.Message{ID: "msg", Model: "m"} }))
	feed(event(api.EventContentBlockStart, func(e *api.Event) { e.Block = &api.ContentBlock{Type: api.BlockText} }))
	feed(event(api.EventContentBlockDelta, func(e *api.Event) { e.Delta = api.Delta{Type: api.DeltaText, Text: "hi"} }))
	before := m.conv.LiveRenders()
	for range 1000 {
		feed(event(api.EventPing, nil))
	}
	if after := m.conv.LiveRenders(); after != before {
		t.Errorf("1,000 pings rendered the reply %d times", after-before)
	}
}
