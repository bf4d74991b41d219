//go:build linux

package e2e

import (
	"bytes"
	"errors"
	"io/fs"
	"net"
	"net/http"
	"net/http/cgi"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"filippo.io/age"
)

// TestGitSync runs two machines (two homes) syncing through a bare
// repository, reached as a local path and through a real git server (git
// http-backend, started by the test): A's chat found by B's search, one
// session continued on both holding both continuations, a delete reaching
// B, a damaged bundle skipped and named, a wrong key refused before
// anything is written, and nothing of a prompt in the remote's objects.
func TestGitSync(t *testing.T) {
	t.Parallel()
	needGit(t)
	for _, via := range []string{"path", "http"} {
		t.Run(via, func(t *testing.T) {
			t.Parallel()
			bare, url := newRemote(t, via)
			a, b := newHome(t, ""), newHome(t, "")

			a.run(t, "--demo", "-p", "tell me about narwhals")
			out := a.run(t, "sync", "init", url)
			if !strings.Contains(out, "AGE-SECRET-KEY-1") || !strings.Contains(out, "password manager") {
				t.Fatalf("init on the first machine:\n%s", out)
			}
			a.run(t, "sync")
			key := strings.TrimSpace(a.run(t, "sync", "key"))

			// Without a key, or with another, B is refused and writes nothing.
			if _, stderr := b.fail(t, "sync", "init", url); !strings.Contains(stderr, "MUSE_SYNC_KEY") {
				t.Errorf("init without a key: %s", stderr)
			}
			other, _ := age.GenerateX25519Identity()
			b.env = append(b.env, "MUSE_SYNC_KEY="+other.String())
			if _, stderr := b.fail(t, "sync", "init", url); !strings.Contains(stderr, "does not open") {
				t.Errorf("init with a wrong key: %s", stderr)
			}
			des, err := os.ReadDir(filepath.Join(b.dir, "state", "muse", "sync"))
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				t.Fatal(err)
			}
			if len(des) > 0 {
				t.Errorf("a wrong key left files in the sync folder: %v", des)
			}
			b.env = append(b.env, "MUSE_SYNC_KEY="+key) // the later one wins
			b.run(t, "sync", "init", url)
			b.run(t, "sync")
			if out := b.run(t, "sessions", "search", "narwhals"); !strings.Contains(out, "narwhals") {
				t.Fatalf("B does not find A's words:\n%s", out)
			}
			id := firstID(t, b.run(t, "sessions", "list"))

			// Both continue the same session, then sync A, B, A.
			a.run(t, "--demo", "-c", "-p", "and otters on A")
			b.run(t, "--demo", "-c", "-p", "and beavers on B")
			a.run(t, "sync")
			b.run(t, "sync")
			a.run(t, "sync")
			if ja, jb := journal(t, a, id), journal(t, b, id); !sameRecords(ja, jb) || !strings.Contains(ja, "and otters on A") || !strings.Contains(ja, "and beavers on B") {
				t.Errorf("the journals differ:\nA:\n%s\nB:\n%s", ja, jb)
			}
			if st := b.run(t, "sync", "--status"); !strings.Contains(st, "ahead:    0 files") || !strings.Contains(st, "behind:   0 bundles") {
				t.Errorf("B's status:\n%s", st)
			}
			for _, h := range []*home{a, b} {
				tree := h.run(t, "sessions", "show", "--all-branches", id)
				if !strings.Contains(tree, "and otters on A") || !strings.Contains(tree, "and beavers on B") {
					t.Errorf("a machine lacks a branch:\n%s", tree)
				}
			}

			// The remote holds ciphertext only.
			blobs := allObjects(t, bare)
			for _, w := range []string{"narwhals", "otters", "beavers", id, key, strings.ToLower(key)} {
				if bytes.Contains(blobs, []byte(w)) {
					t.Errorf("the remote holds %q in clear", w)
				}
			}

			// A damaged bundle is skipped and named; nothing of it applied.
			// No output holds the key.
			plant(t, bare)
			out, stderr := b.runBoth(t, "sync")
			doctor, _, _ := b.exec("doctor")
			if strings.Contains(out+stderr+doctor, key) {
				t.Errorf("the key is in the output:\n%s%s%s", out, stderr, doctor)
			}
			if !strings.Contains(stderr, "ffffffffffffffff/0.age") {
				t.Errorf("a damaged bundle was not named: %s", stderr)
			}

			// A delete reaches B.
			a.run(t, "sessions", "delete", "--yes", id)
			a.run(t, "sync")
			b.run(t, "sync")
			if out := b.run(t, "sessions", "list"); strings.Contains(out, id) {
				t.Errorf("the session deleted on A is still on B:\n%s", out)
			}
		})
	}
}

