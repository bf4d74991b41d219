package cli

import (
	"bytes"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// runAs is runMain with muse run as cmd (env.Command), as under go run .
func runAs(t *testing.T, cmd string, env map[string]string, args ...string) run {
	t.Helper()
	var out, errb bytes.Buffer
	e := Env{Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errb, Command: cmd,
		Getenv: func(k string) string { return env[k] }}
	code := Main(args, e)
	return run{code, out.String(), errb.String()}
}

// museCommand finds a muse command a hint names: a word, then one of
// muse's commands that sync and doctor send the reader to.
var museCommand = regexp.MustCompile(`(\S+) (sync init|sync key prints|sync gc|sync to|sync;|sync here|config init)`)

// checkAsRun fails unless every command out names is run as "go run .".
func checkAsRun(t *testing.T, what, out string, want ...string) {
	t.Helper()
	for _, m := range museCommand.FindAllStringSubmatch(out, -1) {
		if m[1] != "." && m[1] != "(go" {
			t.Errorf("%s: %q is not run as go run .: %q", what, m[0], out)
		}
	}
	for _, w := range want {
		if !strings.Contains(out, w) {
			t.Errorf("%s: no %q in %q", what, w, out)
		}
	}
}

// Under go run ., every command sync and doctor send the reader to is
// written "go run . …", so that it works when pasted.
func TestSyncAndDoctorHintsNameMuseAsRun(t *testing.T) {
	needGit(t)
	const muse = "go run ."
	home := map[string]string{"XDG_STATE_HOME": t.TempDir(), "XDG_DATA_HOME": t.TempDir(), "XDG_CONFIG_HOME": t.TempDir(), "HOME": t.TempDir()}
	r := runAs(t, muse, home, "doctor")
	checkAsRun(t, "doctor", r.stdout, muse+" config init writes an example", "not set up ("+muse+" sync init REMOTE)")
	r = runAs(t, muse, home, "sync", "key")
	checkAsRun(t, "sync key", r.stderr, muse+" sync init REMOTE")
	r = runAs(t, muse, home, "sync")
	checkAsRun(t, "sync", r.stderr, muse+" sync init REMOTE")

	remote := filepath.Join(t.TempDir(), "remote.git")
	r = runAs(t, muse, home, "sync", "init", remote)
	checkAsRun(t, "init, missing", r.stderr, "then run: "+muse+" sync init ")
	if out, err := exec.Command("git", "init", "--quiet", "--bare", remote).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	r = runAs(t, muse, home, "sync", "init", remote)
	if r.code != 0 {
		t.Fatalf("init: code %d stderr %q", r.code, r.stderr)
	}
	checkAsRun(t, "init", r.stdout, muse+" sync key prints it", "Run "+muse+" sync to sync now")
	if strings.Contains(r.stdout+r.stderr, "muse sync") {
		t.Errorf("plain muse in %q", r.stdout)
	}
}

// A sync, or --status, after the remote was moved away says once that it
// does not exist and how to make one, as sync init does; not git's
// "does not appear to be a git repository".
func TestSyncAfterRemoteMovedSaysHowToMakeIt(t *testing.T) {
	needGit(t)
	const muse = "go run ."
	home := map[string]string{"XDG_STATE_HOME": t.TempDir(), "XDG_DATA_HOME": t.TempDir(), "XDG_CONFIG_HOME": t.TempDir(), "HOME": t.TempDir()}
	remote := filepath.Join(t.TempDir(), "remote.git")
	if out, err := exec.Command("git", "init", "--quiet", "--bare", remote).CombinedOutput(); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if r := runAs(t, muse, home, "sync", "init", remote); r.code != 0 {
		t.Fatalf("init: code %d stderr %q", r.code, r.stderr)
	}
	if err := os.Rename(remote, remote+".moved"); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"sync"}, {"sync", "--status"}} {
		r := runAs(t, muse, home, args...)
		out := r.stdout + r.stderr
		if r.code == 0 || strings.Count(out, "does not exist") != 1 || strings.Contains(out, "appear") {
			t.Errorf("%v: code %d output %q", args, r.code, out)
		}
		checkAsRun(t, strings.Join(args, " "), out, "make an empty one with: git init --bare "+remote, "then run: "+muse+" sync init "+remote)
	}
	// The failure kept for doctor names muse as run too.
	r := runAs(t, muse, home, "doctor", "--offline")
	checkAsRun(t, "doctor", r.stdout, "last attempt failed: the remote "+remote+" does not exist", "then run "+muse+" sync init again")
}

// -p's "doctor checks it", when the base URL came from --base-url, gives
// it in MUSE_BASE_URL (doctor has no --base-url flag), with muse as run.
func TestPrintConnectHintRunsDoctorWithTheFlagsBaseURL(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + ln.Addr().String()
	if err := ln.Close(); err != nil { // nothing listens there now
		t.Fatal(err)
	}
	env := map[string]string{"XDG_STATE_HOME": t.TempDir(), "XDG_DATA_HOME": t.TempDir(), "XDG_CONFIG_HOME": t.TempDir(), "HOME": t.TempDir(), "MUSE_API_KEY": "k", "MUSE_MODEL": "m"}
	r := runAs(t, "go run .", env, "--base-url", base, "--no-save", "-p", "hi")
	if r.code == 0 || !strings.Contains(r.stderr, "; MUSE_BASE_URL="+base+" go run . doctor checks it") || strings.Contains(r.stderr, "muse doctor") {
		t.Fatalf("code %d stderr %q", r.code, r.stderr)
	}
	env["MUSE_BASE_URL"] = base
	r = runAs(t, "go run .", env, "--no-save", "-p", "hi")
	if r.code == 0 || !strings.Contains(r.stderr, "; go run . doctor checks it") || strings.Contains(r.stderr, "MUSE_BASE_URL=") {
		t.Fatalf("from MUSE_BASE_URL: code %d stderr %q", r.code, r.stderr)
	}
}
