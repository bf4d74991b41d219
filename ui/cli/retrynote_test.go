package cli

import (
	"strings"
	"testing"
)

// -p says a retried error once, in full, and each further retry of the same
// error in one short line: a refused connection's 200 characters were
// printed on every retry, and again at the end.
func TestPrintSaysARetriedErrorOnce(t *testing.T) {
	r := runMain(t, nil, "", "--demo", "-p", "demo:overloaded x")
	if r.code != ExitFailed {
		t.Fatalf("code %d stderr %q; want a failure after the retries", r.code, r.stderr)
	}
	if n := strings.Count(r.stderr, "Overloaded; retrying in"); n != 1 {
		t.Errorf("the error is said with a retry %d times; want once:\n%s", n, r.stderr)
	}
	if !strings.Contains(r.stderr, "the same again; retrying in") || !strings.Contains(r.stderr, "(retry 2)") {
		t.Errorf("the second retry is not one short line naming it:\n%s", r.stderr)
	}
	if q := runMain(t, nil, "", "--demo", "--quiet", "-p", "demo:overloaded x"); strings.Contains(q.stderr, "retrying") {
		t.Errorf("--quiet prints retries:\n%s", q.stderr)
	}
}
