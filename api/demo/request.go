package demo

import (
	"encoding/json"
	"fmt"
	"maps"
	"net/http"
	"slices"
	"strings"

	"muse/api"
)

// requestFields are the top-level fields of a message request that the demo
// accepts: those of the interface document, output_config (the effort of
// adaptive thinking), and service_tier, which it ignores. Like the real
// service, it refuses any other.
var requestFields = map[string]bool{
	"model": true, "messages": true, "max_tokens": true, "system": true, "temperature": true,
	"top_p": true, "top_k": true, "stream": true, "stop_sequences": true, "tools": true,
	"tool_choice": true, "thinking": true, "output_config": true, "metadata": true, "service_tier": true,
}

// messageRequestWire is a message request as it arrives: system is a string
// or an array of text blocks, as the official SDKs send it.
type messageRequestWire struct {
	api.MessageRequest
	System json.RawMessage `json:"system"`
}

// messageRequest checks the key and the version header of a request to
// /v1/messages or its count_tokens, and reads its body. On failure it has
// answered and returns false.
func (h *handler) messageRequest(w http.ResponseWriter, r *http.Request) (api.MessageRequest, bool) {
	var req api.MessageRequest
	ok := h.checkMessageAuth(w, r) && checkVersion(w, r) && decodeMessageRequest(w, r, &req)
	return req, ok
}

// decodeMessageRequest reads the body of POST /v1/messages. It refuses an
// unknown top-level field and turns a system prompt given as text blocks
// into one string. On failure it has answered 400 and returns false.
func decodeMessageRequest(w http.ResponseWriter, r *http.Request, req *api.MessageRequest) bool {
	var raw json.RawMessage
	if !decodeBody(w, r, &raw) {
		return false
	}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil {
		writeError(w, http.StatusBadRequest, errInvalidRequest, "invalid JSON body: "+describeJSONError(err))
		return false
	}
	for _, k := range slices.Sorted(maps.Keys(fields)) {
		if !requestFields[k] {
			writeError(w, http.StatusBadRequest, errInvalidRequest, k+": Extra inputs are not permitted")
			return false
		}
	}
	var wire messageRequestWire
	if err := json.Unmarshal(raw, &wire); err != nil {
		writeError(w, http.StatusBadRequest, errInvalidRequest, "invalid JSON body: "+describeJSONError(err))
		return false
	}
	system, msg := systemText(wire.System)
	if msg != "" {
		writeError(w, http.StatusBadRequest, errInvalidRequest, msg)
		return false
	}
	*req = wire.MessageRequest
	req.System = system
	return true
}

// systemText returns the text of a system prompt given as a string or as an
// array of text blocks (joined by newlines), or a message naming what is
// wrong with it.
func systemText(raw json.RawMessage) (string, string) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", ""
	}
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s, ""
	}
	var blocks []struct {
		Type string  `json:"type"`
		Text *string `json:"text"`
	}
	if err := json.Unmarshal(raw, &blocks); err != nil {
		return "", "system: must be a string or an array of text blocks"
	}
	texts := make([]string, 0, len(blocks))
	for i, b := range blocks {
		if b.Type != api.BlockText {
			return "", fmt.Sprintf("system.%d.type: must be \"text\", got %q", i, b.Type)
		}
		if b.Text == nil {
			return "", fmt.Sprintf("system.%d.text: required", i)
		}
		texts = append(texts, *b.Text)
	}
	return strings.Join(texts, "\n"), ""
}
