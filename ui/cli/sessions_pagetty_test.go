package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExportPageRefusesTerminal: --format html without -o on a terminal
// writes nothing and says how to name a file, in a hint that works when
// pasted; piped, the same command still writes the page.
func TestExportPageRefusesTerminal(t *testing.T) {
	env, _, ids := seed(t)
	r := runSessions(t, env, true, "", "sessions", "export", ids[0], "--format", "html")
	if r.code != ExitUsage || r.stdout != "" {
		t.Fatalf("on a terminal: code %d, %d bytes on stdout; want %d and none", r.code, len(r.stdout), ExitUsage)
	}
	hint := "muse sessions export " + ids[0] + " --format html -o " + ids[0] + ".html"
	if !strings.Contains(r.stderr, hint) || !strings.Contains(r.stderr, "> "+ids[0]+".html") {
		t.Fatalf("stderr %q does not hold the hint %q", r.stderr, hint)
	}
	// The hint, pasted, works: run its arguments and find the page.
	dir := t.TempDir()
	t.Chdir(dir)
	args := strings.Fields(strings.TrimPrefix(hint, "muse "))
	if r := runSessions(t, env, true, "", args...); r.code != 0 {
		t.Fatalf("the pasted hint: %+v", r)
	}
	page, err := os.ReadFile(filepath.Join(dir, ids[0]+".html"))
	if err != nil || !strings.Contains(string(page), "<!DOCTYPE html>") {
		t.Fatalf("the hinted file: %v, %d bytes", err, len(page))
	}
	r = runSessions(t, env, false, "", "sessions", "export", ids[0], "--format", "html")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "<!DOCTYPE html>") {
		t.Fatalf("piped: code %d, stdout starts %.40q", r.code, r.stdout)
	}
}