// TestGitSyncKilled kills muse sync (kill -9) as it writes its bundle,
// fetches, makes its commit, pushes, and as it applies another machine's
// bundles: the next sync completes the work, and the other machine gets
// every record once.
func TestGitSyncKilled(t *testing.T) {
	t.Parallel()
	needGit(t)
	_, url := newRemote(t, "path")
	a, b := newHome(t, ""), newHome(t, "")
	a.run(t, "--demo", "-p", "tell me about walruses")
	a.run(t, "sync", "init", url)
	key := strings.TrimSpace(a.run(t, "sync", "key"))
	b.env = append(b.env, "MUSE_SYNC_KEY="+key)
	b.run(t, "sync", "init", url)
	for _, at := range []string{"push", "fast-import", "fetch", "commit-tree"} {
		a.run(t, "--demo", "-c", "-p", "more walruses before "+at)
		a.withGitKiller(t, at).failKilled(t, "sync")
		a.run(t, "sync")
		b.withGitKiller(t, "cat-file").failKilled(t, "sync") // as B applies
		b.run(t, "sync")
	}
	id := firstID(t, a.run(t, "sessions", "list"))
	ja, jb := journal(t, a, id), journal(t, b, id)
	if !sameRecords(ja, jb) {
		t.Errorf("the machines differ:\nA:\n%s\nB:\n%s", ja, jb)
	}
	if lines := strings.Count(jb, "\n"); lines != len(uniq(strings.Split(jb, "\n")))-1 {
		t.Errorf("B holds a record twice:\n%s", jb)
	}
}

// needGit fails (under CI) or skips without git.
func needGit(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("git"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("git is missing")
		}
		t.Skip("git is missing")
	}
}

// newRemote makes a bare repository and returns it and the URL muse is
// given: its path, or an http:// address of git http-backend serving it.
func newRemote(t *testing.T, via string) (bare, url string) {
	t.Helper()
	root := t.TempDir()
	bare = filepath.Join(root, "remote.git")
	gitRun(t, "", "init", "--quiet", "--bare", bare)
	if via == "path" {
		return bare, bare
	}
	gitRun(t, bare, "config", "http.receivepack", "true")
	h := &cgi.Handler{Path: gitPath(t), Args: []string{"http-backend"},
		Env: []string{"GIT_PROJECT_ROOT=" + root, "GIT_HTTP_EXPORT_ALL=1"}}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &httptest.Server{Listener: l, Config: &http.Server{Handler: h}}
	srv.Start()
	t.Cleanup(srv.Close)
	return bare, srv.URL + "/remote.git"
}

