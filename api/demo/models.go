package demo

import (
	"net/http"
	"slices"
	"strconv"
)

// modelsPath lists the demo's models, in Anthropic's shape.
const modelsPath = "/v1/models"

// demoModel is one model GET /v1/models lists.
type demoModel struct {
	id, name, created string
	// window is the model's context window in tokens (the demo counts a
	// word as a token), listed as max_input_tokens; 0 for the image model.
	// It is small, so that the status line's ctx%, its warning past 80%
	// and /compact can be tried offline: two demo:long replies fill most
	// of demo-chat's.
	window int
}

// demoModels are the models GET /v1/models lists: the chat model and its
// image model, first the newest, as Anthropic lists them.
var demoModels = []demoModel{
	{"demo-chat", "Demo Chat", "2026-01-01T00:00:00Z", 16000},
	{"demo-chat-fast", "Demo Chat Fast", "2025-06-01T00:00:00Z", 8000},
	{"demo-image", "Demo Image", "2025-01-01T00:00:00Z", 0},
}

// models answers GET /v1/models as Anthropic does: a page of at most
// limit models (default 20, 1 to 1000) after after_id, with has_more,
// first_id and last_id.
func (h *handler) models(w http.ResponseWriter, r *http.Request) {
	if !h.checkMessageAuth(w, r) || !checkVersion(w, r) {
		return
	}
	q := r.URL.Query()
	limit := 20
	if s := q.Get("limit"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > 1000 {
			writeError(w, http.StatusBadRequest, errInvalidRequest, "limit: must be an integer from 1 to 1000, got "+strconv.Quote(s))
			return
		}
		limit = n
	}
	start := 0
	if after := q.Get("after_id"); after != "" {
		i := slices.IndexFunc(demoModels, func(m demoModel) bool { return m.id == after })
		if i < 0 {
			writeError(w, http.StatusNotFound, errNotFound, "after_id: no model "+strconv.Quote(after))
			return
		}
		start = i + 1
	}
	end := min(start+limit, len(demoModels))
	type model struct {
		Type        string `json:"type"`
		ID          string `json:"id"`
		DisplayName string `json:"display_name"`
		CreatedAt   string `json:"created_at"`
		// MaxInputTokens is the context window, as Anthropic's list gives
		// it; left out for a model without one.
		MaxInputTokens int `json:"max_input_tokens,omitempty"`
	}
	page := struct {
		Data    []model `json:"data"`
		HasMore bool    `json:"has_more"`
		FirstID *string `json:"first_id"`
		LastID  *string `json:"last_id"`
	}{Data: []model{}, HasMore: end < len(demoModels)}
	for _, m := range demoModels[start:end] {
		page.Data = append(page.Data, model{"model", m.id, m.name, m.created, m.window})
	}
	if len(page.Data) > 0 {
		page.FirstID, page.LastID = &page.Data[0].ID, &page.Data[len(page.Data)-1].ID
	}
	writeJSON(w, http.StatusOK, page)
}
