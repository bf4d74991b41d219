//go:build linux

package e2e

import (
	"strings"
	"testing"
)

// previewed reports whether screen s shows the half-block preview of the
// everything server's image just under its name.
func previewed(s string) bool {
	_, after, ok := strings.Cut(s, "+ ev__get-tiny-image image 1 · ")
	if !ok {
		return false
	}
	lines := strings.Split(after, "\n")
	return len(lines) > 1 && strings.Contains(lines[1], "▀▀▀▀▀")
}

// The image an MCP tool returns (the everything server's logo, a PNG with
// a broken iCCP chunk, as real files have) is previewed under the tool's
// result in a real terminal, right after the call, and again when the
// session is resumed with -c.
func TestMCPToolImagePreviewed(t *testing.T) {
	h := newHome(t, "")
	config := everythingConfig(t)
	tm := start(t, h, 120, 40, "--demo", "--mcp-config", config, "--mcp", "ev")
	tm.waitFor("Ask anything")
	tm.typ("/mcp on ev\r") // waits for its start
	tm.waitFor("MCP server ev is on")
	tm.typ("/tool-choice ev__get-tiny-image\r")
	tm.waitFor("tool_choice ev__get-tiny-image")
	tm.typ("show me the logo\r")
	tm.waitFor("run tool ev__get-tiny-image of MCP server ev?")
	tm.typ("y")
	tm.waitUntil("the reply, and the image's preview under the result", waitDeadline, func(s string) bool {
		return strings.Contains(s, "The tool returned: Here's the image you requested") && !busy(statusLine(s)) && previewed(s)
	})
	tm.typ("\x03\x03")
	if code := tm.waitExit(); code != 0 {
		t.Fatalf("muse exited with status %d", code)
	}

	tm = start(t, h, 120, 40, "--demo", "-c")
	tm.waitFor("stop end_turn")
	tm.waitUntil("the image's preview, resumed", waitDeadline, previewed)
	tm.typ("\x04") // ctrl+d on an empty input quits
	if code := tm.waitExit(); code != 0 {
		t.Errorf("muse exited with status %d", code)
	}
}
