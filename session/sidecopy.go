package session

// A session's tombstone and queue sync with its journal, so a sync engine
// can leave conflict copies of them too (merge.go names them). Each is
// merged into the file it copies and then removed; one that cannot be read
// is left beside it, renamed and noted, as a journal's copy is.
//
//   - Two tombstones: the session was deleted on two machines before they
//     synced. The later delete is kept (of two at the same time, the
//     greater machine id's), since a record written between the two was
//     deleted by the later one.
//   - Two queues: prompts queued on two machines behind a turn in flight.
//     Both are kept: the queue's prompts, then those of the copy it does
//     not hold, in their order. This is done under the session's lock, so
//     never while a muse has it open (a later catch-up merges it).

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"syscall"
	"time"

	"muse/api/regfile"
	"muse/session/internal/fileio"
)

// maxClockSkew is how far ahead of this machine's clock another
// machine's may be for its tombstone to be taken.
const maxClockSkew = 24 * time.Hour

// sideCopy is a conflict copy of a session's tombstone or queue.
type sideCopy struct {
	id, ext, name string
}

// mergeSide merges the copy c into the file it copies and removes it. It
// returns false and a note when it left the copy, or set a file aside.
func (s *Store) mergeSide(c sideCopy) (Note, bool) {
	if c.ext == tombExt {
		return s.mergeTombCopy(c)
	}
	return s.mergeQueueCopy(c)
}

// mergeTombCopy keeps the later of the tombstone and its copy c, with
// what both deletes saw.
func (s *Store) mergeTombCopy(c sideCopy) (Note, bool) {
	path := filepath.Join(s.dir, c.name)
	theirs, err := readTomb(path)
	if err != nil {
		return s.leave(c.id, c.name, err.Error()), false
	}
	if !s.believed(theirs.Time) {
		// A delete dated in the future would delete every edit made
		// before that date: such a copy is not taken (tombstone.go).
		return s.leave(c.id, c.name, futureWhy(theirs.Time)), false
	}
	ours, err := readTomb(s.tombPath(c.id))
	var note Note
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		// Set aside, never written over: it came by sync, or by hand.
		if note = s.leave(c.id, c.id+tombExt, err.Error()); note.File == c.id+tombExt {
			return note, false // not renamed: the copy waits
		}
	}
	keep := theirs
	if err == nil {
		if !laterTomb(theirs, ours) {
			keep = ours
		}
		keep.Seen = mergeSeen(theirs, ours) // each deleted what it saw
	}
	if err != nil || !reflect.DeepEqual(keep, ours) {
		keep.ID = c.id
		data, err := json.Marshal(keep)
		if err == nil {
			err = fileio.WriteAtomic(s.tombPath(c.id), append(data, '\n'))
		}
		if err != nil {
			return Note{File: c.name, Session: c.id, Text: "could not merge this copy of the session's tombstone: " + err.Error()}, false
		}
	}
	_ = os.Remove(path)
	return note, note.Text == ""
}

// laterTomb reports whether the delete a happened after b: by time, then
// by machine id.
func laterTomb(a, b tomb) bool {
	if !a.Time.Equal(b.Time) {
		return a.Time.After(b.Time)
	}
	return a.M > b.M
}

// mergeQueueCopy adds to the session's queue the prompts of its copy c
// that it does not hold.
func (s *Store) mergeQueueCopy(c sideCopy) (Note, bool) {
	unlock, err := s.Lock(c.id)
	if err != nil {
		return Note{}, true // open in a muse: merged by a later catch-up
	}
	defer unlock()
	path := filepath.Join(s.dir, c.name)
	theirs, err := readQueueFile(path)
	if err != nil {
		return s.leave(c.id, c.name, "it is not a queue muse can read ("+err.Error()+")"), false
	}
	ours, err := readQueueFile(s.queuePath(c.id))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return s.leave(c.id, c.name, "the session's own queue could not be read ("+err.Error()+")"), false
	}
	merged := ours.Prompts
	for _, p := range theirs.Prompts {
		if !holdsPrompt(merged, p) {
			merged = append(merged, p)
		}
	}
	data, err := json.Marshal(queueFile{V: 1, Prompts: merged})
	if err == nil {
		err = fileio.WriteAtomic(s.queuePath(c.id), data)
	}
	if err != nil {
		return Note{File: c.name, Session: c.id, Text: "could not merge this copy of the session's queued prompts: " + err.Error()}, false
	}
	_ = os.Remove(path)
	return Note{}, true
}

// holdsPrompt reports whether ps holds a prompt equal to p: the
// same text and attachments.
func holdsPrompt(ps []QueuedPrompt, p QueuedPrompt) bool {
	for _, q := range ps {
		if q.Text == p.Text && reflect.DeepEqual(q.Attachments, p.Attachments) {
			return true
		}
	}
	return false
}

// readQueueFile reads the queue file at path, never through a link.
func readQueueFile(path string) (queueFile, error) {
	var qf queueFile
	f, err := os.OpenFile(path, fileio.NoFollow(os.O_RDONLY)|syscall.O_NONBLOCK, 0)
	if err != nil {
		return qf, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return qf, errors.New("not a regular file")
	}
	data, err := regfile.ReadAll(f, maxQueueFile)
	var tooLarge *regfile.TooLargeError
	switch {
	case errors.As(err, &tooLarge):
		return qf, fmt.Errorf("the file is over %d MiB", maxQueueFile>>20)
	case err != nil:
		return qf, err
	case json.Unmarshal(data, &qf) != nil:
		return qf, errors.New("the file is damaged")
	}
	return qf, nil
}
