package api

import (
	"errors"
	"strings"
	"testing"
)

// TestValidateThinkingWithForcedTool checks that muse refuses before sending
// what the service refuses: thinking with a tool_choice that forces a tool.
func TestValidateThinkingWithForcedTool(t *testing.T) {
	tools := []Tool{{Name: "f"}}
	base := func(tc *ToolChoice) MessageRequest {
		return MessageRequest{Model: "m", MaxTokens: 2000, Messages: []MessageParam{TextMessage(RoleUser, "hi")},
			Thinking: &Thinking{Type: "enabled", BudgetTokens: 1024}, Tools: tools, ToolChoice: tc}
	}
	for _, tc := range []*ToolChoice{{Type: "any"}, {Type: "tool", Name: "f"}} {
		r := base(tc)
		if err := r.Validate(); !errors.Is(err, ErrInvalidRequest) || !strings.Contains(err.Error(), "/thinking off") {
			t.Errorf("tool_choice %s: %v", tc.Type, err)
		}
	}
	for _, tc := range []*ToolChoice{nil, {Type: "auto"}, {Type: "none"}} {
		r := base(tc)
		if err := r.Validate(); err != nil {
			t.Errorf("tool_choice %v: %v", tc, err)
		}
	}
}
