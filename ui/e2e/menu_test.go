//go:build linux

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestLiveMenus: in the real binary, "/" opens the menu of commands with
// their help under the input, filtered as the name is typed; esc closes
// it; "@" opens the menu of the files under the working folder (not those
// .gitignore names), ↓ moves, tab takes the file as a mention.
func TestLiveMenus(t *testing.T) {
	t.Parallel()
	h := newHome(t, "")
	for _, f := range []string{"notes.md", "docs/notes-old.md", "build/notes.bin"} {
		p := filepath.Join(h.dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(h.dir, ".gitignore"), []byte("build/\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tm := start(t, h, 80, 24, "--demo")
	tm.waitFor("Ask anything")
	for _, k := range []string{"/", "m", "o"} { // typed a key at a time
		tm.typ(k)
		tm.waitUntil(k+" typed", waitDeadline, func(s string) bool { return strings.HasSuffix(inputLine(s), k) })
	}
	tm.waitUntil("the command menu", waitDeadline, func(s string) bool {
		return strings.Contains(s, "▸ /model NAME") && strings.Contains(s, "model for the next requests")
	})
	tm.typ("\x1b")
	tm.waitUntil("the menu closed", waitDeadline, func(s string) bool {
		return !strings.Contains(s, "/model NAME") && inputLine(s) == "› /mo"
	})
	tm.typ("\x15") // ctrl+u: empty the input
	tm.waitFor("Ask anything")
	for i, k := range []string{"s", "e", "e", " ", "@", "n", "o"} {
		tm.typ(k)
		want := "› " + strings.TrimSpace("see @no"[:i+1])
		tm.waitUntil(k+" typed", waitDeadline, func(s string) bool { return inputLine(s) == want })
	}
	tm.waitUntil("the file menu", waitDeadline, func(s string) bool {
		return strings.Contains(s, "▸ notes.md") && strings.Contains(s, "  docs/notes-old.md")
	})
	if strings.Contains(tm.screen(), "notes.bin") {
		t.Errorf("the menu lists a file .gitignore names:\n%s", tm.dump())
	}
	tm.typ("\x1b[B") // ↓
	tm.waitFor("▸ docs/notes-old.md")
	tm.typ("\t")
	tm.waitUntil("the file taken", waitDeadline, func(s string) bool {
		return inputLine(s) == "› see @docs/notes-old.md" && !strings.Contains(s, "▸ docs/")
	})
	tm.typ("\x03\x03")
	tm.typ("\x04")
	if code := tm.waitExit(); code != 0 {
		t.Errorf("muse exited with status %d", code)
	}
}
