package session

import (
	"fmt"

	"muse/api"
)

// History turns the conversation into the messages sent with the next
// request. A prompt counts only when a reply with content follows it: a
// failed prompt is put back into the input instead, and sending it again must
// not send it twice. A cancelled reply keeps what arrived.
func History(entries []Entry) []api.MessageParam {
	var out []api.MessageParam
	var pending *Entry
	for i := range entries {
		e := &entries[i]
		switch e.Kind {
		case KindUser:
			pending = e
		case KindAssistant:
			if pending == nil || e.Message == nil || !hasContent(e) {
				continue
			}
			if e.Status == StatusFailed || e.Status == StatusStreaming {
				pending = nil
				continue
			}
			out = append(out, api.TextMessage(api.RoleUser, pending.Text), AssistantParam(e))
			pending = nil
		}
	}
	return out
}

func hasContent(e *Entry) bool {
	for _, b := range e.Message.Content {
		switch b.Type {
		case api.BlockText:
			if b.Text != "" {
				return true
			}
		default:
			return true
		}
	}
	return false
}

// AssistantParam turns an assistant entry into a message param: plain text
// when it holds only text, content blocks otherwise. Tool calls whose input
// was cut short are left out: they were never run. So are thinking blocks
// without a signature, cut short before it arrived: the API rejects them.
func AssistantParam(e *Entry) api.MessageParam {
	var blocks []api.ContentBlock
	plain := true
	for i, b := range e.Message.Content {
		if _, cut := e.Truncated[i]; cut || b.Truncated {
			continue
		}
		if b.Type == api.BlockText && b.Text == "" || b.Type == api.BlockThinking && b.Signature == "" {
			continue
		}
		if b.Type != api.BlockText {
			plain = false
		}
		blocks = append(blocks, b)
	}
	if plain {
		return api.TextMessage(api.RoleAssistant, api.Message{Content: blocks}.Text())
	}
	return api.MessageParam{Role: api.RoleAssistant, Blocks: blocks}
}

// NextSeq returns the number after the highest entry ID of the form "e<N>",
// so new entries never reuse an ID, even after entries that were not saved.
func NextSeq(entries []Entry) int {
	n := 0
	for _, e := range entries {
		var k int
		if _, err := fmt.Sscanf(e.ID, "e%d", &k); err == nil && k > n {
			n = k
		}
	}
	return n + 1
}

// Request builds a message request with these settings.
func (p Params) Request(msgs []api.MessageParam) api.MessageRequest {
	req := api.MessageRequest{
		Model: p.Model, Messages: msgs, MaxTokens: p.MaxTokens, System: p.System,
		Temperature: p.Temperature, TopP: p.TopP, TopK: p.TopK, StopSequences: p.StopSequences,
	}
	if p.ThinkingBudget > 0 {
		req.Thinking = &api.Thinking{Type: "enabled", BudgetTokens: p.ThinkingBudget}
	}
	if p.UserID != "" {
		req.Metadata = &api.Metadata{UserID: p.UserID}
	}
	return req
}
