//go:build linux

package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestExportPage runs muse in a terminal: a demo turn with thinking, then
// /export page with options, after which the next prompt is sent as usual
// (and kept when muse quits at once); then, off the terminal, `muse sessions export --format html` of
// the saved session, and `muse sessions open` with no browser to open it
// with, which prints the page's path and says what to install.
func TestExportPage(t *testing.T) {
	t.Parallel()
	h := newHome(t, "")
	tm := start(t, h, 100, 30, "--demo")
	tm.waitFor("Ask anything")
	tm.typ("demo:think explain channels\r")
	tm.waitFor("end_turn")
	path := filepath.Join(h.dir, "talk.html")
	tm.typ("/export page " + path + " --no-thinking")
	tm.waitFor("--no-thinking")
	tm.typ("\r")
	tm.waitFor("exported to")
	tm.typ("and goroutines?")
	tm.waitFor("› and goroutines?")
	tm.typAnswered("\r", "the prompt sent", func(s string) bool { return !strings.Contains(s, "› and goroutines?") })
	tm.typ("\x04") // ctrl+d quits, the reply kept
	if code := tm.waitExit(); code != 0 {
		t.Errorf("muse exited with status %d", code)
	}
	page, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(page), "<!DOCTYPE html>") || !strings.Contains(string(page), "explain channels") || strings.Contains(string(page), `class="thinking"`) {
		t.Errorf("the page of /export page --no-thinking:\n%.1500s", page)
	}

	var list []struct{ ID string }
	if err := json.Unmarshal([]byte(h.run(t, "sessions", "list", "--json")), &list); err != nil || len(list) != 1 {
		t.Fatalf("sessions list: %v %v", list, err)
	}
	out := h.run(t, "sessions", "export", list[0].ID, "--format", "html")
	if !strings.Contains(out, "and goroutines?") || !strings.Contains(out, `class="thinking"`) || !strings.HasSuffix(out, "</html>\n") {
		t.Errorf("sessions export --format html:\n%.1500s", out)
	}

	cmd := exec.Command(museBin, "sessions", "open", list[0].ID)
	cmd.Env = append(h.env[:0:0], h.env...)
	for i, kv := range cmd.Env {
		if strings.HasPrefix(kv, "PATH=") {
			cmd.Env[i] = "PATH=" + t.TempDir() // no xdg-open, no browser
		}
	}
	cmd.Env = append(cmd.Env, "TMPDIR="+t.TempDir())
	stdout, err := cmd.Output()
	var stderr string
	if ee, ok := err.(*exec.ExitError); ok {
		stderr = string(ee.Stderr)
	}
	opened := strings.TrimSpace(string(stdout))
	if err == nil || !strings.Contains(stderr, "no program to open it with") || !strings.Contains(stderr, "xdg-open") {
		t.Errorf("sessions open with no browser: %v, stderr %q", err, stderr)
	}
	if data, err := os.ReadFile(opened); err != nil || !strings.Contains(string(data), "and goroutines?") {
		t.Errorf("sessions open printed %q, whose page: %v", opened, err)
	}
}
