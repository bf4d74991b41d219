package cli

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"muse/api"
	"muse/session"
)

// seed creates two sessions in a fresh data home and returns the env and ids.
func seed(t *testing.T) (map[string]string, *session.Store, []string) {
	t.Helper()
	env := map[string]string{"XDG_DATA_HOME": t.TempDir()}
	store, err := session.Open(filepath.Join(env["XDG_DATA_HOME"], "muse", "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for i, title := range []string{"Go channels", "Tax \x1b]0;x\x07 guide"} {
		id := seedSession(t, store, session.Params{Model: "demo-chat", MaxTokens: 100}, title,
			session.Entry{ID: "e1", Kind: session.KindUser, Text: "question about " + title},
			session.Entry{ID: "e2", Kind: session.KindAssistant, Message: &api.Message{Model: "demo-chat",
				Content: []api.ContentBlock{{Type: "text", Text: "answer with the word pineapple" + strings.Repeat("!", i)}}}})
		ids = append(ids, id)
	}
	return env, store, ids
}

func TestSessionsListJSON(t *testing.T) {
	env, _, ids := seed(t)
	r := runMain(t, env, "", "sessions", "list", "--json")
	var list []map[string]any
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &list) != nil {
		t.Fatalf("list --json: %+v", r)
	}
	if len(list) != 2 || list[0]["id"] != ids[1] {
		t.Fatalf("want 2 sessions, newest first: %s", r.stdout)
	}
	for _, k := range []string{"id", "title", "created", "updated", "messages", "model"} {
		if _, ok := list[0][k]; !ok {
			t.Errorf("key %q missing in %v", k, list[0])
		}
	}
	if list[0]["messages"] != 2.0 || list[0]["model"] != "demo-chat" {
		t.Errorf("entry %v", list[0])
	}
	r = runMain(t, env, "", "sessions", "list")
	if r.code != 0 || !strings.Contains(r.stdout, "Go channels") || strings.ContainsRune(r.stdout, 0x1b) {
		t.Errorf("list: %+v", r)
	}
}

// A journal that cannot be loaded is listed with why, under "damaged",
// which the sessions that load do not have.
func TestSessionsListJSONNamesDamaged(t *testing.T) {
	env, store, _ := seed(t)
	if err := os.WriteFile(filepath.Join(store.Dir(), "20200101-000000-bad000.jsonl"), []byte("not json\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	r := runMain(t, env, "", "sessions", "list", "--json")
	var list []map[string]any
	if err := json.Unmarshal([]byte(r.stdout), &list); r.code != 0 || err != nil || len(list) != 3 {
		t.Fatalf("list --json: %v %+v", err, r)
	}
	var damaged []string
	for _, s := range list {
		if why, ok := s["damaged"].(string); ok {
			damaged = append(damaged, s["id"].(string)+": "+why)
		}
	}
	if len(damaged) != 1 || !strings.HasPrefix(damaged[0], "20200101-000000-bad000: ") {
		t.Errorf("damaged: %q in %s", damaged, r.stdout)
	}
}

func TestSessionsShowExportRenameDeleteSearch(t *testing.T) {
	env, store, ids := seed(t)
	if r := runMain(t, env, "", "sessions", "show", "Go channels"); r.code != 0 || !strings.Contains(r.stdout, "pineapple") {
		t.Errorf("show by title: %+v", r)
	}
	out := filepath.Join(t.TempDir(), "x.md")
	if r := runMain(t, env, "", "sessions", "export", ids[0][:len(ids[0])-1], "-o", out); r.code != 0 {
		t.Fatalf("export by prefix: %+v", r)
	}
	md, _ := os.ReadFile(out)
	if !strings.Contains(string(md), "# Go channels") || !strings.Contains(string(md), "pineapple") {
		t.Errorf("markdown export:\n%s", md)
	}
	if st, _ := os.Stat(out); st.Mode().Perm() != 0o600 {
		t.Errorf("export mode %v", st.Mode().Perm())
	}
	if r := runMain(t, env, "", "sessions", "export", ids[0], "--format", "json"); r.code != 0 || !json.Valid([]byte(r.stdout)) {
		t.Errorf("json export: %+v", r)
	}
	if r := runMain(t, env, "", "sessions", "export", ids[0], "--format", "pdf"); r.code != 2 || !strings.Contains(r.stderr, "md, json or html") {
		t.Errorf("bad format: %+v", r)
	}
	if r := runMain(t, env, "", "sessions", "search", "PINEAPPLE"); r.code != 0 || strings.Count(r.stdout, "pineapple") != 2 {
		t.Errorf("search: %+v", r)
	}
	if r := runMain(t, env, "", "sessions", "rename", ids[0], "Channels,", "renamed"); r.code != 0 {
		t.Errorf("rename: %+v", r)
	}
	if sess, _ := store.Load(ids[0]); sess.Title != "Channels, renamed" {
		t.Errorf("title after rename %q", sess.Title)
	}
	// Delete asks first: "n" keeps it.
	if r := runMain(t, env, "n\n", "sessions", "delete", ids[0]); r.code != 1 || !strings.Contains(r.stderr, "delete session") {
		t.Errorf("delete answered n: %+v", r)
	}
	if _, err := store.Load(ids[0]); err != nil {
		t.Errorf("kept session gone: %v", err)
	}
	if r := runMain(t, env, "", "sessions", "delete", ids[0], "--yes"); r.code != 0 {
		t.Errorf("delete --yes: %+v", r)
	}
	if _, err := store.Load(ids[0]); err == nil {
		t.Errorf("deleted session still loads")
	}
	if r := runMain(t, env, "", "sessions", "show", "nothing-like-this"); r.code != 1 || !strings.Contains(r.stderr, "nothing-like-this") {
		t.Errorf("unknown id: %+v", r)
	}
	if r := runMain(t, env, "", "sessions", "frobnicate"); r.code != 2 {
		t.Errorf("unknown subcommand: %+v", r)
	}
}

func TestResumeByTitleWithPrint(t *testing.T) {
	env, store, ids := seed(t)
	r := runMain(t, env, "", "--demo", "-r", "go channels", "-p", "and then?")
	if r.code != 0 {
		t.Fatalf("-r title -p: %+v", r)
	}
	sess, _ := store.Load(ids[0])
	if len(sess.Entries) != 4 || sess.Entries[2].Text != "and then?" {
		t.Errorf("entries %+v", sess.Entries)
	}
	if r := runMain(t, env, "", "--demo", "-c", "-r", "x"); r.code != 2 {
		t.Errorf("-c with -r: %+v", r)
	}
}
