package branches

import (
	"testing"

	"muse/session"
	"muse/ui/notices"
)

// An entry's header shows its place among its siblings (see
// session.Tree.Positions), or nothing when it has none.
func TestBadge(t *testing.T) {
	if got := Badge(session.Position{Pos: 1, Siblings: []string{"e2", "e3"}}); got != " ‹ 2/2 ›" {
		t.Errorf("badge %q", got)
	}
	if got := Badge(session.Position{Siblings: []string{"e4"}}); got != "" {
		t.Errorf("an entry without siblings has the badge %q", got)
	}
}

// An entry written after the head, which names no parent, is noted after
// the last entry shown before it that the shape holds; the view counts the
// branches once there are two.
func TestNoteAndRefresh(t *testing.T) {
	s := session.Session{All: []session.Entry{{ID: "e1"}, {ID: "e2", Parent: "e1"}}}
	m := New(s).Refresh([]session.Entry{{ID: "e1"}, {ID: "e2"}})
	if m.View() != "" || m.Count() != 1 {
		t.Fatalf("one branch: view %q, count %d", m.View(), m.Count())
	}
	shown := []session.Entry{{ID: "e1"}, {ID: "n1"}, {ID: "e3"}}
	m = m.Note(session.Entry{ID: "e3"}, shown).Refresh(shown)
	if !m.Has("e3") || m.View() != "2 branches" || m.Of("e3") != "2/2" {
		t.Errorf("e3 noted: has %v, view %q, of %q", m.Has("e3"), m.View(), m.Of("e3"))
	}
	if b := m.Badges(); b["e3"] != " ‹ 2/2 ›" || b["e1"] != "" {
		t.Errorf("badges %q", b)
	}
	if _, why := m.Switch(nil, "e1", 1, ""); why != "this message has no other branch" {
		t.Errorf("switch from an only child: %q", why)
	}
	if _, why := m.Switch(nil, "e3", 1, ""); why != "no later branch: this is 2 of 2" {
		t.Errorf("switch past the last: %q", why)
	}
	if cmd, why := m.Switch(nil, "e3", -1, "busy"); cmd != nil || why != "busy" {
		t.Errorf("switch while refused: %q", why)
	}
	if cmd, why := m.Switch(nil, "e1", 1, "busy"); cmd != nil || why != "this message has no other branch" {
		t.Errorf("refused before it was known there is no other branch: %q", why)
	}
	for _, c := range []struct{ sessID, id, refused, want string }{
		{"", "e3", "", "nothing to fork: the session is not saved yet"},
		{"s1", "e3", "busy", "busy"},
		{"s1", "gone", "", "this message is not saved in the session: select another"},
	} {
		if cmd, why := m.Fork(&session.Store{}, c.sessID, c.id, c.refused); cmd != nil || why != c.want {
			t.Errorf("fork %+v: %q", c, why)
		}
	}
	if cmd, why := m.Fork(nil, "s1", "e3", ""); cmd != nil || why == "" {
		t.Error("forked a session kept in memory only")
	}
}

// A fork the screen cannot show is let go of, kept saved, and named.
func TestForkedKeep(t *testing.T) {
	w := session.NewWriter(nil, session.Params{})
	msg := ForkedMsg{W: w, S: session.Session{ID: "s2"}}
	if got, ok := msg.Keep()().(notices.Msg); !ok || got.Text != "forked into s2" {
		t.Errorf("kept: %#v", got)
	}
}