// gitPath is the git command.
func gitPath(t *testing.T) string {
	p, err := exec.LookPath("git")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// gitRun runs git in dir and returns its output.
func gitRun(t *testing.T, dir string, args ...string) string {
	t.Helper()
	if dir != "" {
		args = append([]string{"-C", dir}, args...)
	}
	out, err := exec.Command("git", args...).CombinedOutput()
	if err != nil {
		t.Fatalf("git %s: %v\n%s", strings.Join(args, " "), err, out)
	}
	return string(out)
}

// allObjects returns the contents of every object of the repository.
func allObjects(t *testing.T, bare string) []byte {
	t.Helper()
	cmd := exec.Command("git", "-C", bare, "cat-file", "--batch-all-objects", "--batch")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// plant pushes, as a machine ffffffffffffffff, a bundle whose ciphertext
// is damaged: a copy of another's with a byte changed.
func plant(t *testing.T, bare string) {
	t.Helper()
	tip := strings.TrimSpace(gitRun(t, bare, "rev-parse", "refs/heads/muse-sync"))
	var src string
	for _, l := range strings.Split(gitRun(t, bare, "log", "--raw", "--no-abbrev", "--format=", "refs/heads/muse-sync"), "\n") {
		if f := strings.Fields(l); len(f) == 6 && strings.HasSuffix(f[5], ".age") && !strings.HasSuffix(f[5], "key.age") && f[4] == "A" {
			src = f[3]
			break
		}
	}
	if src == "" {
		t.Fatal("no bundle to copy")
	}
	data, err := exec.Command("git", "-C", bare, "cat-file", "blob", src).Output()
	if err != nil {
		t.Fatal(err)
	}
	data[len(data)-20] ^= 0xff
	blob := hashObject(t, bare, data)
	key := strings.TrimSpace(gitRun(t, bare, "rev-parse", tip+":muse-sync/v1/key.age"))
	readme := strings.TrimSpace(gitRun(t, bare, "rev-parse", tip+":muse-sync/README"))
	m := mktree(t, bare, "100644 blob "+blob+"\t0.age")
	v1 := mktree(t, bare, "100644 blob "+key+"\tkey.age\n040000 tree "+m+"\tffffffffffffffff")
	ms := mktree(t, bare, "100644 blob "+readme+"\tREADME\n040000 tree "+v1+"\tv1")
	root := mktree(t, bare, "040000 tree "+ms+"\tmuse-sync")
	c := strings.TrimSpace(gitRun(t, bare, "-c", "user.name=x", "-c", "user.email=x@x", "commit-tree", root, "-p", tip, "-m", "x"))
	gitRun(t, bare, "update-ref", "refs/heads/muse-sync", c, tip)
}

// hashObject writes data as a blob of the repository.
func hashObject(t *testing.T, repo string, data []byte) string {
	cmd := exec.Command("git", "-C", repo, "hash-object", "-w", "--stdin")
	cmd.Stdin = bytes.NewReader(data)
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

// mktree writes a tree of entries.
func mktree(t *testing.T, repo, entries string) string {
	cmd := exec.Command("git", "-C", repo, "mktree")
	cmd.Stdin = strings.NewReader(entries + "\n")
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	return strings.TrimSpace(string(out))
}

// fail runs muse, which must fail, and returns its output and error output.
func (h *home) fail(t *testing.T, args ...string) (string, string) {
	t.Helper()
	out, stderr, err := h.exec(args...)
	if err == nil {
		t.Fatalf("muse %s succeeded:\n%s", strings.Join(args, " "), out)
	}
	return out, stderr
}

// runBoth runs muse, which must succeed, and returns its output and error
// output.
func (h *home) runBoth(t *testing.T, args ...string) (string, string) {
	t.Helper()
	out, stderr, err := h.exec(args...)
	if err != nil {
		t.Fatalf("muse %s: %v\n%s", strings.Join(args, " "), err, stderr)
	}
	return out, stderr
}

// exec runs muse in h.
func (h *home) exec(args ...string) (string, string, error) {
	cmd := exec.Command(museBin, args...)
	cmd.Env, cmd.Dir = h.env, h.dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	return stdout.String(), stderr.String(), err
}

// withGitKiller returns h with a git on its PATH that kills muse (kill -9,
// its parent) when muse runs git's subcommand sub.
func (h *home) withGitKiller(t *testing.T, sub string) *home {
	t.Helper()
	bin := filepath.Join(h.dir, "killer-"+sub)
	if err := os.MkdirAll(bin, 0o700); err != nil {
		t.Fatal(err)
	}
	script := "#!/bin/sh\nif [ \"$3\" = " + sub + " ]; then kill -9 $PPID; exit 1; fi\nexec " + gitPath(t) + " \"$@\"\n"
	if err := os.WriteFile(filepath.Join(bin, "git"), []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	k := &home{dir: h.dir}
	for _, kv := range h.env {
		if v, ok := strings.CutPrefix(kv, "PATH="); ok {
			kv = "PATH=" + bin + ":" + v
		}
		k.env = append(k.env, kv)
	}
	return k
}

// failKilled runs muse, which must die of SIGKILL.
func (h *home) failKilled(t *testing.T, args ...string) {
	t.Helper()
	_, stderr, err := h.exec(args...)
	ee, ok := err.(*exec.ExitError)
	if !ok || ee.ExitCode() != -1 {
		t.Fatalf("muse %s was not killed: %v\n%s", strings.Join(args, " "), err, stderr)
	}
}

// journal returns the journal of the session id in h.
func journal(t *testing.T, h *home, id string) string {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(h.dir, "data", "muse", "sessions", id+".jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// sameRecords reports whether a and b hold the same lines, in any order.
func sameRecords(a, b string) bool {
	la, lb := strings.Split(a, "\n"), strings.Split(b, "\n")
	slices.Sort(la)
	slices.Sort(lb)
	return slices.Equal(la, lb)
}

// uniq returns the distinct strings of ss.
func uniq(ss []string) map[string]bool {
	m := map[string]bool{}
	for _, s := range ss {
		m[s] = true
	}
	return m
}

var idRE = regexp.MustCompile(`(?m)^([0-9]{8}-[0-9]{6}-[0-9a-zA-Z]+)\s`)

// firstID returns the first session id of a sessions list.
func firstID(t *testing.T, list string) string {
	t.Helper()
	m := idRE.FindStringSubmatch(list)
	if m == nil {
		t.Fatalf("no session in:\n%s", list)
	}
	return m[1]
}

// TestAutoSync runs the chat screen with sync = "auto": the status line
// shows the sync after a reply, a remote gone away shows as an error while
// the chat goes on, and on quit the last sync sends everything: a second
// machine finds both prompts.
func TestAutoSync(t *testing.T) {
	t.Parallel()
	needGit(t)
	bare, url := newRemote(t, "path")
	a := newHome(t, "default_profile = \"s\"\n[profiles.s]\nsync = \"auto\"\n")
	a.run(t, "sync", "init", url)
	key := strings.TrimSpace(a.run(t, "sync", "key"))

	tm := start(t, a, 100, 30, "--demo")
	tm.waitFor("Ask anything")
	tm.typ("tell me about pangolins\r")
	tm.waitForHeading("tell me about pangolins")
	tm.waitUntil("the status line says synced", waitDeadline, func(s string) bool { return strings.Contains(statusLine(s), "synced") })
	if err := os.Rename(bare, bare+".away"); err != nil {
		t.Fatal(err)
	}
	tm.typ("and about okapis\r")
	tm.waitForHeading("and about okapis")
	tm.waitUntil("the status line shows the sync's error", waitDeadline, func(s string) bool { return strings.Contains(statusLine(s), "sync ✗") })
	if err := os.Rename(bare+".away", bare); err != nil {
		t.Fatal(err)
	}
	tm.typ("\x04") // ctrl+d: quit, with a last sync
	if code := tm.waitExit(); code != 0 {
		t.Fatalf("muse exited %d", code)
	}

	b := newHome(t, "")
	b.env = append(b.env, "MUSE_SYNC_KEY="+key)
	b.run(t, "sync", "init", url)
	b.run(t, "sync")
	for _, w := range []string{"pangolins", "okapis"} {
		if out := b.run(t, "sessions", "search", w); !strings.Contains(out, w) {
			t.Errorf("B does not find %q:\n%s", w, out)
		}
	}
	// B's picker finds A's words too.
	tb := start(t, b, 100, 30, "--demo")
	tb.waitFor("Ask anything")
	tb.typ("\x13") // ctrl+s: the picker
	tb.waitFor("f search •")
	tb.typ("fokapis")
	tb.waitUntil("a hit for okapis", waitDeadline, func(s string) bool {
		return strings.Contains(s, `for "okapis"`) && strings.Contains(s, "and about okapis")
	})
}
