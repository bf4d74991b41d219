package mcp

import (
	"context"
	"slices"
	"testing"
)

// The everything server completes its completable-prompt's arguments
// (completion/complete): the department from what is typed, and the name
// from the department typed before it (sent as the context); words that
// are not an argument's value being typed ask nothing. On each transport.
func TestEverythingCompletesPromptArguments(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) { completesPromptArguments(t, tr) })
	}
}

func completesPromptArguments(t *testing.T, transport string) {
	srv, _ := everything(t, "ev", transport)
	m := New([]Server{srv}, Options{})
	defer m.Close()
	evTools(t, m)
	const cmd = "/ev:completable-prompt "
	for value, want := range map[string][]string{
		cmd + "department=En":          {cmd + "department=Engineering "},
		cmd + "department=":            {cmd + "department=Engineering ", cmd + "department=Sales ", cmd + "department=Marketing ", cmd + "department=Support "},
		cmd + "department=Sales name=": {cmd + "department=Sales name=David ", cmd + "department=Sales name=Eve ", cmd + "department=Sales name=Frank "},
		cmd + "name=":                  nil, // no department: the server has none
	} {
		ask := m.CompleteArg(value)
		if ask == nil {
			t.Fatalf("%q asks nothing", value)
		}
		got, err := ask()
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("%q: %q, %v; want %q", value, got, err, want)
		}
	}
	for _, value := range []string{cmd, cmd + "department=Sales ", cmd + "dep", cmd + "town=X", "/ev:nope department=", "/ev:completable-prompt"} {
		if m.CompleteArg(value) != nil {
			t.Errorf("%q asks the server", value)
		}
	}
}

// BenchmarkCompleteArgEverything measures what a Tab on a prompt's
// argument waits for: completion/complete to the everything server (node)
// over stdio, and back.
func BenchmarkCompleteArgEverything(b *testing.B) {
	srv, _ := everything(b, "ev", "stdio")
	m := New([]Server{srv}, Options{})
	defer m.Close()
	m.Tools(context.Background())
	ask := m.CompleteArg("/ev:completable-prompt department=Sales name=")
	if ask == nil {
		b.Fatal("no completion")
	}
	b.ReportAllocs()
	for b.Loop() {
		if got, err := ask(); err != nil || len(got) != 3 {
			b.Fatal(got, err)
		}
	}
}
