package mcp

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRealFilesystemServer runs the public reference server
// @modelcontextprotocol/server-filesystem, which .ci/mcp-servers installs
// and names in MUSE_MCP_FILESYSTEM: its tools are offered, a file is read
// through it, and a path outside its folder is refused as an error. It
// skips without the server, except under CI, where it fails.
func TestRealFilesystemServer(t *testing.T) {
	cmd := os.Getenv("MUSE_MCP_FILESYSTEM")
	if cmd == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("MUSE_MCP_FILESYSTEM is not set: CI must source .ci/mcp-servers before the tests")
		}
		t.Skip("MUSE_MCP_FILESYSTEM is not set (source .ci/mcp-servers to run this)")
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("the answer is 42\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	m := New([]Server{{Name: "fs", Type: TypeStdio, Command: cmd, Args: []string{dir}}}, Options{})
	defer m.Close()
	got, notes := m.Tools(context.Background())
	if len(notes) > 0 {
		t.Fatalf("notes %q", notes)
	}
	byName := map[string]int{}
	for i, tl := range got {
		byName[tl.Def.Name] = i
	}
	read, ok := byName["fs__read_text_file"]
	if !ok {
		read, ok = byName["fs__read_file"]
	}
	if !ok {
		t.Fatalf("no read tool among %v", keys(byName))
	}
	out := got[read].Call(context.Background(), []byte(`{"path":"`+filepath.Join(dir, "notes.txt")+`"}`))
	if out.IsError || !strings.Contains(out.Text, "the answer is 42") {
		t.Errorf("read = %+v", out)
	}
	out = got[read].Call(context.Background(), []byte(`{"path":"/etc/passwd"}`))
	if !out.IsError || !strings.Contains(strings.ToLower(out.Text), "denied") {
		t.Errorf("read outside = %+v", out)
	}
}

// TestRealMemoryServer runs the public reference server
// @modelcontextprotocol/server-memory (MUSE_MCP_MEMORY, from
// .ci/mcp-servers), its file in a temporary folder given through its
// entry's env: an entity it is told of is in the graph it reads back, and
// its structured content is kept once with its text. It skips without the
// server, except under CI, where it fails.
func TestRealMemoryServer(t *testing.T) {
	cmd := os.Getenv("MUSE_MCP_MEMORY")
	if cmd == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("MUSE_MCP_MEMORY is not set: CI must source .ci/mcp-servers before the tests")
		}
		t.Skip("MUSE_MCP_MEMORY is not set (source .ci/mcp-servers to run this)")
	}
	file := filepath.Join(t.TempDir(), "memory.jsonl")
	m := New([]Server{{Name: "mem", Type: TypeStdio, Command: cmd, Env: map[string]string{"MEMORY_FILE_PATH": file}, Vars: []string{"MEMORY_FILE_PATH"}}}, Options{})
	defer m.Close()
	got := tools(t, m)
	if got["mem__create_entities"] == nil || got["mem__read_graph"] == nil {
		t.Fatalf("tools %v", keys(got))
	}
	if out := got["mem__create_entities"](`{"entities":[{"name":"Ann","entityType":"person","observations":["likes Go"]}]}`); strings.HasPrefix(out, "error:") {
		t.Fatalf("create = %q", out)
	}
	out := got["mem__read_graph"](`{}`)
	if !strings.Contains(out, "likes Go") || strings.Count(out, "likes Go") != 1 {
		t.Errorf("graph = %q", out)
	}
	if data, err := os.ReadFile(file); err != nil || !strings.Contains(string(data), "likes Go") {
		t.Errorf("the server's file: %q, %v", data, err)
	}
}
