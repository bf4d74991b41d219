package cli

import (
	"net"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"muse/session"
	"muse/session/prompts"
)

// A -p whose prompt gets no answer, from a server that cannot be reached,
// leaves no new session holding the prompt alone (sessions list would fill
// with them): it says so, with the command that sends the prompt again,
// pasteable, and the prompt is kept in the prompt history. With -c the
// session continued keeps the prompt, as before; so does a new session
// whose request the server answered with an error (its request id is
// saved with it).
func TestPrintNoReplySavesNoSession(t *testing.T) {
	refusing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"type":"error","error":{"type":"invalid_request_error","message":"no"}}`))
	}))
	defer refusing.Close()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := "http://" + l.Addr().String()
	l.Close() // nothing listens there now
	env := map[string]string{"MUSE_BASE_URL": refusing.URL, "MUSE_ACCESS_TOKEN": "t", "MUSE_MODEL": "m"}
	if r := runMain(t, env, "", "-p", "refused"); r.code != ExitFailed || strings.Contains(r.stderr, "nothing was saved") {
		t.Errorf("refused: code %d, stderr %q", r.code, r.stderr)
	}
	store, err := session.Open(filepath.Join(env["XDG_DATA_HOME"], "muse", "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	if list, err := store.List(); err != nil || len(list) != 1 {
		t.Errorf("the refused prompt's session: %+v (%v)", list, err)
	}
	for _, tc := range []struct{ name, url string }{{"unreachable", closed}} {
		t.Run(tc.name, func(t *testing.T) {
			data := t.TempDir()
			env := map[string]string{"XDG_DATA_HOME": data, "MUSE_BASE_URL": tc.url, "MUSE_ACCESS_TOKEN": "t", "MUSE_MODEL": "m"}
			r := runMain(t, env, "", "-p", "it's a test")
			want := `nothing was saved: the prompt got no answer; send it again with: muse -p 'it'\''s a test'`
			if r.code != ExitFailed || !strings.Contains(r.stderr, want) {
				t.Fatalf("code %d, stderr %q, want %q", r.code, r.stderr, want)
			}
			dir := filepath.Join(data, "muse", "sessions")
			store, err := session.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			if list, err := store.List(); err != nil || len(list) != 0 {
				t.Errorf("sessions saved: %+v (%v)", list, err)
			}
			h, err := prompts.Open(prompts.Path(dir), 0)
			if err != nil {
				t.Fatal(err)
			}
			if es := h.Entries(); len(es) != 1 || es[0].Text != "it's a test" {
				t.Errorf("the prompt history holds %+v", es)
			}

			// -c goes on with a session: the prompt is saved in it.
			if r := runMain(t, map[string]string{"XDG_DATA_HOME": data}, "", "--demo", "-p", "first"); r.code != 0 {
				t.Fatalf("--demo: %d %s", r.code, r.stderr)
			}
			r = runMain(t, env, "", "-c", "-p", "second")
			if r.code != ExitFailed || strings.Contains(r.stderr, "nothing was saved") {
				t.Errorf("-c: code %d, stderr %q", r.code, r.stderr)
			}
			list, err := store.List()
			if err != nil || len(list) != 1 {
				t.Fatalf("sessions after -c: %+v (%v)", list, err)
			}
			s, err := store.Load(list[0].ID)
			if err != nil {
				t.Fatal(err)
			}
			if n := len(s.All); n < 3 || s.All[2].Text != "second" {
				t.Errorf("the session continued holds %d entries: %+v", n, s.All)
			}
		})
	}
}

// The hint that sends the prompt again is the command as it ran, quoted
// for a shell; a prompt the command line does not hold (read from
// standard input) or one that would not print as typed points to the
// prompt history instead.
func TestAgainHint(t *testing.T) {
	env := Env{Command: "go run .", args: []string{"-m", "big model", "-p", "hi"}}
	if got := againHint(env, false); !strings.HasSuffix(got, "send it again with: go run . -m 'big model' -p hi") {
		t.Errorf("hint %q", got)
	}
	if got := againHint(env, true); !strings.Contains(got, "prompt history") {
		t.Errorf("stdin: %q", got)
	}
	env.args = []string{"-p", "a\x1b[31mred"}
	if got := againHint(env, false); !strings.Contains(got, "prompt history") || strings.ContainsRune(got, 0x1b) {
		t.Errorf("escape: %q", got)
	}
}
