package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// The import that merges one new entry into a session says so in the
// singular: "1 new entry".
func TestImportMergeCountsInSingular(t *testing.T) {
	here := map[string]string{"XDG_DATA_HOME": t.TempDir()}
	if r := runMain(t, here, "", "--demo", "-p", "first"); r.code != 0 {
		t.Fatalf("--demo: %+v", r)
	}
	_, list := sessionsIn(t, here["XDG_DATA_HOME"])
	if len(list) != 1 {
		t.Fatalf("sessions %+v", list)
	}
	// there holds the session as it stands; here goes on with one entry.
	there := map[string]string{"XDG_DATA_HOME": filepath.Join(t.TempDir(), "data")}
	if err := os.CopyFS(there["XDG_DATA_HOME"], os.DirFS(here["XDG_DATA_HOME"])); err != nil {
		t.Fatal(err)
	}
	if r := runMain(t, here, "", "--demo", "-c", "-p", "a fox", "--image"); r.code != 0 {
		t.Fatalf("--image: %+v", r)
	}
	exported := filepath.Join(t.TempDir(), "s.json")
	if r := runMain(t, here, "", "sessions", "export", list[0].ID, "--format", "json", "-o", exported); r.code != 0 {
		t.Fatalf("export: %+v", r)
	}
	if r := runMain(t, there, "", "sessions", "import", exported); r.code != 0 || !strings.HasSuffix(r.stderr, ": 1 new entry\n") {
		t.Errorf("merge: %+v", r)
	}
}
