package demo

import (
	"testing"

	"muse/api"
)

// TestMCPCall checks what demo:mcp calls: a filesystem server's read tool
// for a prompt that names a file, else the demo server's word_count, else
// the first MCP tool; nothing when no MCP tool is offered.
func TestMCPCall(t *testing.T) {
	tools := func(names ...string) *api.MessageRequest {
		req := &api.MessageRequest{}
		for _, n := range names {
			req.Tools = append(req.Tools, api.Tool{Name: n})
		}
		return req
	}
	cases := []struct {
		req              *api.MessageRequest
		prompt, name, in string
	}{
		{tools("clock", "demo__word_count", "fs__read_file", "fs__read_text_file"), "what is in /tmp/notes.txt?", "fs__read_text_file", "path=/tmp/notes.txt"},
		{tools("demo__word_count", "fs__read_file"), "read ./a.md.", "fs__read_file", "path=./a.md"},
		{tools("demo__word_count", "fs__read_file"), "what does @/srv/a.md say?", "fs__read_file", "path=/srv/a.md"},
		{tools("fs__read_text_file", "fs__read_media_file"), "show /srv/logo.PNG", "fs__read_media_file", "path=/srv/logo.PNG"},
		{tools("fs__read_text_file", "fs__read_media_file"), "show /srv/logo.txt", "fs__read_text_file", "path=/srv/logo.txt"},
		{tools("fs__read_file", "demo__word_count"), "count these words", "demo__word_count", "text=count these words"},
		{tools("clock", "git__status"), "/tmp/x but no read tool", "git__status", "text=/tmp/x but no read tool"},
		{tools("clock"), "hello", "", "text=hello"},
	}
	for _, c := range cases {
		name, in := mcpCall(c.req, c.prompt)
		got := ""
		for k, v := range in {
			got = k + "=" + v
		}
		if name != c.name || got != c.in {
			t.Errorf("%q: %s %s, want %s %s", c.prompt, name, got, c.name, c.in)
		}
	}
}
