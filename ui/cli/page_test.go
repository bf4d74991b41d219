package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"muse/api"
	"muse/session"
)

// TestSessionsExportHTML writes a session's page with export --format
// html: to a new file (0600), and to standard output; --redact masks the
// configured API key held in a reply; a page's flag with another format is
// refused.
func TestSessionsExportHTML(t *testing.T) {
	env, store, ids := seed(t)
	key := "muse-test-api-key-0123456789"
	env["MUSE_API_KEY"] = key
	leaky := seedSession(t, store, session.Params{Model: "demo-chat"}, "leaky",
		session.Entry{ID: "e1", Kind: session.KindUser, Text: "my key is " + key},
		session.Entry{ID: "e2", Kind: session.KindAssistant, Message: &api.Message{Model: "demo-chat",
			Content: []api.ContentBlock{{Type: "text", Text: "do not share " + key + " or sk-ant-api03-abcdefghijklmnopqrstuv"}}}})
	out := filepath.Join(t.TempDir(), "talk.html")
	if r := runMain(t, env, "", "sessions", "export", ids[0], "--format", "html", "-o", out); r.code != 0 || !strings.Contains(r.stderr, "exported") {
		t.Fatalf("export --format html: %+v", r)
	}
	page, _ := os.ReadFile(out)
	for _, want := range []string{"<!DOCTYPE html>", "Content-Security-Policy", "default-src 'none'", "<h1>Go channels</h1>", "pineapple"} {
		if !strings.Contains(string(page), want) {
			t.Errorf("the page has no %q", want)
		}
	}
	if st, _ := os.Stat(out); st.Mode().Perm() != 0o600 {
		t.Errorf("page mode %v", st.Mode().Perm())
	}
	if r := runMain(t, env, "", "sessions", "export", ids[0], "--format", "html", "-o", out); r.code == 0 || !strings.Contains(r.stderr, "--force") {
		t.Errorf("export over an existing page: %+v", r)
	}
	r := runMain(t, env, "", "sessions", "export", leaky, "--format", "html", "--redact", "--max-image-px", "512")
	if r.code != 0 || strings.Contains(r.stdout, key) || strings.Contains(r.stdout, "sk-ant-api03") || !strings.Contains(r.stdout, "[redacted]") {
		t.Errorf("--redact to stdout: code %d, key left: %v", r.code, strings.Contains(r.stdout, key))
	}
	if r := runMain(t, env, "", "sessions", "export", leaky, "--format", "html"); !strings.Contains(r.stdout, key) {
		t.Error("without --redact the page lost the text")
	}
	if r := runMain(t, env, "", "sessions", "export", leaky, "--redact"); r.code != 2 || !strings.Contains(r.stderr, "--redact is for --format html") {
		t.Errorf("--redact with markdown: %+v", r)
	}
	if r := runMain(t, env, "", "sessions", "export", leaky, "--format", "html", "--max-image-px", "-1"); r.code != 2 {
		t.Errorf("--max-image-px -1: %+v", r)
	}
}

// TestSessionsOpen writes the page to a new file of its own in the
// temporary folder, prints its path and hands it to the opener.
func TestSessionsOpen(t *testing.T) {
	env, _, ids := seed(t)
	t.Setenv("TMPDIR", t.TempDir())
	var opened []string
	openPage = func(path string) error { opened = append(opened, path); return nil }
	t.Cleanup(func() { openPage = defaultOpenPage })
	r := runMain(t, env, "", "sessions", "open", "Go channels", "--no-thinking")
	path := strings.TrimSpace(r.stdout)
	if r.code != 0 || len(opened) != 1 || opened[0] != path {
		t.Fatalf("open: %+v, opened %q", r, opened)
	}
	page, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(page), "pineapple") || !strings.HasPrefix(filepath.Base(path), "muse-"+ids[0]) {
		t.Errorf("the page at %s: %v", path, err)
	}
	st, _ := os.Stat(path)
	dir, _ := os.Stat(filepath.Dir(path))
	if st.Mode().Perm() != 0o600 || dir.Mode().Perm() != 0o700 {
		t.Errorf("page %v in a folder %v, want 0600 in 0700", st.Mode().Perm(), dir.Mode().Perm())
	}
	if r := runMain(t, env, "", "sessions", "open", "no such session"); r.code == 0 || len(opened) != 1 {
		t.Errorf("open of no session: %+v", r)
	}
}

// The browser muse sessions open starts gets none of muse's credentials:
// a real muse process, with an xdg-open that writes its environment.
func TestSessionsOpenGivesTheBrowserNoCredential(t *testing.T) {
	env, _, _ := seed(t)
	bin := t.TempDir()
	dump := filepath.Join(bin, "env.out")
	if err := os.WriteFile(filepath.Join(bin, "xdg-open"), []byte("#!/bin/sh\nenv > "+dump+"\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	cmd := museProcess(t, env["XDG_DATA_HOME"], "sessions", "open", "Go channels")
	cmd.Env = append(cmd.Env, "PATH="+bin+":/usr/bin:/bin", "TMPDIR="+t.TempDir(), "BROWSER=",
		"MUSE_ACCESS_TOKEN=tok-sekrit-1", "ANTHROPIC_API_KEY=key-sekrit-2", "DISPLAY=:0")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("muse sessions open: %v\n%s", err, out)
	}
	got, err := os.ReadFile(dump)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(got), "sekrit") {
		t.Errorf("the browser got a credential:\n%s", got)
	}
}
