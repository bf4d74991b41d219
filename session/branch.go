package session

import (
	"errors"
	"fmt"
)

// Branches: every entry names its parent, so a session is a tree whose
// active branch runs from the first entry to the head. Entries that share a
// parent are siblings: an edited prompt and the prompt it replaced, or two
// replies to the same prompt. The helpers below answer what the chat screen
// and the command line ask of that tree; none of them writes.

// Siblings returns the ids of the entries that share the parent of the entry
// id (itself included), in the order they were written, and the position of
// id among them.
func (s *Session) Siblings(id string) (ids []string, pos int) {
	parent, ok := s.parentOf(id)
	if !ok {
		return nil, -1
	}
	pos = -1
	for _, e := range s.All {
		if e.Parent == parent {
			if e.ID == id {
				pos = len(ids)
			}
			ids = append(ids, e.ID)
		}
	}
	return ids, pos
}

func (s *Session) parentOf(id string) (string, bool) {
	for _, e := range s.All {
		if e.ID == id {
			return e.Parent, true
		}
	}
	return "", false
}

// Leaf returns the end of the latest branch through the entry id: from id,
// it follows the most recently written child until there is none. Switching
// to a sibling shows its latest path this way.
func (s *Session) Leaf(id string) string {
	children := map[string]string{} // parent → its latest child
	for _, e := range s.All {
		children[e.Parent] = e.ID
	}
	seen := map[string]bool{}
	for !seen[id] {
		seen[id] = true
		next, ok := children[id]
		if !ok {
			return id
		}
		id = next
	}
	return id
}

// BranchPath is a branch other than the active one: its entries from where
// it leaves the active branch, after entry number After of the active branch
// (from 1; 0 before the first).
type BranchPath struct {
	After   int
	Entries []Entry
}

// OtherBranches returns every branch of the session but the active one, in
// the order their ends were written.
func (s *Session) OtherBranches() []BranchPath {
	pos := make(map[string]int, len(s.All))
	hasChild := map[string]bool{}
	for i, e := range s.All {
		pos[e.ID] = i
		hasChild[e.Parent] = true
	}
	active := map[string]int{}
	for i, e := range s.Entries {
		active[e.ID] = i + 1
	}
	var out []BranchPath
	for _, e := range s.All {
		if hasChild[e.ID] || e.ID == s.Head {
			continue
		}
		path := branch(s.All, pos, e.ID)
		k := 0
		for k < len(path) && active[path[k].ID] > 0 {
			k++
		}
		after := 0
		if k > 0 {
			after = active[path[k-1].ID]
		}
		out = append(out, BranchPath{After: after, Entries: path[k:]})
	}
	return out
}

// Fork is where a forked session came from.
type Fork struct {
	// ID is the session it was forked from; Entry is the last entry copied.
	ID    string `json:"id"`
	Entry string `json:"entry"`
}

// Fork copies the active branch of the session id, up to and including its
// entry number at (from 1; 0 or less copies all of it), into a new session
// titled title (the old title, marked as a fork, when empty), which records
// where it came from. It returns the new session.
func (s *Store) Fork(id string, at int, title string) (*Session, error) {
	src, err := s.Load(id)
	if err != nil {
		return nil, fmt.Errorf("fork session: %w", err)
	}
	entries := src.Entries
	if at > len(entries) {
		return nil, fmt.Errorf("fork session %s: it has %d messages on its branch, not %d", id, len(entries), at)
	}
	if at > 0 {
		entries = entries[:at]
	}
	if len(entries) == 0 {
		return nil, errors.New("fork session " + id + ": nothing to fork yet")
	}
	if title == "" {
		title = src.Title
		if title == "" {
			title = Untitled
		}
		title = shorten(title+" (fork)", maxRenameRunes)
	}
	w := NewWriter(s, src.Params)
	w.SetTitle(cleanTitle(title))
	w.sess.ForkedFrom = &Fork{ID: src.ID, Entry: entries[len(entries)-1].ID}
	copied := make([]Entry, len(entries))
	for i, e := range entries {
		e.Parent = ""
		if i > 0 {
			e.Parent = entries[i-1].ID
		}
		copied[i] = e
	}
	err = w.create()
	if err == nil {
		err = w.AppendAll(copied)
	}
	if err == nil {
		s.copyAttachments(id, w.ID(), copied)
	}
	if cerr := w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		if nid := w.ID(); nid != "" {
			_ = s.Delete(nid)
		}
		return nil, fmt.Errorf("fork session %s: %w", id, err)
	}
	return s.Load(w.ID())
}
