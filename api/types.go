package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
)

// Roles used in message requests.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
)

// Content block types the client understands. Any other type is kept as raw JSON.
const (
	BlockText       = "text"
	BlockThinking   = "thinking"
	BlockToolUse    = "tool_use"
	BlockToolResult = "tool_result"
	// BlockImage is an image sent in a user message (see ImageBlock).
	BlockImage = "image"
	// BlockDocument is a document sent in a user message, such as a PDF
	// (see DocumentBlock).
	BlockDocument = "document"
)

// Source types of image and document blocks.
const (
	SourceBase64 = "base64"
	SourceText   = "text"
	SourceURL    = "url"
)

// Stop reasons named by the interface document. Servers may send others; they are kept as strings.
const (
	StopEndTurn   = "end_turn"
	StopMaxTokens = "max_tokens"
	StopSequence  = "stop_sequence"
	StopToolUse   = "tool_use"
	// StopPauseTurn is a long turn the server paused (as while its own
	// tools run): sent back as it is, with no new prompt, it goes on.
	StopPauseTurn = "pause_turn"
	// StopSizeLimit is muse's own: a reply cut at its size limit (see
	// MaxReplySize). The server never sends it.
	StopSizeLimit    = "size_limit"
	DefaultVersion   = "2023-06-01"
	DefaultMaxTokens = 4096
)

// MessageRequest is the body of POST /v1/messages. Pointer fields are optional:
// nil is omitted, and a set value (even zero) is sent.
type MessageRequest struct {
	Model         string         `json:"model"`
	Messages      []MessageParam `json:"messages"`
	MaxTokens     int            `json:"max_tokens"`
	System        string         `json:"system,omitempty"`
	Temperature   *float64       `json:"temperature,omitempty"`
	TopP          *float64       `json:"top_p,omitempty"`
	TopK          *int           `json:"top_k,omitempty"`
	Stream        bool           `json:"stream"`
	StopSequences []string       `json:"stop_sequences,omitempty"`
	Tools         []Tool         `json:"tools,omitempty"`
	ToolChoice    *ToolChoice    `json:"tool_choice,omitempty"`
	Thinking      *Thinking      `json:"thinking,omitempty"`
	OutputConfig  *OutputConfig  `json:"output_config,omitempty"`
	Metadata      *Metadata      `json:"metadata,omitempty"`
}

// MessageParam is one turn of the conversation sent to the server. A turn with
// only Text is sent with content as a plain string, as the interface document
// shows; a turn with Blocks is sent as an array of content blocks.
type MessageParam struct {
	Role   string
	Text   string
	Blocks []ContentBlock
}

// TextMessage returns a plain-text turn for role.
func TextMessage(role, text string) MessageParam {
	return MessageParam{Role: role, Text: text}
}

// IsEmpty reports whether the turn carries no content.
func (p MessageParam) IsEmpty() bool {
	return len(p.Blocks) == 0 && p.Text == ""
}

// MarshalJSON sends content as a string for plain turns and as blocks otherwise.
func (p MessageParam) MarshalJSON() ([]byte, error) {
	if len(p.Blocks) > 0 {
		return json.Marshal(struct {
			Role    string         `json:"role"`
			Content []ContentBlock `json:"content"`
		}{p.Role, p.Blocks})
	}
	return json.Marshal(struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	}{p.Role, p.Text})
}

