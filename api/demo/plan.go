package demo

import (
	"encoding/json"
	"fmt"
	"strings"

	"muse/api"
)

// Scenario keywords of the message endpoint, matched case-sensitively
// anywhere in the last user prompt.
const (
	kwThink      = "demo:think"
	kwTool       = "demo:tool"
	kwMCP        = "demo:mcp"
	kwError      = "demo:error"
	kwOverloaded = "demo:overloaded"
	kwRateLimit  = "demo:ratelimit"
	kwHTML       = "demo:html"
	kwLong       = "demo:long"
	kwHostile    = "demo:hostile"
	kwSlow       = "demo:slow"
	// kwRounds, with demo:tool or demo:mcp, calls the tool again after each
	// result until N rounds are done: demo:rounds:N, for tests of long tool
	// turns. It is left out of Keywords.
	kwRounds = "demo:rounds:"
	// kwWidths answers with a table and a code block holding the clusters
	// terminals draw at different widths (👍🏽, 🇫🇷, 👨‍👩‍👧, n with a
	// combining tilde), to check a terminal's alignment. It is left out of
	// Keywords.
	kwWidths = "demo:widths"
)

// Keywords lists the scenario words a prompt can hold, for a screen to
// offer: those of the message endpoint, and those of the image endpoint.
func Keywords() (messages, images []string) {
	messages = []string{kwLong, kwThink, kwTool, kwMCP, kwError, kwOverloaded, kwRateLimit, kwHTML, kwHostile, kwSlow}
	images = []string{kwURL, kwMixed, kwTwo, kwBadB64, kwHuge, kw404, kwHostile, kwSlow}
	return messages, images
}

// errorAfter is how many text deltas demo:error sends before failing.
const errorAfter = 5

// userTurn is what the reply is built from: the last user message.
type userTurn struct {
	prompt        string             // its text (text blocks joined by newlines), less the files
	hasToolResult bool               // it carries a tool_result block
	toolResult    string             // text of its first tool_result block
	attachments   []api.ContentBlock // its images, documents and text files (see isAttachment)
}

func (t userTurn) has(keyword string) bool { return strings.Contains(t.prompt, keyword) }

// lastUserTurn finds the last user message of msgs.
func lastUserTurn(msgs []api.MessageParam) userTurn {
	for i := len(msgs) - 1; i >= 0; i-- {
		m := msgs[i]
		if m.Role != api.RoleUser {
			continue
		}
		if len(m.Blocks) == 0 {
			return userTurn{prompt: m.Text}
		}
		var t userTurn
		var texts []string
		for _, b := range m.Blocks {
			switch {
			case isAttachment(&b):
				t.attachments = append(t.attachments, b)
			case b.Type == api.BlockText:
				texts = append(texts, b.Text)
			case b.Type == api.BlockToolResult:
				if !t.hasToolResult {
					t.hasToolResult = true
					t.toolResult = resultText(b.ResultContent)
				}
			}
		}
		t.prompt = strings.Join(texts, "\n")
		return t
	}
	return userTurn{}
}

// assistantPrefill is the text of a final assistant message, which the reply
// continues; "" when the conversation ends with the user.
func assistantPrefill(msgs []api.MessageParam) string {
	if len(msgs) == 0 || msgs[len(msgs)-1].Role != api.RoleAssistant {
		return ""
	}
	m := msgs[len(msgs)-1]
	if len(m.Blocks) == 0 {
		return m.Text
	}
	var b strings.Builder
	for _, c := range m.Blocks {
		if c.Type == api.BlockText {
			b.WriteString(c.Text)
		}
	}
	return b.String()
}

// resultText is the text of a tool_result's content: a string, or an array
// of blocks whose text parts are joined; anything else is shown as JSON.
func resultText(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	var blocks []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	if json.Unmarshal(raw, &blocks) == nil {
		var parts []string
		for _, b := range blocks {
			if b.Type == api.BlockText {
				parts = append(parts, b.Text)
			}
		}
		return strings.Join(parts, "\n")
	}
	return string(raw)
}

// pdfPageTokens is what the demo counts for a page of a PDF: the low end
// of what the service's documentation gives (1,500 to 3,000 a page).
const pdfPageTokens = 1500

// inputTokens counts the words of the system prompt and of every message,
// a text document's included, pdfPageTokens for each page of a PDF, and
// each image as the service counts it (imageTokens).
func inputTokens(req *api.MessageRequest) int {
	n := countWords(req.System)
	for _, m := range req.Messages {
		n += countWords(m.Text)
		for _, b := range m.Blocks {
			n += countWords(b.Text) + countWords(b.Thinking) + countWords(string(b.Input)) +
				countWords(resultText(b.ResultContent)) + documentTokens(&b) + imageTokens(&b)
		}
	}
	return n
}

