package demo

import (
	"fmt"
	"regexp"

	"muse/api"
)

// toolName is the pattern the service holds a custom tool's name to.
var toolName = regexp.MustCompile(`^[a-zA-Z0-9_-]{1,128}$`)

// minThinkingBudget is the smallest thinking budget the service takes.
const minThinkingBudget = 1024

// checkLimits checks what the service refuses beyond each field's own
// shape: a thinking budget under minThinkingBudget, a tool whose name does
// not match toolName. It returns a message naming the field, or "".
func checkLimits(req *api.MessageRequest) string {
	if th := req.Thinking; th != nil && th.Type == api.ThinkingEnabled && th.BudgetTokens < minThinkingBudget {
		return fmt.Sprintf("thinking.enabled.budget_tokens: Input should be greater than or equal to %d", minThinkingBudget)
	}
	for i, t := range req.Tools {
		if t.Name != "" && !toolName.MatchString(t.Name) {
			return fmt.Sprintf("tools.%d.custom.name: String should match pattern '%s'", i, toolName)
		}
	}
	return ""
}
