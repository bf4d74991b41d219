package session

import (
	"errors"
	"fmt"
)

// A Merging merges an export into the session it was exported from as the
// export is read, as MergeImported does with one read whole: it holds the
// session, which its writer loads, and the entries of the export that the
// session lacks, with their files, not the export. Begin one with
// Store.BeginMerge; Add each entry, AddFile each file, then Finish, or
// Abort. It must not be used by two goroutines at once.
type Merging struct {
	s  *Store
	w  *Writer
	id string
	// news are the entries of the export the session did not hold when
	// they were added, each with the entry before it in the export.
	news []mergeNew
	prev string
	// wanted are the hashes of the files the news name; files the bytes
	// of those that came, and of every file that came before the entries.
	wanted  map[string]bool
	files   map[string][]byte
	entered bool
	done    bool
}

// mergeNew is an entry new to the session, and the one before it in the
// export, which it follows in an export of one branch.
type mergeNew struct {
	e    Entry
	prev string
}

// BeginMerge starts merging an export into the session id: it opens the
// session for writing, so takes its lock (see OpenWriter). An id the store
// does not hold gives an error wrapping ErrNotFound.
func (s *Store) BeginMerge(id string) (*Merging, error) {
	if !validID(id) {
		return nil, fmt.Errorf("import session %s into the one it was exported from: %w", id, ErrNotFound)
	}
	w, err := s.OpenWriter(id)
	if err != nil {
		return nil, fmt.Errorf("import session %s into the one it was exported from: %w", id, err)
	}
	return &Merging{s: s, w: w, id: id, wanted: map[string]bool{}, files: map[string][]byte{}}, nil
}

// has reports whether the session holds the entry id.
func (m *Merging) has(id string) bool {
	m.w.lock()
	defer m.w.mu.Unlock()
	_, ok := m.w.pos[id]
	return ok
}

// Add reads the entry e of the export: one the session holds is left as
// it is; another is kept, to be added by Finish.
func (m *Merging) Add(e Entry) {
	prev := m.prev
	m.prev = e.ID
	if m.has(e.ID) {
		return
	}
	e = m.s.ownImages([]Entry{e})[0]
	m.news = append(m.news, mergeNew{e: e, prev: prev})
	for _, a := range e.Files() {
		m.wanted[a.SHA256] = true
	}
	for _, img := range e.Images {
		if img.SHA256 != "" {
			m.wanted[img.SHA256] = true
		}
	}
}

// EndEntries tells that every entry was read: a file that comes after it
// that no new entry names is not kept.
func (m *Merging) EndEntries() { m.entered = true }

// AddFile keeps data, the bytes of the files whose hash is hash, when a
// new entry names them (or the entries are still to come).
func (m *Merging) AddFile(hash string, data []byte) {
	if m.wanted[hash] || !m.entered {
		m.files[hash] = data
	}
}

// Abort ends the merge, having written nothing.
func (m *Merging) Abort() {
	if m.done {
		return
	}
	m.done = true
	_ = m.w.Close()
}

// Finish adds the new entries, each after the parent it names in a tree
// (an export of every branch), else after the one before it in the
// export, unless that parent is neither in the session nor added; the
// newest added becomes the active one. The session's title becomes title
// when it has none. It stores their files, and returns how many entries
// it added.
func (m *Merging) Finish(title string, tree bool) (int, error) {
	if m.done {
		return 0, errors.New("import session: finished")
	}
	m.done = true
	added := map[string]bool{}
	var add []Entry
	for _, n := range m.news {
		e := n.e
		if !tree {
			e.Parent = n.prev // a line of entries, whatever parents it names
		}
		if e.Parent != "" && !m.has(e.Parent) && !added[e.Parent] {
			continue // its parent was left out: the import refuses this
		}
		added[e.ID] = true
		add = append(add, e)
	}
	m.news = nil
	sub := Imported{ID: m.id, Entries: add, Files: m.files}
	add = m.s.restoreImages(m.id, sub)
	err := m.w.appendTree(add, "")
	if err == nil && title != "" && m.w.Snapshot().Title == "" {
		err = m.w.SetTitle(cleanTitle(title))
	}
	m.s.saveImportedFiles(m.id, sub)
	if cerr := m.w.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return 0, fmt.Errorf("import session %s into the one it was exported from: %w", m.id, err)
	}
	return len(add), nil
}
