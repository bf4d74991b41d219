package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"
)

// Bounds of a models list: a service may send a huge or hostile one.
const (
	// MaxModels is the most models ListModels keeps.
	MaxModels = 10000
	// MaxModelsSize is the most bytes ListModels reads, all pages together.
	MaxModelsSize = 4 << 20
	// maxModelID is the longest model id or display name kept.
	maxModelID = 256
	// modelsPage is the page size asked of Anthropic's paged list.
	modelsPage = 1000
)

// ModelInfo is one model a service offers.
type ModelInfo struct {
	ID          string `json:"id"`
	DisplayName string `json:"display_name,omitempty"`
	// Created is when the model was released, as the service wrote it
	// (RFC 3339 or Unix seconds); "" when it did not say.
	Created string `json:"created,omitempty"`
	// ContextWindow is how many tokens the model takes in, prompt and reply,
	// when the service says: OpenRouter's context_length (or its
	// top_provider's), vLLM's max_model_len, or max_input_tokens; 0 when
	// it does not (Anthropic's list does not).
	ContextWindow int `json:"context_window,omitempty"`
}

// modelsWire reads both shapes of GET /v1/models: Anthropic's, data[] with
// id, display_name and created_at and paging by has_more and last_id, and
// the OpenAI-style list (object "list", data[] with id, created, owned_by)
// that Ollama, vLLM, llama.cpp, LM Studio and OpenRouter serve.
type modelsWire struct {
	Data []struct {
		ID          string          `json:"id"`
		DisplayName string          `json:"display_name"`
		Name        string          `json:"name"` // OpenRouter's
		CreatedAt   string          `json:"created_at"`
		Created     json.RawMessage `json:"created"`
		// The context window, under the names services give it.
		ContextLength  int `json:"context_length"`
		MaxModelLen    int `json:"max_model_len"`
		MaxInputTokens int `json:"max_input_tokens"`
		TopProvider    struct {
			ContextLength int `json:"context_length"`
		} `json:"top_provider"`
	} `json:"data"`
	HasMore bool   `json:"has_more"`
	LastID  string `json:"last_id"`
}

// ListModels returns the models the service offers, from GET /v1/models,
// following Anthropic's pages. At most MaxModels are kept and MaxModelsSize
// bytes read; an entry whose id is empty, too long or holds control
// characters is dropped. A service without the endpoint answers an
// *APIError with status 404.
func (c *Client) ListModels(ctx context.Context) ([]ModelInfo, error) {
	var out []ModelInfo
	seen := map[string]bool{}
	read := 0
	after := ""
	for page := 0; ; page++ {
		path := "/v1/models?limit=" + fmt.Sprint(modelsPage)
		if after != "" {
			path += "&after_id=" + url.QueryEscape(after)
		}
		resp, cancel, err := c.send(ctx, call{method: "GET", path: path, messages: true, wait: c.responseTimeout}, nil)
		if err != nil {
			return nil, err
		}
		body, err := c.readBody(resp.Request.Context(), resp, cancel, int64(MaxModelsSize-read+1))
		resp.Body.Close()
		cancel(nil)
		if err != nil {
			return nil, fmt.Errorf("read the models list: %w", err)
		}
		read += len(body)
		if read > MaxModelsSize {
			return nil, fmt.Errorf("the models list from %s is larger than %d MiB", c.shown, MaxModelsSize>>20)
		}
		var w modelsWire
		if err := json.Unmarshal(body, &w); err != nil {
			return nil, fmt.Errorf("the models list from %s is not a models list (%v): %s", c.shown, err, snippet(body))
		}
		for _, d := range w.Data {
			if len(out) >= MaxModels {
				return out, nil
			}
			if !cleanModelText(d.ID) || seen[d.ID] {
				continue
			}
			seen[d.ID] = true
			m := ModelInfo{ID: d.ID, DisplayName: d.DisplayName, Created: d.CreatedAt}
			if m.DisplayName == "" {
				m.DisplayName = d.Name
			}
			if !cleanModelText(m.DisplayName) {
				m.DisplayName = ""
			}
			if m.Created == "" && len(d.Created) > 0 && string(d.Created) != "null" {
				m.Created = strings.Trim(string(d.Created), `"`)
			}
			if !cleanModelText(m.Created) {
				m.Created = ""
			}
			for _, n := range []int{d.ContextLength, d.TopProvider.ContextLength, d.MaxModelLen, d.MaxInputTokens} {
				if n > 0 && m.ContextWindow == 0 {
					m.ContextWindow = n
				}
			}
			out = append(out, m)
		}
		if !w.HasMore || w.LastID == "" || w.LastID == after || len(out) >= MaxModels {
			return out, nil
		}
		after = w.LastID
	}
}

// cleanModelText reports whether s may be kept from a models list: not
// empty, at most maxModelID bytes of valid UTF-8 without control
// characters. The front ends still sanitize what they print.
func cleanModelText(s string) bool {
	if s == "" || len(s) > maxModelID || !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r >= 0x80 && r < 0xa0 {
			return false
		}
	}
	return true
}
