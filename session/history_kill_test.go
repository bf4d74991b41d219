package session

import (
	"encoding/json"
	"fmt"
	"testing"

	"muse/api"
	"muse/api/demo"
)

// A turn killed in its k-th tool round, for k up to 10, then a new prompt:
// every answered round is sent, each call of the round that was cut is
// answered with an error saying muse stopped, and the service's strict
// rules accept the request. With replies that hold only a tool call (the
// common case), the third round used to drop the second round's results
// and leave its call unanswered: a 400 on every later turn.
func TestHistoryAfterKillMidRound(t *testing.T) {
	for _, withText := range []bool{false, true} {
		for k := 1; k <= 10; k++ {
			for _, phase := range []string{"tool running", "reply streaming", "reply cut in its call"} {
				t.Run(fmt.Sprintf("text %v, round %d, %s", withText, k, phase), func(t *testing.T) {
					entries := []Entry{{Kind: KindUser, Text: "go"}}
					reply := func(n int) Entry {
						var blocks []api.ContentBlock
						if withText {
							blocks = append(blocks, api.ContentBlock{Type: api.BlockText, Text: fmt.Sprintf("round %d", n)})
						}
						blocks = append(blocks, api.ContentBlock{Type: api.BlockToolUse, ID: fmt.Sprintf("t%d", n), Name: "f", Input: json.RawMessage(`{}`)})
						return Entry{Kind: KindAssistant, Message: &api.Message{Content: blocks, StopReason: api.StopToolUse}}
					}
					for n := 1; n < k; n++ {
						entries = append(entries, reply(n), Entry{Kind: KindTool, ToolResults: []ToolResult{{ToolUseID: fmt.Sprintf("t%d", n), Output: fmt.Sprintf("r%d", n)}}})
					}
					answered := k - 1
					switch phase {
					case "tool running": // the reply is saved whole, its result never was
						entries = append(entries, reply(k))
					case "reply streaming": // a checkpoint of text, then the kill
						entries = append(entries, Entry{Kind: KindAssistant, Status: StatusInterrupted, Message: &api.Message{Content: []api.ContentBlock{{Type: api.BlockText, Text: "I'll"}}}})
					case "reply cut in its call": // replay marks the call truncated
						e := reply(k)
						e.Status = StatusInterrupted
						interrupt(&e)
						entries = append(entries, e)
					}
					entries = append(entries, Entry{Kind: KindUser, Text: "go on"})
					h := Pending(entries, nil)
					if msg := demo.CheckTurns(h); msg != "" {
						t.Fatalf("the service would refuse it: %s\n%+v", msg, h)
					}
					results, stopped := 0, 0
					for _, m := range h {
						for _, b := range m.Blocks {
							if b.Type == api.BlockToolResult && !b.IsError {
								results++
							}
							if b.Type == api.BlockToolResult && b.IsError && string(b.ResultContent) == `"`+StoppedOutput+`"` {
								stopped++
							}
						}
					}
					if results != answered {
						t.Errorf("%d answered rounds sent, want %d: %+v", results, answered, h)
					}
					wantStopped := 0
					if phase == "tool running" {
						wantStopped = 1
					}
					if stopped != wantStopped {
						t.Errorf("%d calls answered as stopped, want %d", stopped, wantStopped)
					}
					last := h[len(h)-1]
					if last.Role != api.RoleUser || last.Text != "go on" && (len(last.Blocks) == 0 || last.Blocks[len(last.Blocks)-1].Text != "go on") {
						t.Errorf("the request does not end with the new prompt: %+v", last)
					}
				})
			}
		}
	}
}
