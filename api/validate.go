package api

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// ErrInvalidRequest is wrapped by every validation error, and matched by the
// configuration errors New finds (a base URL that is not http(s), a token
// with a control character), so callers can tell a request that was never
// sent (a usage error) from a failed one.
var ErrInvalidRequest = errors.New("invalid request")

func invalid(format string, args ...any) error {
	return fmt.Errorf("%w: %s", ErrInvalidRequest, fmt.Sprintf(format, args...))
}

// Validate checks the request against the interface's limits before it is sent.
func (r *MessageRequest) Validate() error {
	if strings.TrimSpace(r.Model) == "" {
		return invalid("model is empty: set a model name")
	}
	if len(r.Messages) == 0 {
		return invalid("messages is empty: send at least one message")
	}
	for i, m := range r.Messages {
		if m.Role == "" {
			return invalid("messages[%d] has no role", i)
		}
		if m.IsEmpty() {
			return invalid("messages[%d] is empty: write a prompt", i)
		}
	}
	if r.MaxTokens < 1 {
		return invalid("max_tokens must be at least 1, got %d", r.MaxTokens)
	}
	if t := r.Temperature; t != nil && (*t < 0 || *t > 1 || *t != *t) {
		return invalid("temperature must be between 0 and 1, got %g", *t)
	}
	if p := r.TopP; p != nil && (*p < 0 || *p > 1 || *p != *p) {
		return invalid("top_p must be between 0 and 1, got %g", *p)
	}
	if k := r.TopK; k != nil && *k < 1 {
		return invalid("top_k must be at least 1, got %d", *k)
	}
	if th := r.Thinking; th != nil && th.Type == "enabled" {
		if th.BudgetTokens < 1 {
			return invalid("thinking budget must be at least 1 token, got %d", th.BudgetTokens)
		}
		if th.BudgetTokens >= r.MaxTokens {
			return invalid("thinking budget (%d) must be below max_tokens (%d)", th.BudgetTokens, r.MaxTokens)
		}
	}
	if th, tc := r.Thinking, r.ToolChoice; th != nil && th.Type == "enabled" && tc != nil && (tc.Type == "any" || tc.Type == "tool") && len(r.Tools) > 0 {
		return invalid("thinking cannot be on while tool_choice forces a tool (%s): the service refuses it; use /tool-choice auto or /thinking off", tc.Type)
	}
	for i, t := range r.Tools {
		if t.Name == "" {
			return invalid("tools[%d] has no name", i)
		}
	}
	return nil
}

// Validate checks the image request before it is sent.
func (r *ImageRequest) Validate() error {
	if strings.TrimSpace(r.Model) == "" {
		return invalid("image model is empty: set an image model name")
	}
	if strings.TrimSpace(r.Prompt()) == "" {
		return invalid("image prompt is empty: describe the image")
	}
	if p := r.Parameters; p != nil && p.Size != "" {
		if _, _, err := ParseSize(p.Size); err != nil {
			return err
		}
	}
	return nil
}

// ParseSize parses an image size of the form "<width>*<height>" with positive integers.
func ParseSize(s string) (width, height int, err error) {
	w, h, ok := strings.Cut(s, "*")
	if ok {
		width, err = strconv.Atoi(w)
		if err == nil {
			height, err = strconv.Atoi(h)
		}
	}
	if !ok || err != nil || width < 1 || height < 1 || strings.ContainsAny(w+h, "+-") {
		return 0, 0, invalid("size %q must be <width>*<height> with positive integers, like 1024*1024", s)
	}
	return width, height, nil
}
