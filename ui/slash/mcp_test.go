package slash

import (
	"strings"
	"testing"
)

// /mcp lists the servers; /mcp on NAME and /mcp off NAME pass on what to
// do, spaces and case of the command aside; anything else is a usage error.
func TestSlashMCP(t *testing.T) {
	for in, arg := range map[string]string{
		"/mcp":            "",
		"/MCP  ":          "",
		"/mcp on fs":      "on fs",
		"/mcp   off  fs ": "off fs",
	} {
		res, err := Run(in, slashBase(), Env{})
		if err != nil || res.Action != ActionMCP || res.Arg != arg {
			t.Errorf("%q: action %d, arg %q, err %v; want ActionMCP, %q", in, res.Action, res.Arg, err, arg)
		}
	}
	for _, in := range []string{"/mcp fs", "/mcp on", "/mcp off a b", "/mcp start fs", "/mcp ON fs"} {
		if _, err := Run(in, slashBase(), Env{}); err == nil || !strings.Contains(err.Error(), "usage: /mcp (list the servers), /mcp on NAME or /mcp off NAME") {
			t.Errorf("%q: err %v", in, err)
		}
	}
}
