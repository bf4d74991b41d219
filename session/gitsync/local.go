package gitsync

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"muse/session"
	"muse/session/internal/fileio"
)

// StoreLocal is the Local of a session store: a journal gains, under the
// session's lock, the records it does not hold, byte for byte, at its end.
type StoreLocal struct{ Store *session.Store }

// MergeJournal implements Local.
func (l StoreLocal) MergeJournal(id string, records []byte) error {
	p := filepath.Join(l.Store.Dir(), id+".jsonl")
	if _, err := os.Lstat(p); errors.Is(err, fs.ErrNotExist) {
		if err := fileio.WriteNew(p, records); !errors.Is(err, fs.ErrExist) {
			return err
		}
	}
	unlock, err := l.Store.Lock(id)
	if err != nil {
		return err
	}
	defer unlock()
	f, err := os.OpenFile(p, fileio.NoFollow(os.O_RDWR|os.O_APPEND), 0)
	if err != nil {
		return err
	}
	defer f.Close()
	have := map[string]bool{}
	br := bufio.NewReaderSize(f, 1<<16)
	var last byte = '\n'
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 {
			last = line[len(line)-1]
			have[lineHash(bytes.TrimSuffix(line, []byte("\n")))] = true
		}
		if err != nil {
			break
		}
	}
	var add []byte
	if last != '\n' { // a cut last line stays apart from what follows
		add = append(add, '\n')
	}
	n := 0
	for line := range bytes.SplitAfterSeq(records, []byte("\n")) {
		if h := lineHash(bytes.TrimSuffix(line, []byte("\n"))); len(bytes.TrimSpace(line)) > 0 && !have[h] {
			have[h] = true
			add = append(add, line...)
			n++
		}
	}
	if n == 0 {
		return nil
	}
	if _, err := f.Write(add); err != nil {
		return fmt.Errorf("merge into session %s: %w", id, err)
	}
	return f.Sync()
}

// RemoveSession implements Local.
func (l StoreLocal) RemoveSession(id string) error {
	if err := l.Store.Delete(id); err != nil && !errors.Is(err, session.ErrNotFound) {
		return err
	}
	return nil
}
