package demo

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"slices"
	"strings"
	"time"

	"muse/api"
)

// badGatewayHTML is the body demo:html answers with, like a proxy in front
// of the service would.
const badGatewayHTML = "<html><body><h1>502 Bad Gateway</h1></body></html>"

// jsonNull is the JSON literal null.
var jsonNull = json.RawMessage("null")

// wireMessage is m as the service sends it: stop_sequence is null unless a
// stop sequence ended the reply.
func wireMessage(m api.Message) api.Message {
	if m.StopSequence == "" {
		m.Extra = map[string]json.RawMessage{"stop_sequence": jsonNull}
	}
	return m
}

// messages serves POST /v1/messages.
func (h *handler) messages(w http.ResponseWriter, r *http.Request) {
	req, ok := h.messageRequest(w, r)
	if !ok {
		return
	}
	if msg := validateMessageRequest(&req); msg != "" {
		writeError(w, http.StatusBadRequest, errInvalidRequest, msg)
		return
	}
	turn := lastUserTurn(req.Messages)
	switch {
	case turn.has(kwOverloaded):
		w.Header().Set("retry-after-ms", "50")
		writeOverloaded(w)
		return
	case turn.has(kwHTML):
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusBadGateway)
		_, _ = io.WriteString(w, badGatewayHTML)
		return
	case turn.has(kwRateLimit) && h.firstSeen(turn.prompt):
		w.Header().Set("retry-after", "1")
		writeError(w, http.StatusTooManyRequests, errRateLimit,
			"rate limit exceeded: this demo refuses the first request of each demo:ratelimit prompt; retry after 1 s")
		return
	}
	p := h.buildPlan(&req, turn)
	id := messageID(&req)
	if req.Stream {
		h.stream(w, r, id, &req, p, h.wordDelay(turn))
		return
	}
	if p.failAfter > 0 {
		writeOverloaded(w)
		return
	}
	writeJSON(w, http.StatusOK, wireMessage(p.message(id, &req)))
}

// wordDelay is the pause between streamed deltas for turn.
func (h *handler) wordDelay(turn userTurn) time.Duration {
	d := h.opts.Delay
	if turn.has(kwSlow) {
		d = max(10*d, 100*time.Millisecond)
	}
	return d
}

// firstSeen reports whether demo:ratelimit has not refused prompt before,
// and remembers it.
func (h *handler) firstSeen(prompt string) bool {
	h.rateMu.Lock()
	defer h.rateMu.Unlock()
	if h.rateSeen[prompt] {
		return false
	}
	if len(h.rateSeen) >= 4096 {
		clear(h.rateSeen)
	}
	h.rateSeen[prompt] = true
	return true
}

// validateMessageRequest checks req as the service would; it returns a
// message naming the offending field, or "".
func validateMessageRequest(req *api.MessageRequest) string {
	if strings.TrimSpace(req.Model) == "" {
		return "model: required: send a non-empty model name"
	}
	if len(req.Messages) == 0 {
		return "messages: at least one message is required"
	}
	for i, m := range req.Messages {
		if m.Role != api.RoleUser && m.Role != api.RoleAssistant {
			return fmt.Sprintf("messages.%d.role: must be \"user\" or \"assistant\", got %q", i, m.Role)
		}
		if m.IsEmpty() {
			return fmt.Sprintf("messages.%d.content: must not be empty", i)
		}
		for j, b := range m.Blocks {
			if err := b.Validate(m.Role); err != nil {
				return fmt.Sprintf("messages.%d.content.%d: %v", i, j, err)
			}
		}
	}
	if err := api.CheckMedia(req.Messages); err != nil {
		return "messages: " + err.Error()
	}
	if msg := CheckTurns(req.Messages); msg != "" {
		return msg
	}
	if req.MaxTokens < 1 {
		return fmt.Sprintf("max_tokens: must be an integer >= 1, got %d", req.MaxTokens)
	}
	if t := req.Temperature; t != nil && !(*t >= 0 && *t <= 1) {
		return fmt.Sprintf("temperature: must be between 0 and 1 inclusive, got %g", *t)
	}
	if p := req.TopP; p != nil && !(*p >= 0 && *p <= 1) {
		return fmt.Sprintf("top_p: must be between 0 and 1 inclusive, got %g", *p)
	}
	if k := req.TopK; k != nil && *k < 0 {
		return fmt.Sprintf("top_k: must be an integer >= 0, got %d", *k)
	}
	if th := req.Thinking; th != nil {
		// Only "enabled" takes a budget. Other types ("disabled", "adaptive",
		// and any the service adds) are accepted as they are.
		switch th.Type {
		case "enabled":
			if th.BudgetTokens < 1 {
				return fmt.Sprintf("thinking.budget_tokens: must be >= 1, got %d", th.BudgetTokens)
			}
			if th.BudgetTokens >= req.MaxTokens {
				return fmt.Sprintf("thinking.budget_tokens: must be less than max_tokens (%d), got %d",
					req.MaxTokens, th.BudgetTokens)
			}
		case "":
			return "thinking.type: required"
		}
	}
	if msg := checkLimits(req); msg != "" {
		return msg
	}
	if oc := req.OutputConfig; oc != nil && oc.Effort != "" && !slices.Contains(api.Efforts, oc.Effort) {
		return fmt.Sprintf("output_config.effort: must be one of low, medium, high, max, got %q", oc.Effort)
	}
	for i, t := range req.Tools {
		if t.Name == "" {
			return fmt.Sprintf("tools.%d.name: required", i)
		}
	}
	if tc := req.ToolChoice; tc != nil {
		switch tc.Type {
		case "auto", "any", "none":
		case "tool":
			if tc.Name == "" {
				return "tool_choice.name: required when tool_choice.type is \"tool\""
			}
		default:
			return fmt.Sprintf("tool_choice.type: must be one of auto, any, tool, none, got %q", tc.Type)
		}
		if th := req.Thinking; th != nil && th.Type == "enabled" && (tc.Type == "any" || tc.Type == "tool") {
			return "Thinking may not be enabled when tool_choice forces tool use."
		}
	}
	return ""
}