// documentTokens counts a document block: its title and its text's words,
// or its pages when it is a PDF (counted once, see api.PagesOf).
func documentTokens(b *api.ContentBlock) int {
	if b.Type != api.BlockDocument || b.Source == nil {
		return 0
	}
	switch b.Source.Type {
	case api.SourceText:
		return countWords(b.Title) + countWords(b.Source.Data)
	case api.SourceBase64:
		return countWords(b.Title) + pdfPageTokens*api.PagesOf(b.Source)
	}
	return 0
}

// messageID is a deterministic id for the reply to req.
func messageID(req *api.MessageRequest) string {
	conv, _ := marshal(req.Messages)
	return fmt.Sprintf("msg_demo_%016x", hashString(req.Model+"\x00"+req.System+"\x00"+string(conv)))
}

// planBlock is one content block of a reply, cut into its deltas.
type planBlock struct {
	start     api.ContentBlock  // the content_block_start shape
	deltas    []string          // text, thinking or partial_json fragments; one token each
	signature string            // thinking only: sent once the thinking is complete
	complete  bool              // every delta fits in max_tokens
	citations []json.RawMessage // text only: sent before its text, as citations_delta
}

// plan is a whole reply, shared by the streaming and non-streaming paths so
// both give the same content.
type plan struct {
	blocks       []planBlock
	stopReason   string
	stopSequence string
	failAfter    int // text deltas before a stream error; 0 means none
	outputTokens int
}

// buildPlan composes the reply to req and cuts it to max_tokens.
func (h *handler) buildPlan(req *api.MessageRequest, turn userTurn) *plan {
	p := &plan{stopReason: api.StopEndTurn}
	if turn.has(kwThink) || (req.Thinking != nil && (req.Thinking.Type == "enabled" || req.Thinking.Type == "adaptive")) {
		p.blocks = append(p.blocks, planBlock{
			start:     api.ContentBlock{Type: api.BlockThinking},
			deltas:    splitWords(thinkingText(turn.prompt)),
			signature: signature(turn.prompt),
		})
	}
	var text string
	var tool *planBlock
	switch {
	case turn.hasToolResult:
		text = "The tool returned: " + truncateRunes(turn.toolResult, 200)
		if prompt, done := toolRounds(req.Messages); done < roundsWanted(prompt) && !refusesTools(req) {
			// demo:rounds:N: call the tool again until N rounds are done.
			// The calls after the first come alone, with no text, as models
			// often send them.
			if _, call := h.toolCall(req, prompt); call != nil {
				text, tool = "", call
			}
		}
	case (turn.has(kwMCP) || turn.has(kwTool)) && !refusesTools(req) || forcesTool(req):
		text, tool = h.toolCall(req, turn.prompt)
	case turn.has(kwLong):
		text = longReply(turn.prompt)
	case turn.has(kwWidths):
		text = widthsReply
	case blobWanted(turn.prompt) > 0:
		text = blobReply(blobWanted(turn.prompt))
	case wordsWanted(turn.prompt) > 0:
		text = wordsReply(turn.prompt, wordsWanted(turn.prompt))
	default:
		text = normalReply(turn.prompt)
	}
	if len(turn.attachments) > 0 {
		text = describeAttachments(turn.attachments) + "\n\n" + text
	}
	if turn.has(kwHostile) {
		text += hostileText
	}
	if prefill := assistantPrefill(req.Messages); prefill != "" {
		// The request ends with the start of a reply: continue it, as the
		// real service does for a reply cut at max_tokens.
		p.blocks, tool = nil, nil
		if strings.HasPrefix(text, prefill) {
			text = text[len(prefill):]
		} else {
			text = continuation(prefill)
		}
	}
	if at, seq := firstStop(text, req.StopSequences); at >= 0 {
		text, tool = text[:at], nil
		p.stopReason, p.stopSequence = api.StopSequence, seq
	}
	if assistantPrefill(req.Messages) == "" {
		p.blocks = append(p.blocks, citedBlocks(req.Messages)...)
	}
	if text != "" || tool == nil {
		p.blocks = append(p.blocks, planBlock{
			start:  api.ContentBlock{Type: api.BlockText},
			deltas: splitWords(text),
		})
	}
	if tool != nil {
		p.blocks = append(p.blocks, *tool)
		p.stopReason = api.StopToolUse
	}
	if turn.has(kwError) {
		p.failAfter = errorAfter
	}
	p.limit(req.MaxTokens)
	return p
}

// continuation is the demo's reply to a prefill it did not write: the rest
// of that text, as the real service continues whatever the assistant turn
// begins with, never a reply from the start.
func continuation(prefill string) string {
	sep := " "
	if strings.HasSuffix(prefill, " ") || strings.HasSuffix(prefill, "\n") {
		sep = ""
	}
	return sep + "and so the demo goes on from where your text stopped."
}

