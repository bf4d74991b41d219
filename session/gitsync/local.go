package gitsync

import (
	"bufio"
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"muse/session"
	"muse/session/internal/fileio"
)

// StoreLocal is the Local of a session store. The records another machine
// wrote reach a journal through session's own merge: they are written
// beside it as a sync engine's conflict copy (Syncthing's name), which the
// store's catch-up merges under the session's lock (a union of records,
// byte for byte), or later, by any command, while the session is open in a
// muse; a copy of a session deleted here is handled by its tombstone.
type StoreLocal struct{ Store *session.Store }

// MergeJournal implements Local: it writes the records the journal lacks
// as a conflict copy, and returns them.
func (l StoreLocal) MergeJournal(id string, records []byte) ([]byte, error) {
	add, err := lacking(filepath.Join(l.Store.Dir(), id+".jsonl"), records)
	if err != nil || len(add) == 0 {
		return nil, err
	}
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		return nil, err
	}
	// Named in the order they are written, as the catch-up merges them.
	now := time.Now().UTC()
	name := fmt.Sprintf("%s.sync-conflict-%s-musesync%019d%s.jsonl", id, now.Format("20060102-150405"), now.UnixNano(), hex.EncodeToString(b[:]))
	if err := fileio.WriteNew(filepath.Join(l.Store.Dir(), name), add); err != nil {
		return nil, fmt.Errorf("merge into session %s: %w", id, err)
	}
	return add, nil
}

// Settle implements Local: the store's catch-up merges the copies, a
// thousand at a time, until none of this sync's waits but those of
// sessions open in a muse (merged once closed). A copy that became a
// missing journal is removed by the catch-up after, which merges it again
// to no effect.
func (l StoreLocal) Settle() error {
	last := -1
	for {
		if _, err := l.Store.CatchUp(); err != nil {
			return err
		}
		n, err := ourCopies(l.Store.Dir())
		if err != nil || n == 0 || n == last {
			return err
		}
		last = n
	}
}

// ourCopies counts the conflict copies muse sync wrote in dir.
func ourCopies(dir string) (int, error) {
	des, err := os.ReadDir(dir)
	n := 0
	for _, de := range des {
		if strings.Contains(de.Name(), ".sync-conflict-") && strings.Contains(de.Name(), "-musesync") {
			n++
		}
	}
	return n, err
}

// RemoveSession implements Local. A session deleted with a tombstone is
// left to the catch-up, which keeps it if it was written to here after the
// delete (session's rule); a journal removed without one is deleted.
func (l StoreLocal) RemoveSession(id string) error {
	if _, err := os.Lstat(filepath.Join(l.Store.Dir(), id+".deleted")); err == nil {
		return nil
	}
	if err := l.Store.Delete(id); err != nil && !errors.Is(err, session.ErrNotFound) {
		return err
	}
	return nil
}

// lacking returns the lines of records that the journal at path does not
// hold, each once: all of them when it is missing.
func lacking(path string, records []byte) ([]byte, error) {
	have := map[string]bool{}
	f, err := os.OpenFile(path, fileio.NoFollow(os.O_RDONLY), 0)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return nil, err
	default:
		br := bufio.NewReaderSize(f, 1<<16)
		for {
			line, err := br.ReadBytes('\n')
			if len(line) > 0 {
				have[lineHash(bytes.TrimSuffix(line, []byte("\n")))] = true
			}
			if err != nil {
				break
			}
		}
		f.Close()
	}
	var add []byte
	for line := range bytes.SplitAfterSeq(records, []byte("\n")) {
		h := lineHash(bytes.TrimSuffix(line, []byte("\n")))
		if len(bytes.TrimSpace(line)) > 0 && !have[h] {
			have[h] = true
			add = append(add, line...)
		}
	}
	return add, nil
}
