package gitsync

import (
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"muse/session"
)

// needGit fails (under CI) or skips without git.
func needGit(tb testing.TB) {
	tb.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") != "" {
			tb.Fatal("git is missing")
		}
		tb.Skip("git is missing")
	}
}

// newBare makes a bare repository and returns its path.
func newBare(tb testing.TB) string {
	tb.Helper()
	needGit(tb)
	dir := filepath.Join(tb.TempDir(), "remote.git")
	if out, err := exec.Command("git", "init", "--quiet", "--bare", dir).CombinedOutput(); err != nil {
		tb.Fatalf("git init: %v\n%s", err, out)
	}
	return dir
}

// machine is one machine's folders.
type machine struct {
	o Options
}

// newMachine sets up sync with remote in a new machine, with the key id
// ("" makes one), and returns it.
func newMachine(tb testing.TB, remote, id string) *machine {
	tb.Helper()
	dir := tb.TempDir()
	st, err := session.Open(filepath.Join(dir, "data", "sessions"))
	if err != nil {
		tb.Fatal(err)
	}
	o := Options{DataDir: filepath.Join(dir, "data"), StateDir: filepath.Join(dir, "state"), Identity: id,
		Images: true, Env: os.Environ(), Local: StoreLocal{Store: st}}
	res, err := Init(context.Background(), o, remote)
	if err != nil {
		tb.Fatal(err)
	}
	if res.Created {
		o.Identity = res.Identity
	}
	return &machine{o: o}
}

// sync syncs the machine.
func (m *machine) sync(tb testing.TB) Result {
	tb.Helper()
	res, err := Sync(context.Background(), m.o)
	if err != nil {
		tb.Fatal(err)
	}
	return res
}

// write appends text to the journal of the session id.
func (m *machine) write(tb testing.TB, id, text string) {
	tb.Helper()
	p := filepath.Join(m.o.DataDir, "sessions", id+".jsonl")
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		tb.Fatal(err)
	}
	defer f.Close()
	if _, err := f.WriteString(text); err != nil {
		tb.Fatal(err)
	}
}

// dirSize is the bytes of the files under dir.
func dirSize(tb testing.TB, dir string) int64 {
	var n int64
	filepath.WalkDir(dir, func(p string, de fs.DirEntry, err error) error {
		if err == nil && de.Type().IsRegular() {
			if fi, err := de.Info(); err == nil {
				n += fi.Size()
			}
		}
		return nil
	})
	return n
}

// objects counts the repository's objects.
func objects(tb testing.TB, bare string) int {
	tb.Helper()
	out, err := exec.Command("git", "-C", bare, "cat-file", "--batch-all-objects", "--batch-check").Output()
	if err != nil {
		tb.Fatal(err)
	}
	return strings.Count(string(out), "\n")
}

// sameSet reports whether a and b hold the same lines, in any order: the
// merge appends what a journal lacks, so two machines' copies may differ in
// order, which replay settles by the records' times.
func sameSet(a, b string) bool {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	slices.Sort(la)
	slices.Sort(lb)
	return slices.Equal(la, lb)
}
