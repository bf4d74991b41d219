//go:build linux

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCiteOnChatScreen asks the demo for citations in a real terminal:
// /cite on, a text file attached, and the reply lists the citation of
// its first line under its text, as web search results are listed; -p
// --cite gets the same cited text.
func TestCiteOnChatScreen(t *testing.T) {
	t.Parallel()
	h := newHome(t, "")
	notes := filepath.Join(h.dir, "notes.md")
	if err := os.WriteFile(notes, []byte("# Plan\nship it\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tm := start(t, h, 100, 40, "--demo")
	tm.waitFor("Ask anything")
	tm.typ("/cite on\r")
	tm.waitFor("citations on")
	tm.typ("/attach " + notes + "\r")
	tm.waitFor("[1] notes.md")
	tm.typ("what does it say?\r")
	tm.waitFor("1 citation")
	tm.waitFor("· “# Plan” — notes.md")
	tm.waitFor("stop end_turn")
	tm.typ("\x03\x03")
	if code := tm.waitExit(); code != 0 {
		t.Fatalf("muse exited with status %d", code)
	}
	if out := h.run(t, "--demo", "-p", "what does it say?", "--cite", "-a", notes, "--raw"); !strings.Contains(out, "It begins “# Plan”.") {
		t.Errorf("-p --cite: %q", out)
	}
}