// UnmarshalJSON accepts content as a string or as an array of blocks.
func (p *MessageParam) UnmarshalJSON(data []byte) error {
	var raw struct {
		Role    string          `json:"role"`
		Content json.RawMessage `json:"content"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	*p = MessageParam{Role: raw.Role}
	c := bytes.TrimSpace(raw.Content)
	switch {
	case len(c) == 0 || bytes.Equal(c, []byte("null")):
		return nil
	case c[0] == '"':
		return json.Unmarshal(c, &p.Text)
	case c[0] == '[':
		return json.Unmarshal(c, &p.Blocks)
	default:
		return fmt.Errorf("message content must be a string or an array, got %.20s", c)
	}
}

// Tool is a tool definition offered to the model.
type Tool struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	InputSchema json.RawMessage `json:"input_schema"`
}

// MarshalJSON sends a tool without InputSchema (or with a null one) with the
// schema {"type":"object"}, which the interface requires, rather than null.
func (t Tool) MarshalJSON() ([]byte, error) {
	type wire Tool // without the method
	w := wire(t)
	if s := bytes.TrimSpace(w.InputSchema); len(s) == 0 || bytes.Equal(s, []byte("null")) {
		w.InputSchema = json.RawMessage(`{"type":"object"}`)
	}
	return json.Marshal(w)
}

// ToolChoice tells the model how to use the tools (type "auto", "any", "tool" or "none").
type ToolChoice struct {
	Type string `json:"type"`
	Name string `json:"name,omitempty"`
}

// Thinking turns extended thinking on: ThinkingEnabled with a token budget,
// the form older models need, or ThinkingAdaptive, where the model decides
// how much to think (guided by OutputConfig's effort), the form current
// Claude models require.
type Thinking struct {
	Type         string `json:"type"`
	BudgetTokens int    `json:"budget_tokens,omitempty"`
}

// The types of Thinking.
const (
	ThinkingEnabled  = "enabled"
	ThinkingAdaptive = "adaptive"
)

// OutputConfig guides how much effort the model spends on a reply, its
// thinking included: Effort is one of Efforts.
type OutputConfig struct {
	Effort string `json:"effort,omitempty"`
}

// Efforts are the values of OutputConfig.Effort, least first.
var Efforts = []string{"low", "medium", "high", "max"}

// Metadata carries request metadata.
type Metadata struct {
	UserID string `json:"user_id,omitempty"`
}

// Message is an assistant message, as returned by the server or assembled from a stream.
type Message struct {
	ID           string         `json:"id"`
	Type         string         `json:"type"`
	Role         string         `json:"role"`
	Model        string         `json:"model"`
	Content      []ContentBlock `json:"content"`
	StopReason   string         `json:"stop_reason,omitempty"`
	StopSequence string         `json:"stop_sequence,omitempty"`
	Usage        Usage          `json:"usage,omitzero"`

	// Extra holds, as raw JSON, the fields the server sent that Message has
	// no Go field for (such as "container" or "stop_details"), and known
	// fields it sent as null (such as "stop_sequence"). MarshalJSON writes
	// them back after the known fields; a set Go field wins over an entry of
	// the same name. Values are never modified in place.
	Extra map[string]json.RawMessage `json:"-"`
}

// messageKeys are the JSON names of Message's Go fields.
var messageKeys = []string{"id", "type", "role", "model", "content", "stop_reason", "stop_sequence", "usage"}

// messageWire is Message without its methods, for encoding/json.
type messageWire Message

// MarshalJSON writes the message with its Extra fields.
func (m Message) MarshalJSON() ([]byte, error) {
	b, err := json.Marshal(messageWire(m))
	if err != nil {
		return nil, err
	}
	return appendExtra(b, m.Extra, func(k string) bool {
		switch k {
		case "stop_reason":
			return m.StopReason != ""
		case "stop_sequence":
			return m.StopSequence != ""
		}
		return slices.Contains(messageKeys, k)
	})
}

// UnmarshalJSON reads a message, keeping unknown fields in Extra.
func (m *Message) UnmarshalJSON(data []byte) error {
	return decodeExtra(data, messageKeys, func(w messageWire, extra map[string]json.RawMessage) {
		*m = Message(w)
		m.Extra = extra
		if !hasKey(data, "usage") {
			m.Usage.unsent = allUnsent
		}
	})
}

// Text returns the concatenated text of the message's text blocks.
func (m Message) Text() string {
	var b bytes.Buffer
	for _, c := range m.Content {
		if c.Type == BlockText {
			b.WriteString(c.Text)
		}
	}
	return b.String()
}

// Clone returns a copy of m that shares no mutable state with it.
func (m Message) Clone() Message {
	m.Content = append([]ContentBlock(nil), m.Content...)
	for i := range m.Content {
		m.Content[i].Extra = cloneExtra(m.Content[i].Extra)
		if src := m.Content[i].Source; src != nil {
			c := *src
			m.Content[i].Source = &c
		}
	}
	m.Extra = cloneExtra(m.Extra)
	m.Usage.Extra = cloneExtra(m.Usage.Extra)
	return m
}

// Usage counts the tokens of a request.
type Usage struct {
	InputTokens              int `json:"input_tokens"`
	OutputTokens             int `json:"output_tokens"`
	CacheCreationInputTokens int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int `json:"cache_read_input_tokens"`

	// Extra holds, as raw JSON, the fields the server sent that Usage has no
	// Go field for (such as "cache_creation", "service_tier" or
	// "server_tool_use"), and counters it sent as null. MarshalJSON writes
	// them back after the counters.
	Extra map[string]json.RawMessage `json:"-"`

	// unsent marks the counters the server did not send, bit i for
	// usageKeys[i]: MarshalJSON leaves out such a counter while it is 0,
	// rather than invent a value. A Usage made in Go has none.
	unsent uint8
}

// usageKeys are the JSON names of Usage's and UsageDelta's counters.
var usageKeys = []string{"input_tokens", "output_tokens", "cache_creation_input_tokens", "cache_read_input_tokens"}

// allUnsent marks every counter unsent.
const allUnsent = 1<<4 - 1

// counters returns the counters of u, in the order of usageKeys.
func (u *Usage) counters() [4]*int {
	return [4]*int{&u.InputTokens, &u.OutputTokens, &u.CacheCreationInputTokens, &u.CacheReadInputTokens}
}

// written reports whether MarshalJSON writes counter i.
func (u Usage) written(i int) bool {
	return u.unsent&(1<<i) == 0 || *u.counters()[i] != 0
}

// set sets counter i to v when the server sent it (v not nil).
func (u *Usage) set(i int, v *int) {
	if v != nil {
		*u.counters()[i] = *v
		u.unsent &^= 1 << i
	}
}

// IsZero reports whether u holds nothing the server sent: no counter and
// no other field. A message's usage the server did not send is left out.
func (u Usage) IsZero() bool {
	if u.unsent != allUnsent || len(u.Extra) > 0 {
		return false
	}
	for _, c := range u.counters() {
		if *c != 0 {
			return false
		}
	}
	return true
}

// MarshalJSON writes the counters the server sent (or that were set since),
// and the Extra fields.
func (u Usage) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, k := range usageKeys {
		if !u.written(i) {
			continue
		}
		if len(b) > 1 {
			b = append(b, ',')
		}
		b = append(append(append(b, '"'), k...), '"', ':')
		b = strconv.AppendInt(b, int64(*u.counters()[i]), 10)
	}
	b = append(b, '}')
	return appendExtra(b, u.Extra, func(k string) bool {
		i := slices.Index(usageKeys, k)
		return i >= 0 && u.written(i)
	})
}

// UnmarshalJSON reads a usage object, keeping unknown fields in Extra and
// noting the counters it lacks.
func (u *Usage) UnmarshalJSON(data []byte) error {
	return decodeExtra(data, usageKeys, func(w usageDeltaWire, extra map[string]json.RawMessage) {
		*u = Usage{Extra: extra}
		for i, v := range [4]*int{w.InputTokens, w.OutputTokens, w.CacheCreationInputTokens, w.CacheReadInputTokens} {
			if v == nil {
				u.unsent |= 1 << i
			}
			u.set(i, v)
		}
	})
}

// ContentBlock is one item of a message's content. Known types fill their
// fields, and keep the fields they have no Go field for in Extra; a block of
// any other type keeps its original JSON in Raw. Both are sent back unchanged.
type ContentBlock struct {
	Type string

	// Text is the text of a "text" block.
	Text string
	// Thinking and Signature belong to a "thinking" block.
	Thinking  string
	Signature string
	// ID, Name and Input belong to a "tool_use" block.
	ID    string
	Name  string
	Input json.RawMessage
	// Truncated marks a tool_use block whose input never finished (for example
	// max_tokens was hit inside it). Such a call must never be run. PartialInput
	// then holds the raw fragments as they arrived.
	Truncated    bool
	PartialInput string
	// ToolUseID, ResultContent and IsError belong to a "tool_result" block.
	ToolUseID     string
	ResultContent json.RawMessage
	IsError       bool
	// Source is the data of an "image" or "document" block; Title names a
	// document.
	Source *Source
	Title  string

	// Raw is the original JSON of a block whose type this client does not know.
	Raw json.RawMessage
	// Extra holds, as raw JSON, the fields of a block of a known type that
	// the block has no Go field for (such as a text block's "citations"), and
	// known fields sent as null. MarshalJSON writes them back after the known
	// fields; a set Go field wins over an entry of the same name.
	Extra map[string]json.RawMessage
}

type textWire struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type thinkingWire struct {
	Type      string `json:"type"`
	Thinking  string `json:"thinking"`
	Signature string `json:"signature,omitempty"`
}

type toolUseWire struct {
	Type  string          `json:"type"`
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

type sourceWire struct {
	Type   string  `json:"type"`
	Source *Source `json:"source"`
}

type documentWire struct {
	Type   string  `json:"type"`
	Source *Source `json:"source"`
	Title  string  `json:"title,omitempty"`
}

type toolResultWire struct {
	Type      string          `json:"type"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content,omitempty"`
	IsError   bool            `json:"is_error,omitempty"`
}

// blockKeys are the JSON names of the Go fields of each known block type.
var blockKeys = map[string][]string{
	BlockText:       {"type", "text"},
	BlockThinking:   {"type", "thinking", "signature"},
	BlockToolUse:    {"type", "id", "name", "input"},
	BlockToolResult: {"type", "tool_use_id", "content", "is_error"},
	BlockImage:      {"type", "source"},
	BlockDocument:   {"type", "source", "title"},
}

// MarshalJSON writes the block in Anthropic's wire shape, with its Extra fields.
func (b ContentBlock) MarshalJSON() ([]byte, error) {
	var v any
	written := func(k string) bool { return slices.Contains(blockKeys[b.Type], k) }
	switch b.Type {
	case BlockText:
		v = textWire{b.Type, b.Text}
	case BlockThinking:
		v = thinkingWire{b.Type, b.Thinking, b.Signature}
		written = func(k string) bool {
			return k == "type" || k == "thinking" || (k == "signature" && b.Signature != "")
		}
	case BlockToolUse:
		in := b.Input
		if len(in) == 0 {
			in = json.RawMessage("{}")
		}
		v = toolUseWire{b.Type, b.ID, b.Name, in}
	case BlockToolResult:
		v = toolResultWire{b.Type, b.ToolUseID, b.ResultContent, b.IsError}
		written = func(k string) bool {
			return k == "type" || k == "tool_use_id" || (k == "content" && len(b.ResultContent) > 0) ||
				(k == "is_error" && b.IsError)
		}
	case BlockImage:
		v = sourceWire{b.Type, b.Source}
	case BlockDocument:
		v = documentWire{b.Type, b.Source, b.Title}
		written = func(k string) bool {
			return k == "type" || k == "source" || (k == "title" && b.Title != "")
		}
	default:
		if len(b.Raw) > 0 {
			return b.Raw, nil
		}
		return json.Marshal(struct {
			Type string `json:"type"`
		}{b.Type})
	}
	out, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	return appendExtra(out, b.Extra, written)
}

// UnmarshalJSON reads a block of any type; unknown types keep their raw JSON,
// and unknown fields of known types are kept in Extra.
func (b *ContentBlock) UnmarshalJSON(data []byte) error {
	// One decode into the union of the known types' fields: a journal holds
	// thousands of blocks, and each decode of encoding/json rescans them.
	var w blockWire
	if err := json.Unmarshal(data, &w); err != nil {
		var head struct {
			Type string `json:"type"`
		}
		if herr := json.Unmarshal(data, &head); herr != nil {
			return herr
		}
		if _, known := blockKeys[head.Type]; known {
			return err
		}
		w = blockWire{Type: head.Type} // another type's fields may be anything
	}
	*b = ContentBlock{Type: w.Type}
	switch w.Type {
	case BlockText:
		b.Text = w.Text
	case BlockThinking:
		b.Thinking, b.Signature = w.Thinking, w.Signature
	case BlockToolUse:
		b.ID, b.Name, b.Input = w.ID, w.Name, w.Input
	case BlockToolResult:
		b.ToolUseID, b.ResultContent, b.IsError = w.ToolUseID, w.Content, w.IsError
	case BlockImage, BlockDocument:
		b.Source, b.Title = w.Source, w.Title
	default:
		b.Raw = append(json.RawMessage(nil), data...)
		return nil
	}
	extra, err := splitExtra(data, blockKeys[w.Type])
	if err != nil {
		return err
	}
	b.Extra = extra
	return nil
}

// setField sets the field k, one without a Go field, to v: in Extra, or in
// Raw for a block of a type muse does not know, where it replaces the
// field of that name in place or, when there is none, comes last. The
// rest of Raw stays as it was.
func (b *ContentBlock) setField(k string, v json.RawMessage) {
	if b.Raw == nil {
		if b.Extra == nil {
			b.Extra = make(map[string]json.RawMessage)
		}
		b.Extra[k] = v
		return
	}
	obj := bytes.TrimSpace(b.Raw)
	out := make([]byte, 0, len(obj)+len(k)+len(v)+4)
	out = append(out, '{')
	found := false
	err := eachField(obj, func(key string, old []byte) {
		if len(out) > 1 {
			out = append(out, ',')
		}
		name, _ := json.Marshal(key)
		out = append(append(out, name...), ':')
		if key == k && !found {
			found = true
			old = v
		}
		out = append(out, old...)
	})
	if err != nil || len(obj) == 0 || obj[0] != '{' {
		return // not an object: nothing to set a field of
	}
	if !found {
		if len(out) > 1 {
			out = append(out, ',')
		}
		name, _ := json.Marshal(k)
		out = append(append(append(out, name...), ':'), v...)
	}
	b.Raw = append(out, '}')
}

// blockWire holds the fields of every content block type muse knows.
type blockWire struct {
	Type      string          `json:"type"`
	Text      string          `json:"text"`
	Thinking  string          `json:"thinking"`
	Signature string          `json:"signature"`
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
	ToolUseID string          `json:"tool_use_id"`
	Content   json.RawMessage `json:"content"`
	IsError   bool            `json:"is_error"`
	Source    *Source         `json:"source"`
	Title     string          `json:"title"`
}

// ImageRequest is the body of POST /v1/images/generations.
type ImageRequest struct {
	Model      string           `json:"model"`
	Input      ImageInput       `json:"input"`
	Parameters *ImageParameters `json:"parameters,omitempty"`
}

// NewImageRequest builds an image request for one prompt. params may be nil.
func NewImageRequest(model, prompt string, params *ImageParameters) ImageRequest {
	return ImageRequest{
		Model: model,
		Input: ImageInput{Messages: []ImageMessage{{
			Role:    RoleUser,
			Content: []ImageContent{{Text: prompt}},
		}}},
		Parameters: params,
	}
}

// Prompt returns the concatenated prompt text of the request.
func (r *ImageRequest) Prompt() string {
	var b bytes.Buffer
	for _, m := range r.Input.Messages {
		for _, c := range m.Content {
			if b.Len() > 0 && c.Text != "" {
				b.WriteByte('\n')
			}
			b.WriteString(c.Text)
		}
	}
	return b.String()
}

// ImageInput holds the prompt messages of an image request.
type ImageInput struct {
	Messages []ImageMessage `json:"messages"`
}

// ImageMessage is one prompt message of an image request.
type ImageMessage struct {
	Role    string         `json:"role"`
	Content []ImageContent `json:"content"`
}

// ImageContent is one piece of prompt text.
type ImageContent struct {
	Text string `json:"text"`
}

// ImageParameters are the optional settings of an image request. Nil fields are omitted.
type ImageParameters struct {
	NegativePrompt *string `json:"negative_prompt,omitempty"`
	PromptExtend   *bool   `json:"prompt_extend,omitempty"`
	Watermark      *bool   `json:"watermark,omitempty"`
	Size           string  `json:"size,omitempty"`
}

// ImageResult is the response of an image request.
type ImageResult struct {
	Created int64       `json:"created"`
	Data    []ImageData `json:"data"`
	// Dropped counts the images the server sent past MaxImages, which
	// were left out; it is not part of the wire.
	Dropped int `json:"-"`
}

// ImageData is one generated image, given as a URL or as base64 data.
type ImageData struct {
	URL           string `json:"url,omitempty"`
	B64JSON       string `json:"b64_json,omitempty"`
	RevisedPrompt string `json:"revised_prompt,omitempty"`
	// Error says why the server failed this image, when it did: a
	// DashScope task that succeeds for some images and fails for others
	// gives the others a code and message in place of a URL.
	Error string `json:"error,omitempty"`
}

// Float returns a pointer to v, for optional request fields.
func Float(v float64) *float64 { return &v }

// Int returns a pointer to v, for optional request fields.
func Int(v int) *int { return &v }

// Bool returns a pointer to v, for optional request fields.
func Bool(v bool) *bool { return &v }

// String returns a pointer to v, for optional request fields.
func String(v string) *string { return &v }
