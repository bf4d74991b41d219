package session

import (
	"fmt"
	"slices"

	"muse/api"
)

// Check reports the first setting out of the range the service accepts, so
// that settings read from a file (an import) fail where they are read, not
// on the next request.
func (p Params) Check() error {
	switch {
	case p.MaxTokens < 0:
		return fmt.Errorf("max_tokens %d: at least 1, or absent", p.MaxTokens)
	case p.Temperature != nil && (*p.Temperature < 0 || *p.Temperature > 1):
		return fmt.Errorf("temperature %g: from 0 to 1", *p.Temperature)
	case p.TopP != nil && (*p.TopP < 0 || *p.TopP > 1):
		return fmt.Errorf("top_p %g: from 0 to 1", *p.TopP)
	case p.TopK != nil && *p.TopK < 1:
		return fmt.Errorf("top_k %d: at least 1", *p.TopK)
	case p.ThinkingBudget < 0:
		return fmt.Errorf("thinking_budget %d: at least 1024, or absent", p.ThinkingBudget)
	case p.Thinking != "" && p.Thinking != api.ThinkingAdaptive:
		return fmt.Errorf("thinking %q: adaptive, or absent", p.Thinking)
	case p.Effort != "" && !slices.Contains(api.Efforts, p.Effort):
		return fmt.Errorf("effort %q: one of %v, or absent", p.Effort, api.Efforts)
	}
	return nil
}
