package session

import (
	"testing"

	"muse/api"
)

func TestTreePositions(t *testing.T) {
	s := Session{
		All: []Entry{{ID: "e1"}, {ID: "e2", Parent: "e1"}, {ID: "e3", Parent: "e1"}, {ID: "e4", Parent: "e3"}, {ID: "e5"}},
	}
	s.Entries, s.Head = []Entry{s.All[0], s.All[2], s.All[3]}, "e4"
	tree := s.Tree()
	// A screen's notice on the path is not the session's: it is left out.
	path := append(Branch{{ID: "n1", Kind: KindNotice}}, s.Entries...)
	b, n := tree.Positions(path)
	if n != 3 {
		t.Errorf("%d branches, want 3 (e2, e4, e5 end one each)", n)
	}
	if got := b["e1"]; got.Num != 1 || got.Of() != "1/2" {
		t.Errorf("e1: %+v %q", got, got.Of())
	}
	if got := b["e3"]; got.Num != 2 || got.Of() != "2/2" {
		t.Errorf("e3: %+v", got)
	}
	if got := b["e4"]; got.Of() != "" || got.Num != 3 {
		t.Errorf("e4 has no sibling: %+v", got)
	}
	if _, ok := b["e2"]; ok {
		t.Error("e2 is not on the active branch")
	}
	if _, ok := b["n1"]; ok {
		t.Error("the notice has a position")
	}
	// A reply that just started follows the head, beside nothing yet.
	b, n = tree.Positions(s.Entries, Entry{ID: "live"})
	if n != 3 || b["live"].Num != 4 || b["live"].Of() != "" {
		t.Errorf("live: %+v, %d branches", b["live"], n)
	}
	// A second reply to e1 is a sibling of e2 and e3 once noted.
	tree.Add(Entry{ID: "e6", Parent: "e1"})
	tree.Add(Entry{ID: "e6", Parent: "e4"}) // noted already: stays where it is
	b, n = tree.Positions(Branch{s.All[0], {ID: "e6"}})
	if n != 4 || b["e6"].Of() != "3/3" || !tree.Has("e6") || tree.Has("live") {
		t.Errorf("e6: %+v, %d branches", b["e6"], n)
	}
	if len(s.All) != 5 || len(s.Entries) != 3 {
		t.Error("Positions changed the session it read")
	}
}

func TestBranchTally(t *testing.T) {
	reply := func(in, out int, stop string, status string) Entry {
		return Entry{Kind: KindAssistant, Status: status, Message: &api.Message{StopReason: stop, Usage: api.Usage{InputTokens: in, OutputTokens: out, CacheReadInputTokens: 1}}}
	}
	b := Branch{{Kind: KindUser, Text: "hi"}, reply(3, 5, "end_turn", StatusComplete), {Kind: KindUser, Text: " again "}, reply(7, 11, "max_tokens", StatusComplete)}
	if u, stop := b.Usage(); u != (Usage{InputTokens: 10, OutputTokens: 16, CacheReadInputTokens: 2}) || stop != "max_tokens" {
		t.Errorf("usage %+v, stop %q", u, stop)
	}
	if p, ok := b.FailedPrompt(); ok {
		t.Errorf("a branch that ends in a reply failed: %q", p)
	}
	failed := append(b[:3:3], reply(0, 2, "", StatusFailed), Entry{Kind: KindError})
	if p, ok := failed.FailedPrompt(); !ok || p != "again" {
		t.Errorf("failed prompt %q, %v", p, ok)
	}
	if p, ok := (Branch{{Kind: KindError}}).FailedPrompt(); ok {
		t.Errorf("an error with no prompt before it: %q", p)
	}
	if p, ok := append(b[:3:3], reply(1, 1, "end_turn", StatusComplete), Entry{Kind: KindError}).FailedPrompt(); ok {
		t.Errorf("a prompt answered before the error: %q", p)
	}
}
