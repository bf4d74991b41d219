package engine

import (
	"encoding/json"
	"errors"
	"fmt"

	"muse/api"
	"muse/session"
)

// The journal (session) keeps what was said; this file turns it into the
// messages a request sends. It is the only place that does.

// AttachmentReader reads the bytes of a stored attachment
// (session.Writer.ReadAttachment).
type AttachmentReader func(session.Attachment) ([]byte, error)

// History turns the conversation into the messages sent with the next
// request. A prompt counts only when a reply with content follows it: a
// failed prompt is put back into the input instead, and sending it again must
// not send it twice. A cancelled reply keeps what arrived. A prompt's
// attachments are read with read and sent before its text; one that
// cannot be read is sent as a line saying so, and with a nil read each is
// (for checks that need no bytes). Nothing is checked here: the request
// that carries the messages is, once (see check), and leaves out a stored
// attachment the service would refuse.
func History(entries []session.Entry, read AttachmentReader) []api.MessageParam {
	msgs, _ := history(entries, read, false)
	return msgs
}

// Pending is History for a branch that ends in the prompt being answered:
// that last prompt is sent too.
func Pending(entries []session.Entry, read AttachmentReader) []api.MessageParam {
	msgs, _ := history(entries, read, true)
	return msgs
}

// blockRef is where a block is in a request's messages.
type blockRef struct{ msg, block int }

// storedFiles says which blocks of a request send a stored attachment's
// bytes, and which attachment each sends.
type storedFiles map[blockRef]session.Attachment

// withPrompt returns msgs, a history, followed by a new prompt: text
// after its files, from their bytes in memory, as Pending sends the same
// prompt once it is written (after tool results that got no reply, in
// their message). Nothing is checked here: the request is (see check).
func withPrompt(msgs []api.MessageParam, text string, files []session.File) []api.MessageParam {
	n := len(msgs)
	if len(files) == 0 && (n == 0 || msgs[n-1].Role != api.RoleUser || len(msgs[n-1].Blocks) == 0) {
		return append(msgs, api.TextMessage(api.RoleUser, text))
	}
	blocks := make([]api.ContentBlock, 0, len(files)+1)
	for _, f := range files {
		blocks = append(blocks, attachmentBlock(f.Attachment, f.Data))
	}
	if text != "" {
		blocks = append(blocks, api.ContentBlock{Type: api.BlockText, Text: text})
	}
	if n > 0 && msgs[n-1].Role == api.RoleUser && len(msgs[n-1].Blocks) > 0 {
		msgs[n-1].Blocks = append(msgs[n-1].Blocks, blocks...)
		return msgs
	}
	return append(msgs, api.MessageParam{Role: api.RoleUser, Blocks: blocks})
}

// history builds History or Pending, and says where their stored
// attachments are sent.
func history(entries []session.Entry, read AttachmentReader, pendingLast bool) ([]api.MessageParam, storedFiles) {
	var out []api.MessageParam
	stored := storedFiles{}
	var pending *session.Entry
	// awaiting is set after an assistant turn that called tools: its
	// results, a tool entry, come next.
	awaiting := false
	// prompt adds the user's text: a message of its own, or a text block
	// after tool results that got no reply.
	prompt := func(e *session.Entry) {
		n := len(out)
		if n == 0 || out[n-1].Role != api.RoleUser || len(out[n-1].Blocks) == 0 {
			if len(e.Attachments) == 0 {
				out = append(out, api.TextMessage(api.RoleUser, e.Text))
				return
			}
			out = append(out, api.MessageParam{Role: api.RoleUser})
			n++
		}
		blocks, sent := promptBlocks(e, read)
		for i, ok := range sent {
			if ok {
				stored[blockRef{n - 1, len(out[n-1].Blocks) + i}] = e.Attachments[i]
			}
		}
		out[n-1].Blocks = append(out[n-1].Blocks, blocks...)
	}
	for i := range entries {
		e := &entries[i]
		switch e.Kind {
		case session.KindUser:
			if awaiting {
				// Tool calls that were never answered (muse was stopped,
				// or killed, before their results were saved): each gets an
				// error result, so the request stays valid and the rounds
				// before them are kept.
				out = answerCalls(out, nil)
			}
			awaiting = false
			pending = e
		case session.KindAssistant:
			if e.Message == nil || !hasContent(e) || (pending == nil && !awaiting) {
				continue
			}
			if e.Status == session.StatusFailed || e.Status == session.StatusStreaming {
				pending = nil
				continue
			}
			if pending != nil {
				prompt(pending)
			}
			out = append(out, assistantParam(e))
			pending, awaiting = nil, hasToolUse(out[len(out)-1])
		case session.KindTool:
			if !awaiting || len(e.ToolResults) == 0 {
				continue
			}
			out = answerCalls(out, func(id string) (api.ContentBlock, bool) {
				for _, r := range e.ToolResults {
					if r.ToolUseID == id {
						return resultBlock(r, read), true
					}
				}
				return api.ContentBlock{}, false
			})
			awaiting = true // the reply to the results comes next, with no prompt
		}
	}
	// Tool calls with no results yet, at the end: answered as above, so that
	// a prompt sent after them makes a valid request.
	if awaiting {
		out = answerCalls(out, nil)
	}
	if pendingLast && pending != nil && len(entries) > 0 && &entries[len(entries)-1] == pending {
		prompt(pending)
	}
	return out, stored
}

