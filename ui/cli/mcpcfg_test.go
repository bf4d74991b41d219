package cli

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	cfgfile "muse/ui/cli/config"
	"muse/ui/mcp"
)

// A server in a profile and the same server in an mcpServers file are read
// into the one type, to the same value but for where each was, and a name
// that breaks the one name rule is refused by both, saying the rule.
func TestProfileAndFileReadOneServerType(t *testing.T) {
	dir := t.TempDir()
	toml := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(toml, []byte(`[profiles.p.mcp.fs]
command = "npx"
args = ["-y", "server", "."]
env = { DEBUG = "1" }
cwd = "/srv"
allow = ["read_file"]
`), 0o600); err != nil {
		t.Fatal(err)
	}
	file, err := cfgfile.Load(toml)
	if err != nil {
		t.Fatal(err)
	}
	fromProfile := file.Profiles["p"].MCP
	fromFile, err := mcp.ParseFile("mcp.json", []byte(`{"mcpServers": {"fs": {"command": "npx", "args": ["-y", "server", "."], "env": {"DEBUG": "1"}, "cwd": "/srv", "allow": ["read_file"]}}}`), nil)
	if err != nil || len(fromProfile) != 1 || len(fromFile) != 1 {
		t.Fatalf("profile %v, file %v, %v", fromProfile, fromFile, err)
	}
	a, b := fromProfile[0], fromFile[0]
	if a.Where != toml+":1" || b.Where != "mcp.json:1" {
		t.Errorf("where: %q, %q", a.Where, b.Where)
	}
	a.Where, b.Where, b.Vars = "", "", nil
	if err := a.Check(); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("profile %+v\nfile    %+v", a, b)
	}

	if err := os.WriteFile(toml, []byte("[profiles.p.mcp.\"a.b\"]\ncommand = \"npx\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, perr := cfgfile.Load(toml)
	_, ferr := mcp.ParseFile("mcp.json", []byte(`{"mcpServers": {"a.b": {"command": "npx"}}}`), nil)
	for _, err := range []error{perr, ferr} {
		if err == nil || !strings.Contains(err.Error(), "1 to 32 letters, digits, _ or -: its tools are offered as NAME__TOOL") {
			t.Errorf("the name a.b: %v", err)
		}
	}
}