// firstStop finds the earliest stop sequence in text; at is -1 if none occurs.
func firstStop(text string, seqs []string) (at int, seq string) {
	at = -1
	for _, s := range seqs {
		if s == "" {
			continue
		}
		if i := strings.Index(text, s); i >= 0 && (at < 0 || i < at) {
			at, seq = i, s
		}
	}
	return at, seq
}

// limit cuts the plan after max tokens, marking which blocks are complete.
func (p *plan) limit(max int) {
	left := max
	for i := range p.blocks {
		b := &p.blocks[i]
		if left == 0 || len(b.deltas) > left {
			keep := i
			if left > 0 {
				b.deltas = b.deltas[:left]
				keep = i + 1
			}
			p.blocks = p.blocks[:keep]
			p.stopReason, p.stopSequence = api.StopMaxTokens, ""
			left = 0
			break
		}
		left -= len(b.deltas)
		b.complete = true
	}
	p.outputTokens = max - left
}

// replyHead is a reply to req with no content yet, as message_start sends
// it: its id, model and usage.
func replyHead(id string, req *api.MessageRequest, outputTokens int) api.Message {
	return api.Message{
		ID:      id,
		Type:    "message",
		Role:    api.RoleAssistant,
		Model:   req.Model,
		Content: []api.ContentBlock{},
		Usage:   api.Usage{InputTokens: inputTokens(req), OutputTokens: outputTokens},
	}
}

// message is the non-streaming form of the plan. A tool_use block cut by
// max_tokens is left out, since its input is not valid JSON.
func (p *plan) message(id string, req *api.MessageRequest) api.Message {
	msg := replyHead(id, req, p.outputTokens)
	msg.StopReason, msg.StopSequence = p.stopReason, p.stopSequence
	for _, b := range p.blocks {
		c := b.start
		joined := strings.Join(b.deltas, "")
		switch c.Type {
		case api.BlockText:
			c.Text = joined
			if len(b.citations) > 0 {
				all, _ := json.Marshal(b.citations)
				c.Extra = map[string]json.RawMessage{"citations": all}
			}
		case api.BlockThinking:
			c.Thinking = joined
			if b.complete {
				c.Signature = b.signature
			}
		case api.BlockToolUse:
			if !b.complete {
				continue
			}
			c.Input = json.RawMessage(joined)
		}
		msg.Content = append(msg.Content, c)
	}
	return msg
}

// toolCall is the text and the tool call of a reply to prompt that calls a
// tool: an MCP tool for demo:mcp, else the one pickTool chooses. The call
// is nil, with a text saying why, when demo:mcp finds no MCP tool offered.
func (h *handler) toolCall(req *api.MessageRequest, prompt string) (string, *planBlock) {
	if strings.Contains(prompt, kwMCP) {
		name, input := mcpCall(req, strings.TrimSpace(strings.ReplaceAll(prompt, kwMCP, "")))
		if name == "" {
			return "No MCP tool is offered: muse --demo offers the demo server's unless --no-mcp is given.", nil
		}
		in, _ := json.Marshal(input)
		return fmt.Sprintf("I'll ask the MCP tool `%s`.", name), &planBlock{
			start:  api.ContentBlock{Type: api.BlockToolUse, ID: fmt.Sprintf("toolu_demo_%d", h.toolIDs.Add(1)), Name: name, Input: json.RawMessage("{}")},
			deltas: splitJSON(string(in)),
		}
	}
	name, schema := pickTool(req)
	return fmt.Sprintf("I'll call the `%s` tool to find out.", name), &planBlock{
		start:  api.ContentBlock{Type: api.BlockToolUse, ID: fmt.Sprintf("toolu_demo_%d", h.toolIDs.Add(1)), Name: name, Input: json.RawMessage("{}")},
		deltas: splitJSON(sampleInput(schema)),
	}
}

// roundsWanted returns the N of demo:rounds:N in prompt, or 0.
func roundsWanted(prompt string) int { return numberAfter(prompt, kwRounds) }

// toolRounds finds the prompt of the turn msgs end in, the text of the last
// user message that holds any, and counts the tool rounds since it: the
// assistant messages after it that call a tool.
func toolRounds(msgs []api.MessageParam) (prompt string, done int) {
	for i := len(msgs) - 1; i >= 0; i-- {
		m := msgs[i]
		if m.Role == api.RoleAssistant {
			for _, b := range m.Blocks {
				if b.Type == api.BlockToolUse {
					done++
					break
				}
			}
			continue
		}
		if len(m.Blocks) == 0 {
			return m.Text, done
		}
		var texts []string
		for _, b := range m.Blocks {
			if b.Type == api.BlockText {
				texts = append(texts, b.Text)
			}
		}
		if len(texts) > 0 {
			return strings.Join(texts, "\n"), done
		}
	}
	return "", done
}
