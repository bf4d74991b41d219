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
	guardSecrets([]string{"MUSE_TEST_WORK_TOKEN"})
	if v, ok := os.LookupEnv("MUSE_TEST_WORK_TOKEN"); ok {
		t.Errorf("the credential is still in the environment: %q", v)
	}
	if os.Getenv("MUSE_TEST_KEEP") != "kept" {
		t.Error("another variable went too")
	}
	d, err := unix.PrctlRetInt(unix.PR_GET_DUMPABLE, 0, 0, 0, 0)
	if err != nil || d != 0 {
		t.Errorf("PR_GET_DUMPABLE = %d, %v; want 0", d, err)
	}
}
