package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"muse/api"
	"muse/api/demo"
	"muse/session"
	"muse/ui/engine"
)

// Every -p run is a session, and -c -p goes on with it: every round of a
// tool turn included.
func TestEveryRunIsSaved(t *testing.T) {
	env := map[string]string{"XDG_DATA_HOME": t.TempDir()}
	if r := runMain(t, env, "", "--demo", "-p", "a"); r.code != 0 {
		t.Fatalf("-p: %+v", r)
	}
	if r := runMain(t, env, "", "--demo", "-c", "-p", "b"); r.code != 0 {
		t.Fatalf("-c -p after -p: %+v", r)
	}
	tools := filepath.Join(t.TempDir(), "tools.json")
	os.WriteFile(tools, []byte(`[{"name":"get_time","description":"d","input_schema":{"type":"object"},"command":["sh","-c","cat >/dev/null; echo 12:00"]}]`), 0o600)
	if r := runMain(t, env, "", "--demo", "-c", "--tools", tools, "--allow-tools", "-p", "demo:tool time?"); r.code != 0 {
		t.Fatalf("-c -p with a tool: %+v", r)
	}
	store, err := session.Open(filepath.Join(env["XDG_DATA_HOME"], "muse", "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	infos, err := store.List()
	if err != nil || len(infos) != 1 {
		t.Fatalf("sessions %+v, %v; want one", infos, err)
	}
	sess, err := store.Load(infos[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, e := range sess.Entries {
		kinds = append(kinds, e.Kind)
	}
	want := "user assistant user assistant user assistant tool assistant"
	if got := strings.Join(kinds, " "); got != want {
		t.Fatalf("entries %q, want %q", got, want)
	}
	if r := sess.Entries[6].ToolResults; len(r) != 1 || !strings.Contains(r[0].Output, "12:00") {
		t.Errorf("tool results %+v", r)
	}
	if !strings.Contains(sess.Entries[7].Message.Text(), "12:00") {
		t.Errorf("the reply after the tool: %q", sess.Entries[7].Message.Text())
	}
	if sess.Title != "a" {
		t.Errorf("title %q", sess.Title)
	}
}

// --no-save runs the turn and leaves no session behind; with -c it is an
// error, since there would be nothing to continue into.
func TestNoSave(t *testing.T) {
	env := map[string]string{"XDG_DATA_HOME": t.TempDir()}
	if r := runMain(t, env, "", "--demo", "--no-save", "-p", "hello"); r.code != 0 || r.stdout == "" {
		t.Fatalf("--no-save: %+v", r)
	}
	store, err := session.Open(filepath.Join(env["XDG_DATA_HOME"], "muse", "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	if infos, err := store.List(); err != nil || len(infos) != 0 {
		t.Errorf("--no-save left %d sessions (%v)", len(infos), err)
	}
	if r := runMain(t, env, "", "--demo", "--no-save", "-c", "-p", "x"); r.code != 2 {
		t.Errorf("--no-save -c: %+v", r)
	}
}

// Tools run by -p get the configured time limit, and none of muse's
// credentials: the result names the real cause.
func TestToolTimeoutAndCredentials(t *testing.T) {
	env := map[string]string{"XDG_DATA_HOME": t.TempDir(), "MUSE_ACCESS_TOKEN": "sekrit-token"}
	tools := filepath.Join(t.TempDir(), "tools.json")
	os.WriteFile(tools, []byte(`[{"name":"get_time","description":"d","input_schema":{"type":"object"},"command":["sh","-c","cat >/dev/null; echo tok=$MUSE_ACCESS_TOKEN; sleep 100"]}]`), 0o600)
	r := runMain(t, env, "", "--demo", "--tools", tools, "--allow-tools", "--tool-timeout", "1s", "-p", "demo:tool time?")
	if r.code != 0 {
		t.Fatalf("run: %+v", r)
	}
	store, _ := session.Open(filepath.Join(env["XDG_DATA_HOME"], "muse", "sessions"))
	sess, err := store.Latest()
	if err != nil {
		t.Fatal(err)
	}
	var out string
	for _, e := range sess.Entries {
		for _, res := range e.ToolResults {
			out += res.Output
		}
	}
	if !strings.Contains(out, "timed out after 1s") || strings.Contains(out, "sekrit") || !strings.Contains(out, "tok=") {
		t.Errorf("tool result %q: want the timeout named and no token", out)
	}
}

// --demo offers its own tool: demo:tool runs it with no configuration.
func TestDemoOffersItsTool(t *testing.T) {
	r := runMain(t, nil, "", "--demo", "--allow-tools", "-p", "demo:tool what time is it?")
	if r.code != 0 || !strings.Contains(r.stdout, "The tool returned:") || !strings.Contains(r.stdout, "UTC") {
		t.Errorf("%+v", r)
	}
}

// closedPipe takes n bytes, then fails as a pipe whose reader left does.
type closedPipe struct{ n int }

func (c *closedPipe) Write(p []byte) (int, error) {
	if c.n <= 0 {
		return 0, syscall.EPIPE
	}
	c.n -= len(p)
	return len(p), nil
}

// muse -p … | head: the reader leaves early; the reply is saved, marked
// cancelled, and muse exits quietly.
func TestPrintIntoAClosedPipeSavesTheReply(t *testing.T) {
	env := map[string]string{"XDG_DATA_HOME": t.TempDir()}
	var errb bytes.Buffer
	code := Main([]string{"--demo", "-p", "demo:long tell me"}, Env{
		Stdin: strings.NewReader(""), Stdout: &closedPipe{n: 200}, Stderr: &errb,
		Getenv: func(k string) string { return env[k] },
	})
	if code != 0 || errb.Len() > 0 {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	store, _ := session.Open(filepath.Join(env["XDG_DATA_HOME"], "muse", "sessions"))
	sess, err := store.Latest()
	if err != nil {
		t.Fatal(err)
	}
	if n := len(sess.Entries); n != 2 || sess.Entries[1].Status != session.StatusCancelled || sess.Entries[1].Message.Text() == "" {
		t.Fatalf("entries %+v", sess.Entries)
	}
}

// A record the writer refuses and does not keep is lost for good, as a
// reply too large to save is: -p prints the reply, says the session is not
// saved whole, and exits 1. (A closed writer refuses every record so.)
func TestPrintExitsOneWhenARecordIsLost(t *testing.T) {
	srv, err := demo.Start(demo.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	client := api.New(srv.URL, api.WithAccessToken(demo.DefaultToken))
	defer client.Close()
	store, err := session.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	w := session.NewWriter(store, session.Params{Model: "demo-chat", MaxTokens: 1000})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	var out, errb bytes.Buffer
	env := Env{Stdout: &out, Stderr: &errb, Getenv: func(string) string { return "" }}
	f := &flags{set: func(string) bool { return false }}
	code, _ := printTurn(context.Background(), env, f, &config{}, client, w, engine.Turn{Prompt: "hello", Params: w.Params()})
	if code != ExitFailed || !strings.Contains(errb.String(), "not saved") || !strings.Contains(out.String(), "hello") {
		t.Errorf("exit %d, stderr %q, stdout %q: want 1, the session not saved, the reply", code, errb.String(), out.String())
	}
}

// Records that cannot be written wait in the writer; when they still
// cannot be written at exit (here: a tool removes the session's journal
// during the turn), -p says how many changes are not saved and exits 1.
func TestPrintExitsOneWithChangesWaiting(t *testing.T) {
	env := map[string]string{"XDG_DATA_HOME": t.TempDir()}
	dir := filepath.Join(env["XDG_DATA_HOME"], "muse", "sessions")
	tools := filepath.Join(t.TempDir(), "tools.json")
	os.WriteFile(tools, []byte(`[{"name":"get_time","description":"d","input_schema":{"type":"object"},"command":["sh","-c","cat >/dev/null; rm `+dir+`/*.jsonl; echo 12:00"]}]`), 0o600)
	r := runMain(t, env, "", "--demo", "--tools", tools, "--allow-tools", "-p", "demo:tool time?")
	if r.code != 1 || !strings.Contains(r.stderr, "changes not saved") || !strings.Contains(r.stdout, "12:00") {
		t.Errorf("%+v: want exit 1, changes not saved, the reply after the tool", r)
	}
}
