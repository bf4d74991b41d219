package cli

import (
	"os"
	"testing"

	"golang.org/x/sys/unix"
)

// TestGuardSecrets checks that the credential variables leave muse's own
// environment, and that the process becomes undumpable, so a tool of the
// same user cannot read them from /proc/<muse pid>/environ.
func TestGuardSecrets(t *testing.T) {
	t.Setenv("MUSE_TEST_WORK_TOKEN", "secret-1")
	t.Setenv("MUSE_TEST_KEEP", "kept")
	t.Setenv("MUSE_TEST_COPY", "Bearer tok-from-a-command") // what a token_cmd printed, under another name
	guardSecrets([]string{"MUSE_TEST_WORK_TOKEN"}, []string{"tok-from-a-command"})
	for _, n := range []string{"MUSE_TEST_WORK_TOKEN", "MUSE_TEST_COPY"} {
		if v, ok := os.LookupEnv(n); ok {
			t.Errorf("the credential is still in the environment: %s=%q", n, v)
		}
	}
	if os.Getenv("MUSE_TEST_KEEP") != "kept" {
		t.Error("another variable went too")
	}
	d, err := unix.PrctlRetInt(unix.PR_GET_DUMPABLE, 0, 0, 0, 0)
	if err != nil || d != 0 {
		t.Errorf("PR_GET_DUMPABLE = %d, %v; want 0", d, err)
	}
}
