package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// touchConfig gives the demo a tool that leaves a file behind when it
// runs, in the folder muse runs in.
const touchConfig = `default_profile = "e2e"
[profiles.e2e]
[[profiles.e2e.tools]]
name = "touch_ran"
description = "leaves a file named ran"
input_schema = { type = "object" }
command = ["sh", "-c", "touch ran; echo touched"]
`

// At the approval box, n then a reason declines the call and sends the
// reason to the model as the tool's result (the demo echoes it, and the
// session keeps it); shift+tab then turns approve all on, which the status
// line says while it is on, and the next call runs unasked.
func TestApprovalReasonAndApproveAll(t *testing.T) {
	t.Parallel()
	h := newHome(t, touchConfig)
	tm := start(t, h, cols, rows, "--demo")
	tm.waitFor("Ask anything")
	tm.typ("demo:tool do it\r")
	tm.waitFor("run tool touch_ran?")
	tm.typ("n")
	tm.waitFor("why not?")
	tm.typ("use the cache instead\r")
	tm.waitFor("this tool: use the cache instead")
	ran := filepath.Join(h.dir, "ran")
	if _, err := os.Stat(ran); err == nil {
		t.Fatal("the declined call ran")
	}

	tm.typ("\x1b[Z") // shift+tab
	tm.waitUntil("approve all on the status line", waitDeadline, func(s string) bool {
		return strings.Contains(statusLine(s), "approve all")
	})
	tm.typ("demo:tool again\r")
	tm.waitFor("The tool returned: touched")
	if strings.Contains(tm.screen(), "run tool touch_ran?") {
		t.Error("approve all still asked")
	}
	if _, err := os.Stat(ran); err != nil {
		t.Errorf("the call did not run under approve all: %v", err)
	}
	if s := statusLine(tm.screen()); !strings.Contains(s, "approve all") {
		t.Errorf("approve all is no longer said: %q", s)
	}

	tm.typ("/quit\r")
	if code := tm.waitExit(); code != 0 {
		t.Fatalf("muse exited with status %d", code)
	}
	m := savedRE.FindStringSubmatch(tm.screen())
	if m == nil {
		t.Fatal("muse did not say which session it saved")
	}
	if shown := h.run(t, "sessions", "show", m[1]); !strings.Contains(shown, "the user declined to run this tool: use the cache instead") {
		t.Errorf("the saved session lacks the reason:\n%s", shown)
	}
}
