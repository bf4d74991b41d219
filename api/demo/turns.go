package demo

import (
	"fmt"

	"muse/api"
)

// CheckTurns checks the conversation of a request as the service does,
// strictly: the first message is the user's and roles alternate; every
// tool_use of an assistant turn is answered by a tool_result with its id
// in the user message right after it, those results come before anything
// else in that message, and no tool_result names a call that turn did not
// make; no text block is empty. It returns a message naming what is wrong,
// as the service's 400 does, or "".
func CheckTurns(msgs []api.MessageParam) string {
	for i, m := range msgs {
		if i == 0 && m.Role != api.RoleUser {
			return "messages.0.role: the first message must use the \"user\" role"
		}
		if i > 0 && m.Role == msgs[i-1].Role {
			return fmt.Sprintf("messages.%d.role: roles must alternate between \"user\" and \"assistant\", got two %q messages in a row", i, m.Role)
		}
		for j, b := range m.Blocks {
			if b.Type == api.BlockText && b.Text == "" {
				return fmt.Sprintf("messages.%d.content.%d.text: text content blocks must be non-empty", i, j)
			}
		}
		// What this message calls must be answered by the next one, and
		// what it answers must have been called by the one before.
		var called []string
		if m.Role == api.RoleAssistant {
			for _, b := range m.Blocks {
				if b.Type == api.BlockToolUse {
					called = append(called, b.ID)
				}
			}
		}
		if m.Role == api.RoleUser {
			var prev map[string]bool
			if i > 0 {
				prev = map[string]bool{}
				for _, b := range msgs[i-1].Blocks {
					if b.Type == api.BlockToolUse {
						prev[b.ID] = true
					}
				}
			}
			results := true // tool_result blocks come first
			for j, b := range m.Blocks {
				if b.Type != api.BlockToolResult {
					results = false
					continue
				}
				if !results {
					return fmt.Sprintf("messages.%d.content.%d: tool_result blocks must come before any other content in a user message", i, j)
				}
				if !prev[b.ToolUseID] {
					return fmt.Sprintf("messages.%d.content.%d: unexpected `tool_use_id` found in `tool_result` blocks: %s. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.", i, j, b.ToolUseID)
				}
			}
		}
		if len(called) == 0 {
			continue
		}
		answered := map[string]bool{}
		if i+1 < len(msgs) {
			for _, b := range msgs[i+1].Blocks {
				if b.Type == api.BlockToolResult {
					answered[b.ToolUseID] = true
				}
			}
		} else {
			continue // a final assistant turn is a prefill; the reply goes on from it
		}
		for _, id := range called {
			if !answered[id] {
				return fmt.Sprintf("messages.%d: `tool_use` ids were found without `tool_result` blocks immediately after: %s. Each `tool_use` block must have a corresponding `tool_result` block in the next message.", i, id)
			}
		}
	}
	return ""
}
