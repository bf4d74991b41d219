package cli

import (
	"path/filepath"
	"slices"
	"testing"

	"muse/session/prompts"
)

// Prompts sent with -p go into the prompt history the chat screen's ↑
// walks (an image's as "/image PROMPT"); with --no-save they do not.
func TestPrintPromptsGoIntoTheHistory(t *testing.T) {
	env := map[string]string{"XDG_DATA_HOME": t.TempDir()}
	for _, args := range [][]string{
		{"--demo", "-p", "a first question"},
		{"--demo", "-p", "a red fox", "--image", "--size", "32*32"},
		{"--demo", "--no-save", "-p", "a secret"},
	} {
		if r := runMain(t, env, "", args...); r.code != 0 {
			t.Fatalf("%q: %+v", args, r)
		}
	}
	h, err := prompts.Open(filepath.Join(env["XDG_DATA_HOME"], "muse", "prompts.jsonl"), 0)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := h.Prompts(), []string{"a first question", "/image a red fox"}; !slices.Equal(got, want) {
		t.Errorf("history %q, want %q", got, want)
	}
}
