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
//
// A request for input lives no longer than the requests that allowed it:
// when the last of muse's requests to the server ends (the call finished,
// failed, or cancelled with the turn), its pending form is answered
// cancel and closed (Elicitation.Done), so that nothing typed in it later
// reaches a server muse asks nothing. The protocol does not name the
// request a form belongs to (on stdio), so a form lasts while any of
// muse's requests to its server is under way, not only its own.

// begin returns the session of s, nil when it is not running, and counts a
// request of muse's to it under way until done is called.
func (m *Manager) begin(s *server) (sess *sdk.ClientSession, done func()) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if s == nil || s.session == nil {
		return nil, func() {}
	}
	if s.asking == 0 {
		s.ended = make(chan struct{})
	}
	s.asking++
	return s.session, func() {
		m.mu.Lock()
		defer m.mu.Unlock()
		if s.asking--; s.asking == 0 {
			close(s.ended)
		}
	}
}

// beginNamed is begin of the server name.
func (m *Manager) beginNamed(name string) (*sdk.ClientSession, func()) {
	m.mu.Lock()
	s := m.find(name)
	m.mu.Unlock()
	return m.begin(s)
}

// asked returns, while muse's requests to s are under way, a channel
// closed when the last of them ends, and true. Otherwise s asks for input
// unasked: asked counts it for a note (Notes), wakes those waiting for
// one, and returns false.
func (m *Manager) asked(s *server) (ended <-chan struct{}, ok bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if s.asking > 0 {
		return s.ended, true
	}
	s.declined++
	m.changedLocked()
	return nil, false
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
