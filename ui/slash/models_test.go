package slash

import (
	"fmt"
	"slices"
	"testing"
)

// /model completes from the service's list: names that start with what
// is typed first (case aside), then names that hold it, at most
// maxModelCompletions; nothing before the list is known.
func TestModelCompletions(t *testing.T) {
	models.Store(nil)
	if got := Completions("/model cl"); len(got) != 0 {
		t.Errorf("before the list: %q", got)
	}
	SetModels([]string{"claude-sonnet-4-6", "Claude-Opus-4-7", "gpt-oss:20b", "anthropic/claude-haiku"})
	defer models.Store(nil)
	for typed, want := range map[string][]string{
		"/model cl":   {"/model Claude-Opus-4-7", "/model claude-sonnet-4-6", "/model anthropic/claude-haiku"},
		"/model opus": {"/model Claude-Opus-4-7"},
		"/model gpt":  {"/model gpt-oss:20b"},
		"/model zz":   nil,
	} {
		if got := Completions(typed); !slices.Equal(got, want) {
			t.Errorf("%q: %q, want %q", typed, got, want)
		}
	}
	many := make([]string, 5000)
	for i := range many {
		many[i] = fmt.Sprintf("model-%04d", i)
	}
	SetModels(many)
	if got := Completions("/model "); len(got) != maxModelCompletions || got[0] != "/model model-0000" {
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
	SetModels(many)
	defer models.Store(nil)
	inputs := []string{"/model v", "/model vendor-1", "/model 42", "/model instruct", "/model zzz"}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		in := inputs[i%len(inputs)]
		Completions(in)
		Hint(in, 80)
	}
}