// StoppedOutput is the result sent for a tool call that was never answered:
// muse stopped (it was cancelled, killed or crashed) before its result was
// saved, so the call did not run, or its result was lost.
const StoppedOutput = "muse stopped before this tool call was answered: it did not run, or its result was lost"

// answerCalls answers the tool calls of out's last message, when it is an
// assistant turn that called tools: a user message with a tool_result for
// each call, in the calls' order, from result, or, for a call result does
// not answer (a nil result answers none), an error saying muse stopped.
// Results for calls the turn did not make are never sent: the API refuses
// a tool_result without its tool_use.
func answerCalls(out []api.MessageParam, result func(id string) (api.ContentBlock, bool)) []api.MessageParam {
	n := len(out)
	if n == 0 || out[n-1].Role != api.RoleAssistant || !hasToolUse(out[n-1]) {
		return out
	}
	var blocks []api.ContentBlock
	for _, b := range out[n-1].Blocks {
		if b.Type != api.BlockToolUse {
			continue
		}
		if result != nil {
			if r, ok := result(b.ID); ok {
				blocks = append(blocks, r)
				continue
			}
		}
		content, _ := json.Marshal(StoppedOutput)
		blocks = append(blocks, api.ContentBlock{Type: api.BlockToolResult, ToolUseID: b.ID, ResultContent: content, IsError: true})
	}
	return append(out, api.MessageParam{Role: api.RoleUser, Blocks: blocks})
}

func hasToolUse(p api.MessageParam) bool {
	for _, b := range p.Blocks {
		if b.Type == api.BlockToolUse {
			return true
		}
	}
	return false
}

// resultBlock is the tool_result content block sent back for r: Output as
// the content, or, with images, a text block of Output followed by them,
// each read with read (as a prompt's attachments are).
func resultBlock(r session.ToolResult, read AttachmentReader) api.ContentBlock {
	content, _ := json.Marshal(r.Output)
	if len(r.Content) > 0 || len(r.Images) > 0 {
		blocks := make([]api.ContentBlock, 0, 1+len(r.Content)+len(r.Images))
		if r.Output != "" {
			blocks = append(blocks, api.ContentBlock{Type: api.BlockText, Text: r.Output})
		}
		blocks = append(blocks, r.Content...)
		for _, a := range r.Images {
			blocks = append(blocks, resultImage(a, read))
		}
		content, _ = json.Marshal(blocks)
	}
	return api.ContentBlock{Type: api.BlockToolResult, ToolUseID: r.ToolUseID, ResultContent: content, IsError: r.IsError}
}

// hasContent says whether e leaves anything to send back: a block the API
// accepts that is more than thinking. It asks the same question as
// assistantParam, so an entry it keeps is never sent as an empty message
// (an unsigned thinking block cut off by esc counted here once, and was then
// dropped there: every later request was refused).
func hasContent(e *session.Entry) bool {
	for _, b := range sendable(e) {
		if b.Type != api.BlockThinking && b.Type != blockRedactedThinking {
			return true
		}
	}
	return false
}

// blockRedactedThinking is the type of a thinking block the server sent
// encrypted; api keeps it as raw JSON.
const blockRedactedThinking = "redacted_thinking"

