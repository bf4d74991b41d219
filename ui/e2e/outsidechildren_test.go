//go:build linux

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOutsideChildrenGetNoSecret: the children muse starts outside the
// tool runner, with muse's own environment, hold no secret of muse's or of
// an MCP server's. muse runs with a credential for each purpose in its
// environment (see secrets below), a profile whose servers name some, and
// an --mcp-config file whose server reads ${OTHER_MCP_TOKEN}; each child
// is a script that writes its own environment down: the editor ($EDITOR,
// ctrl+x), the image viewer (xdg-open, ctrl+o on a generated image), the
// clipboard helpers (tmux load-buffer inside tmux, xclip with a display:
// ctrl+y), and the browser of muse sessions open (xdg-open). ui/cli's
// TestEachChildGetsOnlyItsOwnSecrets covers the others: the credential
// commands, the stdio servers, command tools and git.
func TestOutsideChildrenGetNoSecret(t *testing.T) {
	t.Parallel()
	secrets := map[string]string{
		"MUSE_API_KEY":    "sekrit-key-0000", // muse's own
		"MUSE_SYNC_KEY":   "AGE-SECRET-KEY-1SEKRITSYNC",
		"TRACKER_TOKEN":   "sekrit-trk-1111", // token_env of the profile's HTTP server
		"SPARE_TOKEN":     "sekrit-spr-2222", // token_env of a server of another profile
		"SPARE_VAR":       "sekrit-spv-3333", // env of a stdio server of another profile
		"MINE":            "sekrit-min-4444", // env of the profile's stdio server
		"OTHER_MCP_TOKEN": "sekrit-oth-5555", // ${VAR} of the --mcp-config file's server
		"COPY_OF_TOKEN":   "sekrit-tok-7777", // what the MCP token_cmd prints, under another name
	}
	h := newHome(t, `default_profile = "w"
[profiles.w]
[profiles.w.mcp.tracker]
type = "http"
url = "http://127.0.0.1:9/mcp"
token_env = "TRACKER_TOKEN"
[profiles.w.mcp.cmdtok]
type = "http"
url = "http://127.0.0.1:9/mcp"
token_cmd = "echo sekrit-tok-7777"
[profiles.w.mcp.mine]
command = "sh"
args = ["-c", "exit 1"]
env = { MINE = "mine-1" }
[profiles.spare]
[profiles.spare.mcp.x]
type = "http"
url = "http://127.0.0.1:9/mcp"
token_env = "SPARE_TOKEN"
[profiles.spare.mcp.y]
command = "true"
env = { SPARE_VAR = "spare-1" }
`)
	dump := func(name string) string { return filepath.Join(h.dir, name+".env") }
	bin := t.TempDir()
	for name, script := range map[string]string{
		"editor.sh": "env > " + dump("editor") + "\nprintf 'from the editor' > \"$1\"\n",
		"xdg-open":  "env > " + dump("xdg-open") + "\n",
		"tmux":      "cat > /dev/null\nenv > " + dump("tmux") + "\n",
		"xclip":     "cat > /dev/null\nenv > " + dump("xclip") + "\n",
	} {
		if err := os.WriteFile(filepath.Join(bin, name), []byte("#!/bin/sh\n"+script), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	mcpFile := filepath.Join(h.dir, "home", "mcp.json")
	if err := os.WriteFile(mcpFile, []byte(`{"mcpServers": {"other": {"command": "sh", "args": ["-c", "exit 1"], "env": {"OTHER_MCP_TOKEN": "${OTHER_MCP_TOKEN}"}}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	for i, kv := range h.env {
		if strings.HasPrefix(kv, "PATH=") {
			h.env[i] = "PATH=" + bin + ":" + strings.TrimPrefix(kv, "PATH=")
		}
	}
	h.env = append(h.env, "EDITOR="+filepath.Join(bin, "editor.sh"), "TMUX=/tmp/tmux-test/default,1,0", "DISPLAY=:99")
	for k, v := range secrets {
		h.env = append(h.env, k+"="+v)
	}

	tm := start(t, h, 100, 40, "--demo", "--mcp-config", mcpFile, "--mcp-expand-env")
	tm.waitFor("Ask anything")
	tm.typ("\x18") // ctrl+x: the input in $EDITOR
	tm.waitUntil("the editor's text in the input", waitDeadline, func(s string) bool {
		return strings.Contains(inputLine(s), "from the editor")
	})
	tm.typ("\x03") // clears the input
	tm.typ("/image a red fox in snow\r")
	tm.waitFor("1024×1024")
	tm.typ("\x0f") // ctrl+o: the viewer on the last image
	tm.waitFor("opened ")
	tm.typ("hello\r")
	tm.waitFor("stop end_turn")
	tm.typ("\x19") // ctrl+y: the last reply to the clipboards
	tm.waitFor("copied ")
	quitNow(t, tm)
	viewer, err := os.ReadFile(dump("xdg-open"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(dump("xdg-open")); err != nil {
		t.Fatal(err)
	}
	h.run(t, "sessions", "open", firstID(t, h.run(t, "sessions", "list"))) // the browser, by xdg-open too

	read := func(name string) string {
		data, err := os.ReadFile(dump(name))
		if err != nil {
			t.Fatalf("%s wrote no environment: %v", name, err)
		}
		return string(data)
	}
	for _, c := range []struct {
		child, environ string
		unknown        []string // what this run of muse is never told is a secret
	}{
		{"the editor", read("editor"), nil},
		{"the image viewer", string(viewer), nil},
		{"tmux load-buffer", read("tmux"), nil},
		{"xclip", read("xclip"), nil},
		// muse sessions open reads no --mcp-config file and runs no
		// token_cmd.
		{"the browser of muse sessions open", read("xdg-open"), []string{"OTHER_MCP_TOKEN", "COPY_OF_TOKEN"}},
	} {
		for name, v := range secrets {
			if strings.Contains(c.environ, v) && !strings.Contains(strings.Join(c.unknown, " "), name) {
				t.Errorf("%s has %s's secret %s", c.child, name, v)
			}
		}
		if !strings.Contains(c.environ, "PATH=") {
			t.Errorf("%s has no PATH: %q", c.child, c.environ)
		}
	}
}
