package api

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// Event types of Anthropic's message stream.
const (
	EventMessageStart      = "message_start"
	EventContentBlockStart = "content_block_start"
	EventContentBlockDelta = "content_block_delta"
	EventContentBlockStop  = "content_block_stop"
	EventMessageDelta      = "message_delta"
	EventMessageStop       = "message_stop"
	EventPing              = "ping"
	EventError             = "error"
)

// Delta types of content_block_delta events.
const (
	DeltaText        = "text_delta"
	DeltaThinking    = "thinking_delta"
	DeltaSignature   = "signature_delta"
	DeltaInputJSON   = "input_json_delta"
	DeltaCitations   = "citations_delta"
	maxEventTypeName = 64
)

// knownDelta reports whether the client has Go fields for the content
// delta type t.
func knownDelta(t string) bool {
	switch t {
	case DeltaText, DeltaThinking, DeltaSignature, DeltaInputJSON, DeltaCitations:
		return true
	}
	return false
}

// Event is one event of a message stream.
type Event struct {
	// Type is the event type, such as "content_block_delta".
	Type string
	// Index addresses the content block of block events.
	Index int
	// Message is the message of a message_start event.
	Message *Message
	// Block is the initial block of a content_block_start event.
	Block *ContentBlock
	// Delta holds content_block_delta and message_delta changes.
	Delta Delta
	// Usage holds the cumulative usage of a message_delta event; nil fields were not sent.
	Usage *UsageDelta
	// Error is the error of an error event.
	Error *APIError
}

// Delta is the change carried by a content_block_delta or message_delta event.
type Delta struct {
	// Type is the delta type of a content_block_delta, such as "text_delta".
	Type         string `json:"type"`
	Text         string `json:"text"`
	Thinking     string `json:"thinking"`
	Signature    string `json:"signature"`
	PartialJSON  string `json:"partial_json"`
	StopReason   string `json:"stop_reason"`
	StopSequence string `json:"stop_sequence"`
	// Citation is the citation a citations_delta adds to its text block.
	Citation json.RawMessage `json:"citation"`

	// Extra holds, as raw JSON, the fields of the delta that Delta has no Go
	// field for (such as a message_delta's "container" or "stop_details"), and
	// known fields sent as null. Those of a message_delta are set in the
	// assembled Message's Extra. A content delta of a type this client does
	// not know keeps all its fields but "type" here, and the accumulator
	// applies them to its block (see Accumulator).
	Extra map[string]json.RawMessage `json:"-"`
}

// deltaKeys are the JSON names of Delta's Go fields.
var deltaKeys = []string{"type", "text", "thinking", "signature", "partial_json", "stop_reason", "stop_sequence", "citation"}

// deltaWire is Delta without its methods, for encoding/json.
type deltaWire Delta

// UnmarshalJSON reads a delta, keeping unknown fields in Extra.
func (d *Delta) UnmarshalJSON(data []byte) error {
	if isNull(data) {
		return nil
	}
	var w deltaWire
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	known := deltaKeys
	if w.Type != "" && !knownDelta(w.Type) {
		known = []string{"type"}
	}
	extra, err := splitExtra(data, known)
	if err != nil {
		return err
	}
	*d = Delta(w)
	d.Extra = extra
	return nil
}

// UsageDelta is a usage object in which absent counters stay nil.
type UsageDelta struct {
	InputTokens              *int `json:"input_tokens"`
	OutputTokens             *int `json:"output_tokens"`
	CacheCreationInputTokens *int `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     *int `json:"cache_read_input_tokens"`

	// Extra holds, as raw JSON, the fields UsageDelta has no Go field for
	// (such as "server_tool_use"). They overwrite those of the assembled
	// Message's Usage.Extra.
	Extra map[string]json.RawMessage `json:"-"`
}

// counters returns the counters of u, in the order of usageKeys.
func (u *UsageDelta) counters() [4]*int {
	return [4]*int{u.InputTokens, u.OutputTokens, u.CacheCreationInputTokens, u.CacheReadInputTokens}
}

// counterPtrs returns where the counters of u are held, in the order of usageKeys.
func (u *UsageDelta) counterPtrs() [4]**int {
	return [4]**int{&u.InputTokens, &u.OutputTokens, &u.CacheCreationInputTokens, &u.CacheReadInputTokens}
}

// usageDeltaWire is UsageDelta without its methods, for encoding/json.
type usageDeltaWire UsageDelta

// UnmarshalJSON reads a usage object, keeping unknown fields in Extra.
func (u *UsageDelta) UnmarshalJSON(data []byte) error {
	return decodeExtra(data, usageKeys, func(w usageDeltaWire, extra map[string]json.RawMessage) {
		*u = UsageDelta(w)
		u.Extra = extra
	})
}

type eventWire struct {
	Type         string        `json:"type"`
	Index        int           `json:"index"`
	Message      *Message      `json:"message"`
	ContentBlock *ContentBlock `json:"content_block"`
	Delta        *Delta        `json:"delta"`
	Usage        *UsageDelta   `json:"usage"`
	Error        *struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
}

// parseEvent decodes the data of one server-sent event. name is the SSE event
// name; the JSON "type" wins when both are present. An "error" event whose
// data is not JSON becomes an *APIError of type "stream_error" that shows the
// start of the data.
func parseEvent(name string, data []byte) (Event, error) {
	var w eventWire
	if err := json.Unmarshal(data, &w); err != nil {
		if name == EventError {
			// An error event whose data is plain text is still the server's error.
			e := newAPIError(http.StatusOK, data, "")
			e.Type = "stream_error"
			return Event{Type: EventError, Error: e}, nil
		}
		if len(name) > maxEventTypeName {
			name = name[:maxEventTypeName]
		}
		return Event{}, fmt.Errorf("%w (%q): %w", ErrMalformedEvent, name, err)
	}
	ev := Event{Type: w.Type, Index: w.Index, Message: w.Message, Block: w.ContentBlock, Usage: w.Usage}
	if ev.Type == "" {
		ev.Type = name
	}
	if w.Delta != nil {
		ev.Delta = *w.Delta
	}
	if ev.Type == EventError {
		ev.Error = newAPIError(http.StatusOK, data, "")
		if w.Error == nil {
			ev.Error.Type = "stream_error"
		}
	}
	return ev, nil
}

// knownEvent reports whether the client handles events of type t; others are ignored.
func knownEvent(t string) bool {
	switch t {
	case EventMessageStart, EventContentBlockStart, EventContentBlockDelta, EventContentBlockStop,
		EventMessageDelta, EventMessageStop, EventPing, EventError:
		return true
	}
	return false
}
