package mcp

import (
	"fmt"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// A server may ask the user for input (elicitation/create) only while a
// request muse sent it is under way: a tool call, a prompt get or a
// resource read. The MCP specification requires it (SEP-2260: these
// requests "MUST be associated with an originating client request"), and
// it is what keeps a server from opening a form at a moment it picks, in
// the middle of whatever the user is typing. The protocol does not say
// which request a server's request belongs to, so muse counts, for each
// server, its own requests under way (begin), and declines the others'
// (elicited), with a note on the status line naming the server (Notes).
// Completions (CompleteArg) do not count: they run while the user types.

// begin returns the session of s, nil when it is not running, and counts a
// request of muse's to it under way until done is called.
func (m *Manager) begin(s *server) (sess *sdk.ClientSession, done func()) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if s == nil || s.session == nil {
		return nil, func() {}
	}
	s.asking++
	return s.session, func() {
		m.mu.Lock()
		s.asking--
		m.mu.Unlock()
	}
}

// beginNamed is begin of the server name.
func (m *Manager) beginNamed(name string) (*sdk.ClientSession, func()) {
	m.mu.Lock()
	s := m.find(name)
	m.mu.Unlock()
	return m.begin(s)
}

// unasked reports whether s asks for input with none of muse's requests
// to it under way, and if so counts it for a note (Notes) and wakes those
// waiting for one.
func (m *Manager) unasked(s *server) bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	if s.asking > 0 {
		return false
	}
	s.declined++
	m.changedLocked()
	return true
}

// declinedNote is the note on the requests for input of server that muse
// declined since the last note, n of them.
func declinedNote(server string, n int) string {
	times := ""
	if n > 1 {
		times = fmt.Sprintf(" %d times", n)
	}
	return fmt.Sprintf("MCP server %s asked for input%s while muse had asked it nothing: declined (a server may ask only during muse's call of its tool, prompt or resource)", server, times)
}
