//go:build linux

package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// everythingConfig writes an mcpServers file with the reference server
// @modelcontextprotocol/server-everything (MUSE_MCP_EVERYTHING, from
// .ci/mcp-servers) as "ev", over stdio, and returns its path. The test
// skips without the server, except under CI, where it fails.
func everythingConfig(t *testing.T) string {
	t.Helper()
	cmd := os.Getenv("MUSE_MCP_EVERYTHING")
	if cmd == "" {
		if os.Getenv("CI") != "" {
			t.Fatal("MUSE_MCP_EVERYTHING is not set: CI must source .ci/mcp-servers before the tests")
		}
		t.Skip("MUSE_MCP_EVERYTHING is not set (source .ci/mcp-servers to run this)")
	}
	config := filepath.Join(t.TempDir(), "mcp.json")
	if err := os.WriteFile(config, []byte(`{"mcpServers": {"ev": {"command": "`+cmd+`", "args": ["stdio"]}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	return config
}

// A prompt of the everything server used as /ev:…: Tab completes its name,
// then its argument; enter gets the prompt with the argument typed and
// sends its text, which the demo model answers; /mcp lists the prompts.
func TestMCPPromptAsSlashCommand(t *testing.T) {
	t.Parallel()
	h := newHome(t, "")
	tm := start(t, h, 110, 30, "--demo", "--mcp-config", everythingConfig(t), "--mcp", "ev")
	tm.waitFor("Ask anything")
	tm.typ("/mcp on ev\r") // waits for its start
	tm.waitFor("MCP server ev is on")
	tm.typ("/mcp\r")
	tm.waitFor("/ev:args-prompt city=… [state=…]")
	tm.typ("/ev:args\t")
	tm.waitUntil("the prompt's name completed", waitDeadline, func(s string) bool {
		return strings.HasSuffix(strings.TrimSpace(inputLine(s)), "/ev:args-prompt")
	})
	tm.typ("\t")
	tm.waitUntil("its argument completed", waitDeadline, func(s string) bool {
		return strings.Contains(inputLine(s), "/ev:args-prompt city=")
	})
	tm.typ("Boston\r")
	tm.waitUntil("the prompt's text sent and answered", waitDeadline, func(s string) bool {
		return strings.Contains(s, "muse · What's weather in Boston?") && strings.Contains(statusLine(s), "· stop ")
	})
	tm.typ("\x03\x03")
	if code := tm.waitExit(); code != 0 {
		t.Errorf("muse exited with status %d", code)
	}
}

// The everything server's form (elicitation/create) in the chat screen: its
// tool asks for input; the form shows its fields with their defaults, and
// takes the keys on ctrl+l; an empty required name is refused in the form, with why, and nothing is
// sent; typed, enter sends it, and the server's result echoes it.
func TestMCPElicitationFormAnswered(t *testing.T) {
	t.Parallel()
	h := newHome(t, "")
	tm := start(t, h, 120, 44, "--demo", "--mcp-config", everythingConfig(t), "--mcp", "ev")
	tm.waitFor("Ask anything")
	tm.typ("/mcp on ev\r") // waits for its start
	tm.waitFor("MCP server ev is on")
	tm.typ("/tool-choice ev__trigger-elicitation-request\r")
	tm.waitFor("tool_choice ev__trigger-elicitation-request")
	tm.typ("fill the form\r")
	tm.waitFor("run tool ev__trigger-elicitation-request of MCP server ev?")
	tm.typ("y")
	tm.waitFor("MCP server ev asks: Please provide inputs for the following fields:")
	tm.waitFor("It was a dark and stormy night.")
	tm.typ("\x0c") // ctrl+l: the form opens without the keys
	tm.waitFor("ctrl+l back to the input")
	tm.typ("\r") // the name is required
	tm.waitFor("String is required")
	tm.typ("Ann Lee\r")
	tm.waitUntil("the form's answer in the tool's result, and the reply", waitDeadline, func(s string) bool {
		return strings.Contains(s, "Name: Ann Lee") && strings.Contains(s, "The tool returned: ") && !busy(statusLine(s))
	})
	tm.typ("\x03\x03")
	if code := tm.waitExit(); code != 0 {
		t.Errorf("muse exited with status %d", code)
	}
}

// A resource of the everything server attached with @: Tab completes its
// mention from its start, enter reads it from the server and sends it as
// an attachment, and the demo model sees the document by its name.
func TestMCPResourceAttachedWithAt(t *testing.T) {
	t.Parallel()
	h := newHome(t, "")
	tm := start(t, h, 120, 36, "--demo", "--mcp-config", everythingConfig(t), "--mcp", "ev")
	tm.waitFor("Ask anything")
	tm.typ("/mcp on ev\r") // waits for its start
	tm.waitFor("MCP server ev is on")
	// Typed key by key and completed with tab: the user's own choice, sent
	// with one enter (a paste would wait as a chip).
	typed := ""
	for _, k := range strings.Split("see @ev:demo://resource/static/document/archi", "") {
		tm.typ(k)
		typed += k
		want := "› " + strings.TrimRight(typed, " ")
		tm.waitUntil("the key "+k, waitDeadline, func(s string) bool { return strings.HasPrefix(inputLine(s), want) })
	}
	tm.typ("\t")
	tm.waitUntil("the mention completed", waitDeadline, func(s string) bool {
		return strings.Contains(inputLine(s), "@ev:demo://resource/static/document/architecture.md")
	})
	tm.typ("\r")
	tm.waitUntil("the document sent and seen", waitDeadline, func(s string) bool {
		return strings.Contains(s, "I see @ev:demo://resource/static/document/architecture.md") && !busy(statusLine(s))
	})
	tm.typ("\x03\x03")
	if code := tm.waitExit(); code != 0 {
		t.Errorf("muse exited with status %d", code)
	}
}

// A prompt's argument values are completed by the everything server
// (completion/complete): Tab on "department=En" asks it and puts in
// "Engineering"; Tab then adds the next argument's name, and Tab again asks
// the server for the names of that department, which Tab cycles; enter
// sends the prompt with what was completed.
func TestMCPPromptArgumentCompleted(t *testing.T) {
	h := newHome(t, "")
	tm := start(t, h, 110, 30, "--demo", "--mcp-config", everythingConfig(t), "--mcp", "ev")
	tm.waitFor("Ask anything")
	tm.typ("/mcp on ev\r") // waits for its start
	tm.waitFor("MCP server ev is on")
	tm.typ("/ev:completable-prompt department=En\t")
	tm.waitUntil("the department completed by the server", waitDeadline, func(s string) bool {
		return strings.HasSuffix(strings.TrimSpace(inputLine(s)), "/ev:completable-prompt department=Engineering")
	})
	tm.typ("\t")
	tm.waitUntil("the next argument's name", waitDeadline, func(s string) bool {
		return strings.HasSuffix(strings.TrimSpace(inputLine(s)), "department=Engineering name=")
	})
	tm.typ("\t")
	tm.waitUntil("the department's names, from the server", waitDeadline, func(s string) bool {
		return strings.HasSuffix(strings.TrimSpace(inputLine(s)), "name=Alice") && strings.Contains(s, "[Alice]  Bob  Charlie")
	})
	tm.typ("\t")
	tm.waitUntil("Tab cycling to the next name", waitDeadline, func(s string) bool {
		return strings.HasSuffix(strings.TrimSpace(inputLine(s)), "name=Bob")
	})
	tm.typ("\r")
	tm.waitUntil("the prompt's text sent and answered", waitDeadline, func(s string) bool {
		return strings.Contains(s, "Please promote Bob to the head of the Engineering team.") && strings.Contains(statusLine(s), "· stop ")
	})
	tm.typ("\x03\x03")
	if code := tm.waitExit(); code != 0 {
		t.Errorf("muse exited with status %d", code)
	}
}

// The @ menu lists the everything server's resources after the files,
// filtered as the mention is typed; taken with tab, the resource is sent
// as an attachment, as one completed by tab is.
func TestMCPResourceInAtMenu(t *testing.T) {
	t.Parallel()
	h := newHome(t, "")
	tm := start(t, h, 120, 36, "--demo", "--mcp-config", everythingConfig(t), "--mcp", "ev")
	tm.waitFor("Ask anything")
	tm.typ("/mcp on ev\r") // waits for its start
	tm.waitFor("MCP server ev is on")
	typed := ""
	for _, k := range strings.Split("see @ev:", "") {
		tm.typ(k)
		typed += k
		want := "› " + strings.TrimRight(typed, " ")
		tm.waitUntil("the key "+k, waitDeadline, func(s string) bool { return strings.HasPrefix(inputLine(s), want) })
	}
	tm.waitUntil("the resources in the menu", waitDeadline, func(s string) bool {
		return strings.Contains(s, "▸ ev:demo://resource/") && strings.Contains(s, "MCP resource")
	})
	// Typed key by key: the user's own choice (a burst of keys would wait
	// as a chip).
	for _, k := range strings.Split("demo://resource/static/document/archi", "") {
		tm.typ(k)
		typed += k
		want := "› " + typed
		tm.waitUntil("the key "+k, waitDeadline, func(s string) bool { return strings.HasPrefix(inputLine(s), want) })
	}
	tm.waitFor("▸ ev:demo://resource/static/document/architecture.md")
	tm.typ("\t")
	tm.waitUntil("the resource taken", waitDeadline, func(s string) bool {
		return strings.Contains(inputLine(s), "@ev:demo://resource/static/document/architecture.md") && !strings.Contains(s, "MCP resource")
	})
	tm.typ("\r")
	tm.waitUntil("the document sent and seen", waitDeadline, func(s string) bool {
		return strings.Contains(s, "I see @ev:demo://resource/static/document/architecture.md") && !busy(statusLine(s))
	})
	tm.typ("\x03\x03")
	if code := tm.waitExit(); code != 0 {
		t.Errorf("muse exited with status %d", code)
	}
}
