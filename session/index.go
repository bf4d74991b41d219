package session

// The index, index.json in the store's directory, keeps the Info of every
// journal with the journal's size and modification time when it was read:
//
//	{"version":1,"sessions":{ID:{"info":{...},"size":N,"mtime":UNIX_NANO},...}}
//
// An entry is used only while its journal still has that size and time, so
// a stale index costs a re-read, never a wrong list. It is only ever
// replaced whole, atomically, and a missing or unreadable one is rebuilt.

import (
	"encoding/json"
	"os"
	"path/filepath"

	"muse/session/internal/fileio"
)

// indexName is the file name of the index.
const indexName = "index.json"

// indexVersion is the format of the index; another is ignored and rebuilt.
const indexVersion = 1

// indexFile is the content of the index.
type indexFile struct {
	Version  int                   `json:"version"`
	Sessions map[string]indexEntry `json:"sessions"`
}

// indexEntry is what the index keeps of a journal.
type indexEntry struct {
	Info  Info  `json:"info"`
	Size  int64 `json:"size"`
	MTime int64 `json:"mtime"` // nanoseconds since 1970
}

func (s *Store) indexPath() string { return filepath.Join(s.dir, indexName) }

// readIndex returns the entries of the index, or nil when it is missing,
// unreadable or of another version.
func (s *Store) readIndex() map[string]indexEntry {
	data, err := os.ReadFile(s.indexPath())
	if err != nil {
		return nil
	}
	var idx indexFile
	if json.Unmarshal(data, &idx) != nil || idx.Version != indexVersion || idx.Sessions == nil {
		return nil
	}
	for id, e := range idx.Sessions {
		if !validID(id) || e.Info.ID != id {
			return nil // not written by List
		}
	}
	return idx.Sessions
}

// writeIndex replaces the index with entries, atomically: a temporary file
// in the same directory is written, synced and renamed over it, and the
// directory is synced.
func (s *Store) writeIndex(entries map[string]indexEntry) error {
	data, err := json.Marshal(indexFile{Version: indexVersion, Sessions: entries})
	if err != nil {
		return err
	}
	return fileio.WriteAtomic(s.indexPath(), data)
}

// forget removes the entry of id from the index, if it has one.
func (s *Store) forget(id string) error {
	s.indexMu.Lock()
	defer s.indexMu.Unlock()
	idx := s.readIndex()
	if _, ok := idx[id]; !ok {
		return nil
	}
	delete(idx, id)
	return s.writeIndex(idx)
}
