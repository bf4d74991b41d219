package cli

import (
	"testing"

	"muse/api"
)

// -p sets text apart from the text before it when a server tool's blocks
// came between them, as the chat screen does; text blocks that follow each
// other (citations split them) join.
func TestPrintSetsTextApartAroundServerTools(t *testing.T) {
	start := func(i int, typ, text string) api.Event {
		return api.Event{Type: api.EventContentBlockStart, Index: i, Block: &api.ContentBlock{Type: typ, Text: text}}
	}
	delta := func(i int, text string) api.Event {
		return api.Event{Type: api.EventContentBlockDelta, Index: i, Delta: api.Delta{Type: api.DeltaText, Text: text}}
	}
	events := []api.Event{
		start(0, api.BlockText, ""), delta(0, "Let me look."),
		start(1, "server_tool_use", ""), start(2, "web_search_tool_result", ""),
		start(3, api.BlockText, ""), delta(3, "There are two"),
		start(4, api.BlockText, " eclipses."),
		start(5, "server_tool_use", ""), start(6, api.BlockText, ""), // an empty text block adds nothing
		start(7, "web_search_tool_result", ""), start(8, api.BlockText, "Done."),
	}
	var r replyText
	var got string
	for _, ev := range events {
		got += r.add(ev)
	}
	if want := "Let me look.\n\nThere are two eclipses.\n\nDone."; got != want {
		t.Errorf("-p printed %q, want %q", got, want)
	}
}
