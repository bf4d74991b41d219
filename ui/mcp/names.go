package mcp

import (
	"strconv"
	"strings"

	"muse/api"
)

// maxName is the longest tool name the API takes.
const maxName = api.MaxToolName

// toolName is the name a server's tool is offered under: server__tool,
// with each character the API refuses (it takes letters, digits, _ and -)
// written as _, cut to maxName bytes: a name api.ValidToolName takes,
// which the engine checks again before sending (a tool whose name breaks
// the rule is left out there, with a note).
func toolName(server, tool string) string {
	name := clean(server) + "__" + clean(tool)
	if len(name) > maxName {
		name = name[:maxName]
	}
	return name
}

// clean replaces what the API refuses in a tool name with _.
func clean(s string) string {
	return strings.Map(func(r rune) rune {
		if r < 0x80 && (r == '_' || r == '-' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return r
		}
		return '_'
	}, s)
}

// uniqueName returns name, or name with a suffix _2, _3… (cut to fit
// maxName) when taken has it.
func uniqueName(name string, taken map[string]bool) string {
	if !taken[name] {
		return name
	}
	for n := 2; ; n++ {
		suffix := "_" + strconv.Itoa(n)
		candidate := name[:min(len(name), maxName-len(suffix))] + suffix
		if !taken[candidate] {
			return candidate
		}
	}
}
