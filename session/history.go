package session

import (
	"encoding/json"
	"errors"
	"slices"

	"muse/api"
)

// History turns the conversation into the messages sent with the next
// request. A prompt counts only when a reply with content follows it: a
// failed prompt is put back into the input instead, and sending it again must
// not send it twice. A cancelled reply keeps what arrived. A prompt's
// attachments are read with read and sent before its text; one that
// cannot be read is sent as a line saying so, and with a nil read each is
// (for checks that need no bytes).
func History(entries []Entry, read AttachmentReader) []api.MessageParam {
	return history(entries, read, false)
}

// Pending is History for a branch that ends in the prompt being answered:
// that last prompt is sent too.
func Pending(entries []Entry, read AttachmentReader) []api.MessageParam {
	return history(entries, read, true)
}

// PromptParam is the message that sends a new prompt: text after its
// attachments, whose bytes are data, in the same order.
func PromptParam(text string, attachments []Attachment, data [][]byte) api.MessageParam {
	if len(attachments) == 0 {
		return api.TextMessage(api.RoleUser, text)
	}
	e := Entry{Kind: KindUser, Text: text, Attachments: attachments}
	next := 0
	return api.MessageParam{Role: api.RoleUser, Blocks: promptBlocks(&e, func(Attachment) ([]byte, error) {
		next++
		return data[next-1], nil
	})}
}

