package mcp

import (
	"context"
	"slices"
	"strings"
	"testing"
)

// The everything server's prompts, on each transport: listed as
// /SERVER:NAME with their arguments (Status too), got with arguments typed
// by name or in order, a missing required one refused with the usage.
func TestEverythingPrompts(t *testing.T) {
	for _, tr := range transports {
		t.Run(tr, func(t *testing.T) {
			srv, _ := everything(t, "ev", tr)
			m := New([]Server{srv}, Options{})
			defer m.Close()
			evTools(t, m)
			var args Prompt
			var names []string
			for _, p := range m.Prompts() {
				names = append(names, p.Command)
				if p.Name == "args-prompt" {
					args = p
				}
			}
			if !slices.Contains(names, "/ev:simple-prompt") || args.Command == "" {
				t.Fatalf("prompts %q", names)
			}
			if u := args.Usage(); u != "/ev:args-prompt city=… [state=…]" {
				t.Errorf("usage %q", u)
			}
			if st := m.Status()[0]; !slices.Contains(st.Prompts, "/ev:args-prompt city=… [state=…]") {
				t.Errorf("Status prompts %q", st.Prompts)
			}
			for typed, want := range map[string]string{
				"Boston":               "What's weather in Boston?",
				"state=MA city=Boston": "What's weather in Boston, MA?",
				"Boston Massachusetts": "What's weather in Boston, Massachusetts?",
			} {
				a, err := args.ParseArgs(typed)
				if err != nil {
					t.Fatalf("%q: %v", typed, err)
				}
				text, err := m.GetPrompt(context.Background(), args, a)
				if err != nil || text != want {
					t.Errorf("%q: %q, %v; want %q", typed, text, err, want)
				}
			}
			if _, err := args.ParseArgs("state=MA"); err == nil || !strings.Contains(err.Error(), "needs city: usage: /ev:args-prompt city=… [state=…]") {
				t.Errorf("missing city: %v", err)
			}
			if _, err := args.ParseArgs("town=Boston"); err == nil || !strings.Contains(err.Error(), `no argument "town"`) {
				t.Errorf("unknown argument: %v", err)
			}
		})
	}
}

// CompletePrompt completes a prompt's command, then its arguments not
// given yet.
func TestCompletePrompt(t *testing.T) {
	ps := []Prompt{
		{Command: "/ev:simple-prompt", Server: "ev", Name: "simple-prompt"},
		{Command: "/ev:args-prompt", Server: "ev", Name: "args-prompt", Args: []PromptArg{{Name: "city", Required: true}, {Name: "state"}}},
		{Command: "/fs:list", Server: "fs", Name: "list"},
	}
	for value, want := range map[string][]string{
		"/ev:":                       {"/ev:simple-prompt ", "/ev:args-prompt "},
		"/ev:a":                      {"/ev:args-prompt "},
		"/ev:args-prompt ":           {"/ev:args-prompt city=", "/ev:args-prompt state="},
		"/ev:args-prompt city=Bonn ": {"/ev:args-prompt city=Bonn state="},
		"/ev:args-prompt st":         {"/ev:args-prompt state="},
		"/ev:args-prompt city=Bo":    nil, // a value: its server completes it
		"/nope":                      nil,
		"/ev:simple-prompt ":         nil,
	} {
		if got := CompletePrompt(ps, value); !slices.Equal(got, want) {
			t.Errorf("%q: %q, want %q", value, got, want)
		}
	}
}
