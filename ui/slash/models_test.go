package slash

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"muse/session"
	"muse/ui/engine"
)

// /model completes from the service's list: names that start with what
// is typed first (case aside), then names that hold it, at most
// maxModelCompletions; nothing before the list is known.
func TestModelCompletions(t *testing.T) {
	if got := Completions("/model cl", nil); len(got) != 0 {
		t.Errorf("before the list: %q", got)
	}
	models := NewModels([]string{"claude-sonnet-4-6", "Claude-Opus-4-7", "gpt-oss:20b", "anthropic/claude-haiku"})
	for typed, want := range map[string][]string{
		"/model cl":   {"/model Claude-Opus-4-7", "/model claude-sonnet-4-6", "/model anthropic/claude-haiku"},
		"/model opus": {"/model Claude-Opus-4-7"},
		"/model gpt":  {"/model gpt-oss:20b"},
		"/model zz":   nil,
	} {
		if got := Completions(typed, models); !slices.Equal(got, want) {
			t.Errorf("%q: %q, want %q", typed, got, want)
		}
	}
	many := make([]string, 5000)
	for i := range many {
		many[i] = fmt.Sprintf("model-%04d", i)
	}
	models = NewModels(many)
	if got := Completions("/model ", models); len(got) != maxModelCompletions || got[0] != "/model model-0000" {
		t.Errorf("5000 models: %d offered, first %q", len(got), got[0])
	}
}

// BenchmarkModelCompletionKeystroke is one keystroke of /model over 5,000
// cached models: the completions and the hint, as the input asks for them
// (README: ≤ 5 ms a keystroke).
func BenchmarkModelCompletionKeystroke(b *testing.B) {
	many := make([]string, 5000)
	for i := range many {
		many[i] = fmt.Sprintf("vendor-%d/model-%04d-instruct", i%17, i)
	}
	models := NewModels(many)
	inputs := []string{"/model v", "/model vendor-1", "/model 42", "/model instruct", "/model zzz"}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		in := inputs[i%len(inputs)]
		Completions(in, models)
		Hint(in, 80)
	}
}

// /thinking adaptive [effort] sets the adaptive form and clears a budget;
// a budget clears it again; off clears both; a wrong effort is refused
// with the usage; a forced tool conflicts with either form.
func TestThinkingAdaptive(t *testing.T) {
	p := session.Params{Model: "m", MaxTokens: 4096, ThinkingBudget: 2048}
	res, err := Run("/thinking adaptive high", p, Env{})
	if err != nil || res.Params.Thinking != "adaptive" || res.Params.Effort != "high" || res.Params.ThinkingBudget != 0 || !strings.HasPrefix(res.Notice, "thinking adaptive high") {
		t.Fatalf("%v %+v", err, res)
	}
	q := res.Params
	if res, err := Run("/thinking 3000", q, Env{}); err != nil || res.Params.Thinking != "" || res.Params.Effort != "" || res.Params.ThinkingBudget != 3000 {
		t.Errorf("budget: %v %+v", err, res.Params)
	}
	if res, err := Run("/thinking off", q, Env{}); err != nil || res.Params.Thinking != "" || res.Params.Effort != "" {
		t.Errorf("off: %v %+v", err, res.Params)
	}
	if res, err := Run("/thinking adaptive", p, Env{}); err != nil || res.Params.Effort != "" {
		t.Errorf("no effort: %v %+v", err, res.Params)
	}
	if _, err := Run("/thinking adaptive extreme", p, Env{}); err == nil || !strings.Contains(err.Error(), "low|medium|high|max") {
		t.Errorf("bad effort: %v", err)
	}
	q.ToolChoice = "any"
	if _, err := Run("/tool-choice any", q, Env{Tools: []string{"t"}}); err == nil || !strings.Contains(err.Error(), "/thinking adaptive high") {
		t.Errorf("forced tool: %v", err)
	}
	req := engine.Request(q, nil, nil)
	if req.Thinking == nil || req.Thinking.Type != "adaptive" || req.Thinking.BudgetTokens != 0 || req.OutputConfig == nil || req.OutputConfig.Effort != "high" {
		t.Errorf("request %+v", req)
	}
}

// With OpenAI's image API, /negative, /extend and /watermark say it has
// no such parameter, and set nothing; /size still works.
func TestImageSettingsTheAPILacks(t *testing.T) {
	openai := Env{ImageAPI: "openai"}
	p := session.Params{Model: "m"}
	for _, line := range []string{"/negative blurry", "/extend on", "/watermark off"} {
		res, err := Run(line, p, openai)
		if err == nil || !strings.Contains(err.Error(), "openai image API") || res.Params.Image != nil {
			t.Errorf("%s: %v %+v", line, err, res.Params.Image)
		}
	}
	if _, err := Run("/size 1024x1024", p, openai); err != nil {
		t.Errorf("/size: %v", err)
	}
	if _, err := Run("/negative blurry", p, Env{ImageAPI: "dashscope"}); err != nil {
		t.Errorf("dashscope /negative: %v", err)
	}
}