func history(entries []Entry, read AttachmentReader, pendingLast bool) []api.MessageParam {
	var out []api.MessageParam
	var pending *Entry
	// awaiting is set after an assistant turn that called tools: its
	// results, a tool entry, come next.
	awaiting := false
	// prompt adds the user's text: a message of its own, or a text block
	// after tool results that got no reply.
	prompt := func(e *Entry) {
		if n := len(out); n > 0 && out[n-1].Role == api.RoleUser && len(out[n-1].Blocks) > 0 {
			out[n-1].Blocks = append(out[n-1].Blocks, promptBlocks(e, read)...)
			return
		}
		if len(e.Attachments) == 0 {
			out = append(out, api.TextMessage(api.RoleUser, e.Text))
			return
		}
		out = append(out, api.MessageParam{Role: api.RoleUser, Blocks: promptBlocks(e, read)})
	}
	for i := range entries {
		e := &entries[i]
		switch e.Kind {
		case KindUser:
			if awaiting {
				// Tool calls that were never answered (muse was stopped,
				// or killed, before their results were saved): each gets an
				// error result, so the request stays valid and the rounds
				// before them are kept.
				out = answerCalls(out, nil)
			}
			awaiting = false
			pending = e
		case KindAssistant:
			if e.Message == nil || !hasContent(e) || (pending == nil && !awaiting) {
				continue
			}
			if e.Status == StatusFailed || e.Status == StatusStreaming {
				pending = nil
				continue
			}
			if pending != nil {
				prompt(pending)
			}
			out = append(out, assistantParam(e))
			pending, awaiting = nil, hasToolUse(out[len(out)-1])
		case KindTool:
			if !awaiting || len(e.ToolResults) == 0 {
				continue
			}
			out = answerCalls(out, func(id string) (api.ContentBlock, bool) {
				for _, r := range e.ToolResults {
					if r.ToolUseID == id {
						return r.block(read), true
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
	return out
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

// ToolResult is the result of one tool call, as shown and as sent back.
type ToolResult struct {
	ToolUseID string `json:"tool_use_id"`
	Name      string `json:"name"`
	// Server names the MCP server of the tool, "" for a command.
	Server string `json:"server,omitempty"`
	// Output is what the tool printed (capped), or what the user typed.
	Output  string `json:"output"`
	IsError bool   `json:"is_error,omitempty"`
	// Approval says how the call was allowed: "yes", "always", "typed"
	// (a tool without a command), or "no" (declined: not run).
	Approval string `json:"approval,omitempty"`
	ExitCode int    `json:"exit_code,omitempty"`
	// DurationMS is how long the command ran.
	DurationMS int64 `json:"duration_ms,omitempty"`
	// Images are the images of an MCP tool's result, sent after Output.
	// Their bytes are stored as a prompt's attachments are, once per
	// session (Writer.SaveAttachment), and not in the journal.
	Images []Attachment `json:"images,omitempty"`
	// Content holds image blocks sent after Output, with their bytes in
	// base64, as journals written before Images kept them; muse reads it
	// and no longer writes it.
	Content []api.ContentBlock `json:"content,omitempty"`
}

// block is the tool_result content block sent back for r: Output as the
// content, or, with images, a text block of Output followed by them, each
// read with read (as a prompt's attachments are).
func (r ToolResult) block(read AttachmentReader) api.ContentBlock {
	content, _ := json.Marshal(r.Output)
	if len(r.Content) > 0 || len(r.Images) > 0 {
		blocks := make([]api.ContentBlock, 0, 1+len(r.Content)+len(r.Images))
		if r.Output != "" {
			blocks = append(blocks, api.ContentBlock{Type: api.BlockText, Text: r.Output})
		}
		blocks = append(blocks, r.Content...)
		for _, a := range r.Images {
			blocks = append(blocks, a.sendBlock(read))
		}
		content, _ = json.Marshal(blocks)
	}
	return api.ContentBlock{Type: api.BlockToolResult, ToolUseID: r.ToolUseID, ResultContent: content, IsError: r.IsError}
}

// Files returns the attachments of e whose bytes the session stores: a
// prompt's files, and the images of tool results.
func (e *Entry) Files() []Attachment {
	n := len(e.Attachments)
	for _, r := range e.ToolResults {
		n += len(r.Images)
	}
	if n == len(e.Attachments) {
		return e.Attachments
	}
	files := make([]Attachment, 0, n)
	files = append(files, e.Attachments...)
	for _, r := range e.ToolResults {
		files = append(files, r.Images...)
	}
	return files
}

// hasContent says whether e leaves anything to send back: a block the API
// accepts that is more than thinking. It asks the same question as
// assistantParam, so an entry it keeps is never sent as an empty message
// (an unsigned thinking block cut off by esc counted here once, and was then
// dropped there: every later request was refused).
func hasContent(e *Entry) bool {
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
func sendable(e *Entry) []api.ContentBlock {
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
func assistantParam(e *Entry) api.MessageParam {
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

// Request builds a message request with these settings, offering tools.
func (p Params) Request(msgs []api.MessageParam, tools []api.Tool) api.MessageRequest {
	req := api.MessageRequest{
		Model: p.Model, Messages: msgs, MaxTokens: p.MaxTokens, System: p.System,
		Temperature: p.Temperature, TopP: p.TopP, TopK: p.TopK, StopSequences: p.StopSequences,
	}
	if p.Cite {
		req.Messages = citing(msgs)
	}
	switch {
	case p.Thinking == api.ThinkingAdaptive:
		req.Thinking = &api.Thinking{Type: api.ThinkingAdaptive}
	case p.ThinkingBudget > 0:
		req.Thinking = &api.Thinking{Type: api.ThinkingEnabled, BudgetTokens: p.ThinkingBudget}
	}
	if p.Effort != "" {
		req.OutputConfig = &api.OutputConfig{Effort: p.Effort}
	}
	if p.UserID != "" {
		req.Metadata = &api.Metadata{UserID: p.UserID}
	}
	if len(tools) > 0 {
		req.Tools = tools
		switch p.ToolChoice {
		case "":
		case "auto", "any", "none":
			req.ToolChoice = &api.ToolChoice{Type: p.ToolChoice}
		default:
			req.ToolChoice = &api.ToolChoice{Type: "tool", Name: p.ToolChoice}
		}
	}
	return req
}

// citing returns msgs with every document block asking for citations; the
// messages and blocks of msgs are not changed.
func citing(msgs []api.MessageParam) []api.MessageParam {
	out := slices.Clone(msgs)
	for i, m := range out {
		if !slices.ContainsFunc(m.Blocks, func(b api.ContentBlock) bool { return b.Type == api.BlockDocument }) {
			continue
		}
		blocks := make([]api.ContentBlock, len(m.Blocks))
		for j, b := range m.Blocks {
			blocks[j] = api.WithCitations(b)
		}
		out[i].Blocks = blocks
	}
	return out
}

// Request builds an image request for prompt; only the parameters that are
// set are sent.
func (ip ImageParams) Request(prompt string) api.ImageRequest {
	var params *api.ImageParameters
	if ip.Size != "" || ip.NegativePrompt != "" || ip.PromptExtend != nil || ip.Watermark != nil {
		params = &api.ImageParameters{Size: ip.Size, PromptExtend: ip.PromptExtend, Watermark: ip.Watermark}
		if ip.NegativePrompt != "" {
			params.NegativePrompt = api.String(ip.NegativePrompt)
		}
	}
	return api.NewImageRequest(ip.Model, prompt, params)
}

// ErrorEntry describes a failed request as an error entry: the server's
// error with its request id, or a timeout, a cut stream or a connection
// failure, each with a hint of what to do.
func ErrorEntry(err error) Entry {
	e := Entry{Kind: KindError}
	var apiErr *api.APIError
	switch {
	case errors.As(err, &apiErr):
		e.Error = &ErrorInfo{Status: apiErr.Status, Type: apiErr.Type, Message: apiErr.Message, Hint: apiErr.Hint()}
		e.RequestID = apiErr.RequestID
	case errors.Is(err, api.ErrIdleTimeout), errors.Is(err, api.ErrHeaderTimeout), errors.Is(err, api.ErrStalled), errors.Is(err, api.ErrRequestTimeout):
		e.Error = &ErrorInfo{Type: "timeout", Message: err.Error(), Hint: "/retry, or check the server"}
	case errors.Is(err, api.ErrStreamCut):
		e.Error = &ErrorInfo{Type: "stream_cut", Message: err.Error(), Hint: "/retry"}
	default:
		e.Error = &ErrorInfo{Type: "connection", Message: err.Error(), Hint: "check MUSE_BASE_URL and the network, then /retry"}
	}
	return e
}
