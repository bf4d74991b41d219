//go:build unix

package mcp

import (
	"strings"
	"testing"

	"muse/api/regfile/regfiletest"
)

// --mcp-config naming a named pipe is refused at once, never waited on
// (attack review: muse --mcp-config FIFO hung).
func TestLoadFileRefusesANamedPipe(t *testing.T) {
	fifo := regfiletest.FIFO(t, "mcp.json")
	err := regfiletest.ReadOf(fifo, func() error { _, err := LoadFile(fifo, nil); return err })
	if err == nil || !strings.Contains(err.Error(), "named pipe") {
		t.Errorf("LoadFile(fifo) = %v", err)
	}
}
