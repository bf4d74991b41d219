package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"muse/session"
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