// sendable is what of e's content may be sent back. Tool calls whose input
// was cut short are left out: they were never run. So are thinking blocks
// without a signature, cut short before it arrived, and empty text: the API
// rejects them.
func sendable(e *session.Entry) []api.ContentBlock {
	var blocks []api.ContentBlock
	for i, b := range e.Message.Content {
		if _, cut := e.Truncated[i]; cut || b.Truncated {
			continue
		}
		if b.Type == api.BlockText && b.Text == "" || b.Type == api.BlockThinking && b.Signature == "" {
			continue
		}
		blocks = append(blocks, b)
	}
	return blocks
}

// assistantParam turns an assistant entry into a message param: plain text
// when it holds only text with nothing more (no citations), content blocks
// otherwise, each as the server sent it, and only what sendable keeps.
func assistantParam(e *session.Entry) api.MessageParam {
	blocks := sendable(e)
	plain := true
	for _, b := range blocks {
		if b.Type != api.BlockText || len(b.Extra) > 0 {
			plain = false
		}
	}
	if plain {
		return api.TextMessage(api.RoleAssistant, api.Message{Content: blocks}.Text())
	}
	return api.MessageParam{Role: api.RoleAssistant, Blocks: blocks}
}

// promptBlocks returns the content blocks of a stored prompt: its
// attachments, each read with read (nil reads none: each is named
// instead), then its text. sent[i] is set when attachment i is sent as
// its bytes, not as a line naming it.
func promptBlocks(e *session.Entry, read AttachmentReader) (blocks []api.ContentBlock, sent []bool) {
	blocks = make([]api.ContentBlock, 0, len(e.Attachments)+1)
	sent = make([]bool, len(e.Attachments))
	for i, a := range e.Attachments {
		b, err := storedBlock(a, read)
		blocks, sent[i] = append(blocks, b), err == nil
	}
	if e.Text != "" {
		blocks = append(blocks, api.ContentBlock{Type: api.BlockText, Text: e.Text})
	}
	return blocks, sent
}

// attachmentBlock returns the content block that sends data, the bytes of a.
func attachmentBlock(a session.Attachment, data []byte) api.ContentBlock {
	switch a.Kind {
	case session.AttachImage:
		return api.ImageBlock(a.MediaType, data)
	case session.AttachDocument:
		return api.DocumentBlock(a.MediaType, data, a.Name)
	case session.AttachText:
		if a.Document {
			return api.TextDocumentBlock(a.Name, string(data))
		}
		return api.FileTextBlock(a.Name, string(data))
	default:
		return api.FileTextBlock(a.Name, string(data))
	}
}

// storedBlock is the block that sends a stored attachment a, its bytes
// read with read (nil reads none), or, with the error, a line saying why
// it is left out. The block is not checked here: the request that carries
// it is, once (see check), and a stored block it refuses is left out then.
func storedBlock(a session.Attachment, read AttachmentReader) (api.ContentBlock, error) {
	if read == nil {
		return missingBlock(a, nil), errors.New("not loaded")
	}
	data, err := read(a)
	if err != nil {
		return missingBlock(a, err), err
	}
	return attachmentBlock(a, data), nil
}

// resultImage is the block that sends a stored image of a tool's result,
// or a line saying why it is left out. It is checked here, once: the
// request's check does not look inside tool results.
func resultImage(a session.Attachment, read AttachmentReader) api.ContentBlock {
	b, err := storedBlock(a, read)
	if err != nil {
		return b
	}
	if err := checkBlock(&b); err != nil {
		return leftOut(a.Name, a.Kind, err.Error())
	}
	return b
}

// missingBlock is what is sent in place of an attachment whose bytes
// cannot be read: a line naming it, so the turn still makes sense.
func missingBlock(a session.Attachment, err error) api.ContentBlock {
	why := "it was not loaded"
	if err != nil {
		why = "its file is missing"
		if !errors.Is(err, session.ErrAttachmentMissing) {
			why = "its file could not be read"
		}
	}
	return leftOut(a.Name, a.Kind, why)
}

// leftOut is the line sent in place of an attachment named name, of kind,
// left out for why: its name and kind as attribute text (api.EscapeAttr),
// as a text file's name is sent.
func leftOut(name, kind, why string) api.ContentBlock {
	return api.ContentBlock{Type: api.BlockText,
		Text: fmt.Sprintf(`[attachment name="%s" kind="%s" left out: %s]`, api.EscapeAttr(name), api.EscapeAttr(kind), why)}
}
