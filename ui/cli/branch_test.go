package cli

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"muse/api"
	"muse/session"
)

// seedBranched writes a session whose second question was edited: two
// branches, the edited one active.
func seedBranched(t *testing.T, env map[string]string) (*session.Store, string) {
	t.Helper()
	store, err := session.Open(filepath.Join(env["XDG_DATA_HOME"], "muse", "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	w := session.NewWriter(store, session.Params{Model: "demo-chat", MaxTokens: 100})
	w.SetTitle("Branchy")
	reply := func(text string) session.Entry {
		return session.Entry{Kind: session.KindAssistant, Message: &api.Message{Content: []api.ContentBlock{{Type: "text", Text: text}}}}
	}
	for _, e := range []session.Entry{{Kind: session.KindUser, Text: "first question"}, reply("first answer"),
		{Kind: session.KindUser, Text: "about go"}, reply("go answer")} {
		if _, err := w.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	parent := w.Branch()[1].ID
	if _, err := w.AppendAt(session.Entry{Kind: session.KindUser, Text: "about rust"}, parent); err != nil {
		t.Fatal(err)
	}
	if _, err := w.Append(reply("rust answer")); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return store, w.ID()
}

func TestShowAndExportBranches(t *testing.T) {
	env := map[string]string{"XDG_DATA_HOME": t.TempDir()}
	_, id := seedBranched(t, env)
	show := runMain(t, env, "", "sessions", "show", id)
	if show.code != 0 || !strings.Contains(show.stdout, "rust answer") || strings.Contains(show.stdout, "go answer") {
		t.Errorf("show prints the active branch only: %+v", show)
	}
	all := runMain(t, env, "", "sessions", "show", id, "--all-branches")
	if !strings.Contains(all.stdout, "rust answer") || !strings.Contains(all.stdout, "go answer") || !strings.Contains(all.stdout, "branch 2") {
		t.Errorf("show --all-branches:\n%s", all.stdout)
	}
	md := runMain(t, env, "", "sessions", "export", id, "--all-branches")
	if !strings.Contains(md.stdout, "# Branch 2") || !strings.Contains(md.stdout, "go answer") {
		t.Errorf("export --all-branches:\n%s", md.stdout)
	}
	js := runMain(t, env, "", "sessions", "export", id, "--all-branches", "--format", "json")
	var tree struct {
		Head    string          `json:"head"`
		Entries []session.Entry `json:"entries"`
	}
	if err := json.Unmarshal([]byte(js.stdout), &tree); err != nil || len(tree.Entries) != 6 || tree.Head == "" {
		t.Fatalf("json tree: %v, %d entries", err, len(tree.Entries))
	}
	imp := runMain(t, env, js.stdout, "sessions", "import", "-")
	if imp.code != 0 {
		t.Fatalf("import of the tree: %+v", imp)
	}
	again := runMain(t, env, "", "sessions", "show", strings.TrimSpace(imp.stdout), "--all-branches")
	if !strings.Contains(again.stdout, "go answer") || !strings.Contains(again.stdout, "rust answer") {
		t.Errorf("the imported tree lost a branch:\n%s", again.stdout)
	}
}

func TestForkCommand(t *testing.T) {
	env := map[string]string{"XDG_DATA_HOME": t.TempDir()}
	store, id := seedBranched(t, env)
	r := runMain(t, env, "", "sessions", "fork", id, "--at", "3", "--title", "Rust only")
	if r.code != 0 {
		t.Fatalf("fork: %+v", r)
	}
	fork, err := store.Load(strings.TrimSpace(r.stdout))
	if err != nil {
		t.Fatal(err)
	}
	if fork.Title != "Rust only" || len(fork.Entries) != 3 || fork.Entries[2].Text != "about rust" || fork.ForkedFrom == nil || fork.ForkedFrom.ID != id {
		t.Errorf("fork %q with %d entries from %+v", fork.Title, len(fork.Entries), fork.ForkedFrom)
	}
	if r := runMain(t, env, "", "sessions", "fork", id, "--at", "9"); r.code == 0 {
		t.Errorf("a fork past the branch's end: %+v", r)
	}
	// -c -p continues the active branch.
	if r := runMain(t, env, "", "--demo", "-r", id, "-p", "and zig?"); r.code != 0 {
		t.Fatalf("-r -p: %+v", r)
	}
	back, _ := store.Load(id)
	if n := len(back.Entries); n != 6 || back.Entries[2].Text != "about rust" || back.Entries[4].Text != "and zig?" {
		t.Errorf("-r -p went on from %d entries: %+v", n, back.Entries)
	}
}

// -p --json escapes C1 controls and line separators, which encoding/json
// leaves raw.
func TestPrintJSONEscapesControls(t *testing.T) {
	r := runMain(t, nil, "", "--demo", "-p", "demo:hostile", "--json")
	if r.code != 0 {
		t.Fatalf("%+v", r)
	}
	for _, bad := range []string{"\u009b", "\u009d", "\u2028", "\u2029"} {
		if strings.Contains(r.stdout, bad) {
			t.Errorf("raw %U in -p --json", []rune(bad)[0])
		}
	}
	var m api.Message
	if err := json.Unmarshal([]byte(r.stdout), &m); err != nil {
		t.Errorf("-p --json is not JSON: %v", err)
	}
}
