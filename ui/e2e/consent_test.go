//go:build linux

package e2e

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"muse/api/demo"
)

// Consent, in a real terminal: a file leaves only once its chip was on
// screen and enter was pressed again, unless the user attached it with a
// typed @, /attach or -a; ~/.ssh and the like never leave through a
// mention. The service is the demo behind a recorder, so the tests see
// every byte that left.

// secretKey is what ~/.ssh/id_rsa holds in these tests.
const secretKey = "PRIVATE-KEY-e2e-7d31"

// recordServer is the demo service keeping every message request's body.
type recordServer struct {
	srv    *httptest.Server
	mu     sync.Mutex
	bodies []string
}

// newRecordServer starts a recordServer, closed when t ends.
func newRecordServer(t *testing.T) *recordServer {
	s := &recordServer{}
	service := demo.NewHandler(demo.Options{})
	s.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			return
		}
		if strings.HasSuffix(r.URL.Path, "/messages") {
			s.mu.Lock()
			s.bodies = append(s.bodies, string(body))
			s.mu.Unlock()
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		service.ServeHTTP(w, r)
	}))
	t.Cleanup(s.srv.Close)
	return s
}

// requests are the message requests' bodies so far.
func (s *recordServer) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.bodies...)
}

// consentHome is a home with ~/.ssh/id_rsa, notes.md and drop.txt, muse
// pointed at a recordServer.
func consentHome(t *testing.T) (*home, *recordServer) {
	h := newHome(t, "")
	rec := newRecordServer(t)
	h.env = append(h.env,
		"MUSE_BASE_URL="+rec.srv.URL,
		"MUSE_ACCESS_TOKEN="+demo.DefaultToken,
		"MUSE_MODEL=demo-chat",
		"MUSE_IMAGE_MODEL=demo-image",
	)
	ssh := filepath.Join(h.dir, "home", ".ssh")
	os.MkdirAll(ssh, 0o700)
	for path, text := range map[string]string{
		filepath.Join(ssh, "id_rsa"):     secretKey + "\n",
		filepath.Join(h.dir, "notes.md"): "NOTES-BYTES\n",
		filepath.Join(h.dir, "drop.txt"): "DROP-BYTES\n",
	} {
		if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	return h, rec
}

// checkSent fails t unless exactly n message requests were sent, none
// with the key, the last with each of want.
func checkSent(t *testing.T, rec *recordServer, n int, want ...string) {
	t.Helper()
	reqs := rec.requests()
	if len(reqs) != n {
		t.Fatalf("%d message requests, want %d", len(reqs), n)
	}
	for i, b := range reqs {
		if strings.Contains(b, secretKey) {
			t.Errorf("request %d carried the private key", i+1)
		}
	}
	for _, w := range want {
		if n == 0 || !strings.Contains(reqs[n-1], w) {
			t.Errorf("the last request lacks %q", w)
		}
	}
}

// quitNow ends muse with ctrl+c twice (the first clears the input, if it
// holds anything) and checks it exits cleanly.
func quitNow(t *testing.T, tm *term) {
	t.Helper()
	tm.typ("\x03")
	tm.waitUntil("the input to be empty", waitDeadline, func(s string) bool { return strings.Contains(s, "Ask anything") })
	tm.typ("\x03\x03")
	if code := tm.waitExit(); code != 0 {
		t.Errorf("muse exited with status %d", code)
	}
}

// A bracketed paste of a sentence naming ~/.ssh/id_rsa and notes.md, then
// drop.txt dropped on the terminal (a bracketed paste of its path): the
// first enter shows the two files as chips and says the key is not
// attached, and sends nothing; the second sends the two files, never the
// key.
func TestConsentBracketedPasteAndDrop(t *testing.T) {
	t.Parallel()
	h, rec := consentHome(t)
	tm := start(t, h, 160, 30)
	tm.waitFor("Ask anything")
	tm.typ("\x1b[200~please review @~/.ssh/id_rsa and @" + filepath.Join(h.dir, "notes.md") + " with \x1b[201~")
	tm.waitFor("please review")
	tm.typ("\x1b[200~" + filepath.Join(h.dir, "drop.txt") + "\x1b[201~")
	tm.waitFor("pasted a file: drop.txt")
	tm.typ("\r")
	tm.waitUntil("the chips, and the key left out", waitDeadline, func(s string) bool {
		return strings.Contains(s, "[1] notes.md") && strings.Contains(s, "[2] drop.txt") && strings.Contains(s, "not attached: ~/.ssh/id_rsa")
	})
	checkSent(t, rec, 0)
	tm.typ("\r")
	tm.waitFor("stop end_turn")
	checkSent(t, rec, 1, "NOTES-BYTES", "DROP-BYTES")
	quitNow(t, tm)
}

// A burst of keys in one read without bracketed paste, as tmux send-keys
// or dictation types: the paths in it stay text, and the first enter
// sends it as it is, with no file.
func TestConsentBurstWithoutPaste(t *testing.T) {
	t.Parallel()
	h, rec := consentHome(t)
	tm := start(t, h, 160, 30)
	tm.waitFor("Ask anything")
	notes := filepath.Join(h.dir, "notes.md")
	text := "compare " + notes + " with ~/.ssh/id_rsa"
	tm.typ(text)
	tm.waitUntil("the burst in the input", waitDeadline, func(s string) bool { return strings.Contains(s, "id_rsa") })
	tm.typ("\r")
	tm.waitFor("stop end_turn")
	checkSent(t, rec, 1, text)
	if b := rec.requests()[0]; strings.Contains(b, "NOTES-BYTES") || strings.Contains(b, "@"+notes) {
		t.Errorf("a path in the burst became a mention: %s", b)
	}
	quitNow(t, tm)
}

// Text back from $EDITOR naming ~/.ssh/id_rsa and notes.md: the first
// enter shows notes.md as a chip and leaves the key out, the second sends.
func TestConsentEditorHandOver(t *testing.T) {
	t.Parallel()
	h, rec := consentHome(t)
	editor := filepath.Join(h.dir, "mention-editor.sh")
	script := "#!/bin/sh\nprintf '%s' 'summarize @~/.ssh/id_rsa and @" + filepath.Join(h.dir, "notes.md") + "' > \"$1\"\n"
	if err := os.WriteFile(editor, []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	h.env = append(h.env, "EDITOR="+editor)
	tm := start(t, h, 160, 30)
	tm.waitFor("Ask anything")
	tm.typ("\x18") // ctrl+x: the input in $EDITOR
	tm.waitUntil("the editor's text in the input", waitDeadline, func(s string) bool {
		return strings.Contains(inputLine(s), "summarize @~/.ssh/id_rsa")
	})
	tm.typ("\r")
	tm.waitUntil("the chip, and the key left out", waitDeadline, func(s string) bool {
		return strings.Contains(s, "[1] notes.md") && strings.Contains(s, "not attached: ~/.ssh/id_rsa")
	})
	checkSent(t, rec, 0)
	tm.typ("\r")
	tm.waitFor("stop end_turn")
	checkSent(t, rec, 1, "NOTES-BYTES")
	quitNow(t, tm)
}

// --attach is the user's own: it sends the key, and says what it is on
// standard error.
func TestConsentAttachFlagWarns(t *testing.T) {
	t.Parallel()
	h, rec := consentHome(t)
	cmd := exec.Command(museBin, "-p", "is this safe?", "-a", "~/.ssh/id_rsa")
	cmd.Args[len(cmd.Args)-1] = filepath.Join(h.dir, "home", ".ssh", "id_rsa")
	cmd.Env, cmd.Dir = h.env, h.dir
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if _, err := cmd.Output(); err != nil {
		t.Fatalf("muse -p -a: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), "warning: id_rsa is in ~/.ssh") {
		t.Errorf("no warning on standard error: %q", stderr.String())
	}
	if reqs := rec.requests(); len(reqs) != 1 || !strings.Contains(reqs[0], secretKey) {
		t.Errorf("-a should send the file it names: %d requests", len(reqs))
	}
}

// A mention typed key by key and completed with tab is the user's own
// choice: one enter attaches the file and sends it.
func TestConsentTypedMentionSendsAtOnce(t *testing.T) {
	t.Parallel()
	h, rec := consentHome(t)
	tm := start(t, h, 160, 30)
	tm.waitFor("Ask anything")
	typed := ""
	for _, k := range []string{"r", "e", "a", "d", " ", "@", "n", "o", "\t"} {
		tm.typ(k)
		if k == "\t" {
			typed += "tes.md "
		} else {
			typed += k
		}
		want := "› " + strings.TrimRight(typed, " ")
		tm.waitUntil("the key "+k, waitDeadline, func(s string) bool { return strings.HasPrefix(inputLine(s), want) })
	}
	tm.typ("\r")
	tm.waitFor("stop end_turn")
	checkSent(t, rec, 1, "NOTES-BYTES", "read @notes.md")
	quitNow(t, tm)
}
