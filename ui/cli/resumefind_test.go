package cli

import (
	"strings"
	"testing"
)

// TestResumeNotFoundSaysWhatToDo: muse -r with an id no session has says
// how to list the sessions and how to pick one, and both commands work
// when pasted: the list runs, and the picker command parses as -r alone
// with the flags that chose the service.
func TestResumeNotFoundSaysWhatToDo(t *testing.T) {
	env, _, ids := seed(t)
	r := runSessions(t, env, false, "", "--demo", "-p", "hi", "-r", "nosuch")
	if r.code != ExitFailed {
		t.Fatalf("-r nosuch: code %d, want %d; stderr %q", r.code, ExitFailed, r.stderr)
	}
	lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], "not found") {
		t.Fatalf("stderr %q: want the error and two hint lines", r.stderr)
	}
	list, pick := lines[1][strings.LastIndex(lines[1], ": ")+2:], lines[2][strings.LastIndex(lines[2], ": ")+2:]
	if list != "muse sessions list" || pick != "muse --demo -r" {
		t.Fatalf("hints %q and %q", list, pick)
	}
	if r := runSessions(t, env, false, "", strings.Fields(list)[1:]...); r.code != 0 || !strings.Contains(r.stdout, ids[0]) {
		t.Fatalf("the pasted list: %+v", r)
	}
	f, _, err := parseFlags(strings.Fields(pick)[1:])
	if err != nil {
		t.Fatal(err)
	}
	if f.resume != pickSentinel || !f.demo {
		t.Fatalf("the pasted picker command parses as resume %q, demo %v", f.resume, f.demo)
	}
}

// TestResumeAmbiguousSaysWhatToDo: muse -r with a title several sessions
// share says to name one by its id or pick one, and the picker command
// works when pasted.
func TestResumeAmbiguousSaysWhatToDo(t *testing.T) {
	env, _, _ := seed(t)
	for range 2 {
		if r := runSessions(t, env, false, "", "--demo", "-p", "twin"); r.code != 0 {
			t.Fatalf("-p twin: %+v", r)
		}
	}
	r := runSessions(t, env, false, "", "--demo", "-p", "hi", "-r", "twin")
	lines := strings.Split(strings.TrimSpace(r.stderr), "\n")
	if r.code != ExitFailed || len(lines) != 2 || !strings.Contains(lines[0], "several sessions match") {
		t.Fatalf("-r twin: code %d, stderr %q: want the error and a hint line", r.code, r.stderr)
	}
	pick := lines[1][strings.LastIndex(lines[1], ": ")+2:]
	f, _, err := parseFlags(strings.Fields(pick)[1:])
	if err != nil {
		t.Fatal(err)
	}
	if pick != "muse --demo -r" || f.resume != pickSentinel || !f.demo {
		t.Fatalf("the pasted picker command %q parses as resume %q, demo %v", pick, f.resume, f.demo)
	}
}
