package mcp

import (
	"strings"
	"testing"

	"muse/api"
)

// Whatever a server and its tools are called, the names they are offered
// under keep the API's rule, and differ.
func TestOfferedNamesKeepTheAPIRule(t *testing.T) {
	taken := map[string]bool{}
	for _, c := range [][2]string{
		{"fs", "read_file"}, {"fs", "read.file"}, {"fs", "read file"}, {"fs", "read/file"},
		{"ünï", "cödé"}, {"a", strings.Repeat("t", 200)}, {"a", strings.Repeat("t", 201)},
		{"a", "x\x1b[2J"}, {"a", "日本語"}, {"srv", ""},
	} {
		name := uniqueName(toolName(c[0], c[1]), taken)
		if !api.ValidToolName(name) || taken[name] {
			t.Errorf("%q of %q is offered as %q", c[1], c[0], name)
		}
		taken[name] = true
	}
}
