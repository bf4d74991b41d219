//go:build unix

package mcp

import (
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// --mcp-config naming a named pipe is refused at once, never waited on
// (attack review: muse --mcp-config FIFO hung).
func TestLoadFileRefusesANamedPipe(t *testing.T) {
	fifo := filepath.Join(t.TempDir(), "mcp.json")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadFile(fifo, nil); err == nil || !strings.Contains(err.Error(), "named pipe") {
		t.Errorf("LoadFile(fifo) = %v", err)
	}
}
