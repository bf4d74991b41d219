package slash

import (
	"strings"
	"testing"
	"unicode/utf8"

	"muse/session"
)

// FuzzSlash runs any typed line as a slash command, /stop's quoting
// included: it never panics, refusals are one line of valid UTF-8, and the
// settings it returns are a copy (the caller's are never changed).
func FuzzSlash(f *testing.F) {
	for _, s := range []string{"/model x", "/temperature 0.5", "/stop \"a b\" c", "/stop \"unclosed", "/size 1024x1024",
		"/copy code 2", "/tool-choice get_time", "/max-tokens 99999999999999999999", "/image", "/t", "/", "hello", "/stop \\\"", "/thinking 2048"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line string) {
		temp := 0.7
		p := session.Params{Model: "m", MaxTokens: 100, Temperature: &temp, StopSequences: []string{"x"}}
		_, err := Run(line, p, Env{Tools: []string{"get_time"}})
		if err != nil && (strings.Contains(err.Error(), "\n") || !utf8.ValidString(err.Error())) && utf8.ValidString(line) {
			t.Fatalf("refusal of %q is not one clean line: %q", line, err)
		}
		if temp != 0.7 || p.StopSequences[0] != "x" {
			t.Fatalf("%q changed the caller's settings", line)
		}
		_ = Completions(line, NewModels([]string{"claude-sonnet-4-6"}))
		if stops, err := slashSplitStop(line); err == nil {
			for _, s := range stops {
				if s == "" {
					t.Fatalf("/stop %q gave an empty sequence", line)
				}
			}
		}
	})
}
