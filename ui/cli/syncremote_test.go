package cli

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// muse sync init on a path where no repository is says so, not git's
// "does not appear to be a git repository", and gives the command that
// makes one: pasted into a shell, it works, and so does the init after.
func TestSyncInitMissingRemoteSaysHowToMakeIt(t *testing.T) {
	needGit(t)
	remote := filepath.Join(t.TempDir(), "my remote's.git")
	home := map[string]string{"XDG_STATE_HOME": t.TempDir(), "XDG_DATA_HOME": t.TempDir(), "XDG_CONFIG_HOME": t.TempDir()}
	r := runMain(t, home, "", "sync", "init", remote)
	if r.code == 0 || !strings.Contains(r.stderr, "the remote "+remote+" does not exist") || strings.Contains(r.stderr, "appear") {
		t.Fatalf("code %d stderr %q", r.code, r.stderr)
	}
	hint := func(prefix string) string {
		for l := range strings.SplitSeq(r.stderr, "\n") {
			if _, cmd, ok := strings.Cut(l, prefix); ok {
				return cmd
			}
		}
		t.Fatalf("no %q in %q", prefix, r.stderr)
		return ""
	}
	if out, err := exec.Command("sh", "-c", hint("make an empty one with: ")).CombinedOutput(); err != nil {
		t.Fatalf("the hint pasted: %v\n%s", err, out)
	}
	// The init it says to run next, its words as a shell reads them.
	words, err := exec.Command("sh", "-c", `for w in `+hint("then run: ")+`; do printf '%s\n' "$w"; done`).Output()
	if err != nil {
		t.Fatal(err)
	}
	args := strings.Split(strings.TrimSuffix(string(words), "\n"), "\n")
	if len(args) != 4 || args[0] != "muse" || args[3] != remote {
		t.Fatalf("then run %q", args)
	}
	if r := runMain(t, home, "", args[1:]...); r.code != 0 {
		t.Errorf("the init after: code %d stderr %q", r.code, r.stderr)
	}
}
