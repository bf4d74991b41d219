//go:build linux

package e2e

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// Links out of the working folder (attack review): a cloned project's
// README.md, a link to ~/.config/gh/hosts.yml, mentioned with a typed @
// and tab. muse runs in the project, its home beside it, the demo service
// behind a recorder.

// ghToken is what ~/.config/gh/hosts.yml holds in these tests.
const ghToken = "gho_SECRET_e2e_51c7"

// linkProject is consentHome's home with ~/.config/gh/hosts.yml and
// ~/private/notes.txt, and beside it the project muse runs in, whose
// README.md and NOTES.md are links to them; muse pointed at a
// recordServer.
func linkProject(t *testing.T) (*home, *recordServer) {
	t.Helper()
	h, rec := consentHome(t)
	hosts := filepath.Join(h.dir, "home", ".config", "gh", "hosts.yml")
	notes := filepath.Join(h.dir, "home", "private", "notes.txt")
	proj := filepath.Join(h.dir, "proj")
	for path, text := range map[string]string{hosts: "oauth_token: " + ghToken + "\n", notes: "PRIVATE-NOTES\n"} {
		if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.MkdirAll(proj, 0o700); err != nil {
		t.Fatal(err)
	}
	for link, to := range map[string]string{"README.md": hosts, "NOTES.md": notes} {
		if err := os.Symlink(to, filepath.Join(proj, link)); err != nil {
			t.Fatal(err)
		}
	}
	return &home{dir: proj, env: h.env}, rec
}

// typeMention types "explain @" and start key by key, then tab, waiting
// for each key, and checks the input reads "explain @name".
func typeMention(t *testing.T, tm *term, start, name string) {
	t.Helper()
	typed := ""
	for _, k := range strings.Split("explain @"+start, "") {
		tm.typ(k)
		typed += k
		want := "› " + strings.TrimRight(typed, " ") // the line is read without its trailing spaces
		tm.waitUntil("the key "+k, waitDeadline, func(s string) bool { return strings.HasPrefix(inputLine(s), want) })
	}
	tm.typ("\t")
	tm.waitUntil("tab to complete "+name, waitDeadline, func(s string) bool { return inputLine(s) == "› explain @"+name })
}

// checkNoToken fails t unless exactly n message requests were sent, none
// with ~/.ssh's key (checkSent) or the gh token.
func checkNoToken(t *testing.T, rec *recordServer, n int) {
	t.Helper()
	checkSent(t, rec, n)
	for i, b := range rec.requests() {
		if strings.Contains(b, ghToken) {
			t.Errorf("request %d carried the gh token", i+1)
		}
	}
}

// enterTwice mentions name in the project (typing prefix, then tab) and
// presses enter: the screen shows shown, and nothing is sent; enter again
// sends one request, without the token, which it returns.
func enterTwice(t *testing.T, prefix, name, shown string) string {
	t.Helper()
	h, rec := linkProject(t)
	tm := start(t, h, 160, 30)
	tm.waitFor("Ask anything")
	typeMention(t, tm, prefix, name)
	tm.typ("\r")
	tm.waitFor(shown)
	checkNoToken(t, rec, 0)
	tm.typ("\r")
	tm.waitFor("stop end_turn")
	checkNoToken(t, rec, 1)
	quitNow(t, tm)
	return rec.requests()[0]
}

// The repro: `explain @RE`, tab, enter. The token never leaves: the
// status line says README.md leads to ~/.config/gh/hosts.yml and is not
// attached; the next enter sends the text alone.
func TestMentionLinkToTokenNeverSent(t *testing.T) {
	t.Parallel()
	enterTwice(t, "RE", "README.md", "not attached: README.md → ~/.config/gh/hosts.yml is in ~/.config/gh")
}

// A link out of the folder to a file on no list: the first enter shows
// its chip naming the target and sends nothing; the second sends it.
func TestMentionLinkOutWaitsForEnter(t *testing.T) {
	t.Parallel()
	if b := enterTwice(t, "NO", "NOTES.md", "[1] NOTES.md → ~/private/notes.txt · 14 B"); !strings.Contains(b, "PRIVATE-NOTES") {
		t.Errorf("the confirmed file was not sent: %s", b)
	}
}

// -a README.md names a link, not the token it leads to: muse -p refuses
// it before sending anything and names the target.
func TestAttachFlagLinkOutRefused(t *testing.T) {
	t.Parallel()
	h, rec := linkProject(t)
	cmd := exec.Command(museBin, "-p", "explain", "-a", "README.md")
	cmd.Env, cmd.Dir = h.env, h.dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err := cmd.Run()
	if code := cmd.ProcessState.ExitCode(); err == nil || code != 2 {
		t.Errorf("muse -p -a README.md: %v, exit %d, want 2", err, code)
	}
	if !strings.Contains(stderr.String(), "README.md leads through a link out of the working folder, to ~/.config/gh/hosts.yml") {
		t.Errorf("stderr %q", stderr.String())
	}
	checkNoToken(t, rec, 0)
}
