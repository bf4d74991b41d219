package input

import (
	"errors"
	"slices"
	"testing"
)

// Options that come with a note (a server's values that were left out)
// go in, and the note is a notice.
func TestTabAskedOptionsWithANote(t *testing.T) {
	note := "the MCP server ev sent completions that are not offered: 4902 past the first 100"
	ask := func(string) func() ([]string, error) {
		return func() ([]string, error) { return []string{"/ev:p department=Sales "}, errors.New(note) }
	}
	m, notices, _ := tab(t, typed(t, "/ev:p department=S").WithAskedCompletions(ask), 1)
	if m.Value() != "/ev:p department=Sales " || !slices.Equal(notices, []string{note}) {
		t.Errorf("value %q, notices %q", m.Value(), notices)
	}
}
