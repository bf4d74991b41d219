package demo

import (
	"net/http"
)

// countTokensPath counts the input tokens of a message request, as
// Anthropic's POST /v1/messages/count_tokens does.
const countTokensPath = "/v1/messages/count_tokens"

// countTokens serves POST /v1/messages/count_tokens: the request of
// /v1/messages without max_tokens (and without stream), checked as that
// one is, answered with {"input_tokens": N}, N counted as a reply's
// usage counts its input.
func (h *handler) countTokens(w http.ResponseWriter, r *http.Request) {
	req, ok := h.messageRequest(w, r)
	if !ok {
		return
	}
	switch {
	case req.MaxTokens != 0:
		writeError(w, http.StatusBadRequest, errInvalidRequest, "max_tokens: Extra inputs are not permitted")
		return
	case req.Stream:
		writeError(w, http.StatusBadRequest, errInvalidRequest, "stream: Extra inputs are not permitted")
		return
	}
	req.MaxTokens = 1 << 20 // the check of max_tokens has nothing to check
	if msg := validateMessageRequest(&req); msg != "" {
		writeError(w, http.StatusBadRequest, errInvalidRequest, msg)
		return
	}
	writeJSON(w, http.StatusOK, struct {
		InputTokens int `json:"input_tokens"`
	}{inputTokens(&req)})
}
