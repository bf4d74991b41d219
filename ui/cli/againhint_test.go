package cli

import (
	"net"
	"path/filepath"
	"strings"
	"testing"

	"muse/session"
	"muse/session/prompts"
)

// closedURL is the address of a server that cannot be reached: nothing
// listens there.
func closedURL(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	url := "http://" + l.Addr().String()
	l.Close()
	return url
}

// sessionsIn lists the sessions saved under the data folder data.
func sessionsIn(t *testing.T, data string) (*session.Store, []session.Info) {
	t.Helper()
	store, err := session.Open(filepath.Join(data, "muse", "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	list, err := store.List()
	if err != nil {
		t.Fatal(err)
	}
	return store, list
}

// -p --image that cannot reach the server saves no new session holding
// the prompt alone, as -p does: it says how to send it again, pasteable,
// and the prompt history keeps it as the chat screen's /image. With -c
// the session continued keeps the image turn, failed, as before.
func TestImageNoReplySavesNoSession(t *testing.T) {
	data := t.TempDir()
	env := map[string]string{"XDG_DATA_HOME": data, "MUSE_BASE_URL": closedURL(t), "MUSE_ACCESS_TOKEN": "t", "MUSE_MODEL": "m", "MUSE_IMAGE_MODEL": "im"}
	r := runMain(t, env, "", "-p", "a red cat", "--image")
	want := "nothing was saved: the prompt got no answer; send it again with: muse -p 'a red cat' --image"
	if r.code != ExitFailed || !strings.Contains(r.stderr, want) {
		t.Fatalf("code %d, stderr %q, want %q", r.code, r.stderr, want)
	}
	store, list := sessionsIn(t, data)
	if len(list) != 0 {
		t.Errorf("sessions saved: %+v", list)
	}
	h, err := prompts.Open(prompts.Path(filepath.Join(data, "muse", "sessions")), 0)
	if err != nil {
		t.Fatal(err)
	}
	if es := h.Entries(); len(es) != 1 || es[0].Text != "/image a red cat" || es[0].Session != "" {
		t.Errorf("the prompt history holds %+v", es)
	}

	if r := runMain(t, map[string]string{"XDG_DATA_HOME": data}, "", "--demo", "-p", "first"); r.code != 0 {
		t.Fatalf("--demo: %d %s", r.code, r.stderr)
	}
	r = runMain(t, env, "", "-c", "-p", "second", "--image")
	if r.code != ExitFailed || strings.Contains(r.stderr, "nothing was saved") {
		t.Errorf("-c: code %d, stderr %q", r.code, r.stderr)
	}
	if _, list = sessionsIn(t, data); len(list) != 1 {
		t.Fatalf("sessions after -c: %+v", list)
	}
	s, err := store.Load(list[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	if last := s.All[len(s.All)-1]; last.Kind != session.KindImage || last.ImagePrompt != "second" || last.Status != session.StatusFailed {
		t.Errorf("the session continued ends with %+v", last)
	}
}

// With --no-save nothing is written, the prompt history included, and the
// hint says so: a prompt read from standard input is sent again by a
// command that feeds it the same input, not by the prompt history.
func TestNoSaveHintOwnsNoHistory(t *testing.T) {
	data := t.TempDir()
	env := map[string]string{"XDG_DATA_HOME": data, "MUSE_BASE_URL": closedURL(t), "MUSE_ACCESS_TOKEN": "t", "MUSE_MODEL": "m"}
	r := runMain(t, env, "words\n", "-p", "--no-save")
	want := `nothing was saved: the prompt got no answer, and it is not in the prompt history either; send it again with: printf '%s\n' words | muse -p --no-save`
	if r.code != ExitFailed || !strings.Contains(r.stderr, want) || strings.Contains(r.stderr, "↑") {
		t.Errorf("stdin: code %d, stderr %q, want %q", r.code, r.stderr, want)
	}
	r = runMain(t, env, "", "-p", "hi", "--no-save")
	want = "nothing was saved: the prompt got no answer, and it is not in the prompt history either; send it again with: muse -p hi --no-save"
	if r.code != ExitFailed || !strings.Contains(r.stderr, want) {
		t.Errorf("command line: code %d, stderr %q, want %q", r.code, r.stderr, want)
	}
	h, err := prompts.Open(prompts.Path(filepath.Join(data, "muse", "sessions")), 0)
	if err != nil {
		t.Fatal(err)
	}
	if es := h.Entries(); len(es) != 0 {
		t.Errorf("--no-save wrote the prompt history: %+v", es)
	}
}
