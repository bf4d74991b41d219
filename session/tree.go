package session

import (
	"fmt"
	"slices"
)

// Tree is the shape of a session: which entry follows which, in the order
// they were written, without what they hold. A screen keeps one beside the
// entries it shows, noting each entry written as a message brings it, so it
// can tell where each stands among its siblings without asking the writer.
// Copies share what they hold; Add only ever notes what the session holds.
type Tree struct {
	ids    []string          // in the order written
	parent map[string]string // entry id → its parent's id ("" for a first entry)
}

// Tree returns the shape of s.
func (s *Session) Tree() *Tree {
	t := &Tree{ids: make([]string, 0, len(s.All)), parent: make(map[string]string, len(s.All))}
	for _, e := range s.All {
		t.Add(e)
	}
	return t
}

// Add notes the entry e, written after the entries noted before it. An
// entry noted already keeps its place.
func (t *Tree) Add(e Entry) {
	if _, ok := t.parent[e.ID]; ok {
		return
	}
	t.ids = append(t.ids, e.ID)
	t.parent[e.ID] = e.Parent
}

// Has reports whether the entry id is noted.
func (t *Tree) Has(id string) bool {
	_, ok := t.parent[id]
	return ok
}

// Position is where an entry of a branch stands: its number on the branch,
// and its place among its siblings.
type Position struct {
	// Num is the entry's number on the branch, from 1.
	Num int
	// Pos is its place among Siblings, from 0.
	Pos int
	// Siblings are the ids of the entries that share its parent, itself
	// included, in the order written.
	Siblings []string
}

// Of is the entry's place among its siblings, "2/3", or "" when it has none.
func (p Position) Of() string {
	if len(p.Siblings) < 2 {
		return ""
	}
	return fmt.Sprintf("%d/%d", p.Pos+1, len(p.Siblings))
}

// Positions returns where each entry of the branch path stands, and how
// many branches the tree holds (the entries no other follows). Entries of
// path the tree does not hold, such as a screen's notices, are left out.
// live are entries not written yet, such as a reply that just started:
// each follows the one before, the first the last entry of path the tree
// holds.
func (t *Tree) Positions(path []Entry, live ...Entry) (map[string]Position, int) {
	children := make(map[string][]string, len(t.ids)+len(live))
	for _, id := range t.ids {
		p := t.parent[id]
		children[p] = append(children[p], id)
	}
	ids := make([]string, 0, len(path)+len(live))
	parents := make([]string, 0, len(path)+len(live))
	head := ""
	for _, e := range path {
		if p, ok := t.parent[e.ID]; ok {
			ids, parents, head = append(ids, e.ID), append(parents, p), e.ID
		}
	}
	for _, e := range live {
		children[head] = append(children[head], e.ID)
		ids, parents, head = append(ids, e.ID), append(parents, head), e.ID
	}
	leaves := 0
	for _, id := range t.ids {
		if len(children[id]) == 0 {
			leaves++
		}
	}
	if len(live) > 0 {
		leaves++ // the last live entry: each one before it has a child
	}
	out := make(map[string]Position, len(ids))
	for i, id := range ids {
		sib := children[parents[i]]
		out[id] = Position{Num: i + 1, Pos: max(slices.Index(sib, id), 0), Siblings: sib}
	}
	return out, leaves
}
