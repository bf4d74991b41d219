package session

// A deleted session stays deleted on every machine: Delete leaves a
// tombstone, <id>.deleted, in the store's directory, which syncs with the
// journals. A journal or conflict copy of the session that arrives later
// (from a machine that had not seen the delete) is removed by the next
// catch-up, unless it holds a record written after the delete: an edit
// made on a machine that had not seen it. That session is kept, its
// tombstone removed, and a note says so: delete it again if you mean to.
//
// A delete removes only what its machine saw. A tombstone names, by
// machine, the newest record the deleting machine held of each (Seen): a
// record of a machine it names, dated after that, or of one it does not
// name, is one it never saw, and keeps the session. Each machine's records
// are compared with that machine's own, so no clock skew between machines
// decides it: before, a tombstone dated up to a day ahead (a clock that
// fast) deleted turns added after it on a machine whose clock was right.
// A tombstone without Seen (written by an older muse) keeps a session
// changed after its date, as before. Neither claims more than it can
// have seen of this machine's records: what it claims beyond the newest
// this machine could have written when it first saw it is capped there
// (tombsight.go), so no turn written here after a tombstone arrived goes
// with it, however it is dated; an entry of Seen dated too far ahead to be
// believed names no machine.
//
// A tombstone is kept for tombLife (180 days) after the delete; a copy
// older than the delete that arrives later than that comes back.
//
// A date more than maxClockSkew (a day) after this machine's clock is not
// believed, whoever wrote it: a tombstone dated so (a sync peer's clock far
// ahead, or a file written to win every merge) is set aside, renamed as a
// conflict copy muse cannot merge is, with a note; a record dated so is no
// edit made after a delete; and a delete is dated after the records it
// believes only. So is a file named as a tombstone that is none (garbage,
// larger than one, a link, a folder): it deletes nothing, and is never
// removed, as it came by sync or by hand.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"syscall"
	"time"

	"muse/api"
	"muse/api/regfile"
	"muse/session/internal/fileio"
)

// tombExt is the file name extension of a tombstone.
const tombExt = ".deleted"

// tombLife is how long a tombstone is kept.
const tombLife = 180 * 24 * time.Hour

// tomb is the content of a tombstone.
type tomb struct {
	Type string    `json:"type"`
	ID   string    `json:"id"`
	Time time.Time `json:"time"`
	M    string    `json:"m,omitempty"`
	// Seen is the time of the newest record of each machine the delete
	// saw, by machine id (at most maxSeen of them).
	Seen map[string]time.Time `json:"seen,omitempty"`
	// upto, when set, caps the date up to which an older muse's
	// tombstone deletes the records of the machine here (tombsight.go).
	upto time.Time
	here string
}

// maxSeen bounds the machines a tombstone names, to keep it one short
// line: of a session written on more, the machines whose newest record
// is oldest are left out, and any record of theirs keeps the session
// (kept, never lost, when in doubt).
const maxSeen = 32

// saw reports whether the delete t saw the record of machine m dated at.
func (t tomb) saw(m string, at time.Time) bool {
	if t.Seen == nil { // an older muse's tombstone: by its date
		return !at.After(t.Time) && (m != t.here || t.upto.IsZero() || !at.After(t.upto))
	}
	last, ok := t.Seen[m]
	return ok && !at.After(last)
}

// mergeSeen returns what the deletes a and b saw together: each deleted
// what it saw. It is nil, by date alone, unless both say what they saw.
func mergeSeen(a, b tomb) map[string]time.Time {
	if a.Seen == nil || b.Seen == nil {
		return nil
	}
	out := maps.Clone(a.Seen)
	for m, t := range b.Seen {
		if u, ok := out[m]; !ok || t.After(u) {
			out[m] = t
		}
	}
	return capSeen(out)
}

// capSeen keeps the maxSeen machines of seen whose newest records are
// the newest.
func capSeen(seen map[string]time.Time) map[string]time.Time {
	for len(seen) > maxSeen {
		oldest := ""
		for m, t := range seen {
			if o, ok := seen[oldest]; oldest == "" || !ok || t.Before(o) || (t.Equal(o) && m < oldest) {
				oldest = m
			}
		}
		delete(seen, oldest)
	}
	return seen
}

// tombPath returns the tombstone of the session id.
func (s *Store) tombPath(id string) string { return filepath.Join(s.dir, id+tombExt) }

// writeTomb writes the tombstone of the session id, deleted at t, having
// seen the records seen says.
func (s *Store) writeTomb(id string, t time.Time, seen map[string]time.Time) error {
	data, err := json.Marshal(tomb{Type: "deleted", ID: id, Time: t, M: s.machine, Seen: capSeen(seen)})
	if err != nil {
		return err
	}
	return fileio.WriteAtomic(s.tombPath(id), append(data, '\n'))
}

// tombOf returns the time the session id was deleted, if it has a
// tombstone whose date is believed.
func (s *Store) tombOf(id string) (time.Time, bool) {
	t, ok := s.tombAt(id)
	return t.Time, ok
}

// tombAt returns the tombstone of the session id, if it has one that is
// taken, as takeTomb takes it of a session whose journal is not here.
func (s *Store) tombAt(id string) (tomb, bool) {
	t, err := s.takeTomb(id, false)
	return t, err == nil
}

// notTaken is the error of a tombstone that is read but not taken: why.
type notTaken struct{ why string }

func (e notTaken) Error() string { return e.why }

// takeTomb returns the tombstone of the session id as this machine takes
// it, held saying this machine holds the session's journal: its entries
// dated too far ahead to be believed left out (their machines' records
// keep the session), and what it claims of this machine's records capped
// at what it can have seen (tombsight.go). A tombstone dated too far ahead
// is not taken, nor is one that claims more than it can have seen, in a
// store that has no folder of its own to remember that in.
func (s *Store) takeTomb(id string, held bool) (tomb, error) {
	t, err := readTomb(s.tombPath(id))
	if err != nil {
		return t, err
	}
	if !s.believed(t.Time) {
		return t, notTaken{futureWhy(t.Time)}
	}
	if t.Seen != nil {
		seen := make(map[string]time.Time, len(t.Seen))
		for m, at := range t.Seen {
			if s.believed(at) {
				seen[m] = at
			}
		}
		t.Seen = seen
	}
	if u, ok := s.sightOf(id); ok {
		return t.capped(s.machine, u), nil
	}
	c, claims := t.claim(s.machine)
	if !held || !claims || !c.After(s.clock()) {
		return t, nil
	}
	u := s.upto(id)
	if !c.After(u) {
		return t, nil
	}
	u, err = s.markSight(id, u)
	if err != nil {
		return t, notTaken{claimWhy(t, c, err)}
	}
	return t.capped(s.machine, u), nil
}

// claimWhy says why a tombstone that claims the records of this machine up
// to c is not taken: the store could not remember when it first saw it.
func claimWhy(t tomb, c time.Time, err error) string {
	said := "it says the session was deleted at " + c.UTC().Format(time.RFC3339)
	if t.Seen != nil {
		said = "it says the delete saw this machine's records up to " + c.UTC().Format(time.RFC3339)
	}
	return said + ", later than any record this machine has written, and this muse could not remember when it first saw it (" + err.Error() + "), so it would delete edits made after it arrived"
}

// believed reports whether t is at most maxClockSkew after the clock.
func (s *Store) believed(t time.Time) bool { return !t.After(s.clock().Add(maxClockSkew)) }

// untakenTomb sets the tombstone of the session id aside, with a note, if
// one is there that is not taken (takeTomb) where its journal is not:
// dated too far ahead to be believed, claiming more than it can have seen
// where that cannot be remembered, or no tombstone muse can read (not a
// regular file, larger than one, not its JSON). Either deletes nothing, and would stay, silently, to be read at
// every catch-up. It came by sync, or by hand: it is renamed, as a copy
// muse cannot merge is, never removed.
func (s *Store) untakenTomb(id string) []Note {
	_, err := s.takeTomb(id, false)
	return s.untaken(id, err)
}

// untaken sets the tombstone of the session id aside, with a note, if err
// says it is not taken.
func (s *Store) untaken(id string, err error) []Note {
	var nt notTaken
	switch {
	case err == nil, errors.Is(err, fs.ErrNotExist):
		return nil
	case errors.As(err, &nt):
		s.forgetSight(id)
		return []Note{s.leave(id, id+tombExt, nt.why)}
	}
	return []Note{s.leave(id, id+tombExt, err.Error()+", so the session was not deleted")}
}

// futureWhy says why a tombstone dated t is not taken.
func futureWhy(t time.Time) string {
	return "it says the session was deleted at " + t.UTC().Format(time.RFC3339) +
		", more than a day after now by this machine's clock, so it would delete every edit made before then"
}

// maxTomb bounds the tombstone read: one short line of JSON (about 100
// bytes).
const maxTomb = 4 << 10

// badTomb is the error of a file named as a tombstone that is none muse
// can read.
type badTomb struct{ why string }

func (e badTomb) Error() string { return "it is not a tombstone muse can read: " + e.why }

// readTomb reads the tombstone at path, never through a link, and at most
// maxTomb bytes of it. A file that is there but no tombstone is a badTomb
// saying why; none there is fs.ErrNotExist.
func readTomb(path string) (tomb, error) {
	f, err := os.OpenFile(path, fileio.NoFollow(os.O_RDONLY)|syscall.O_NONBLOCK, 0)
	if err != nil {
		if fi, lerr := os.Lstat(path); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
			return tomb{}, badTomb{"it is a symbolic link"}
		}
		return tomb{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return tomb{}, err
	}
	if !fi.Mode().IsRegular() {
		return tomb{}, badTomb{(&regfile.NotRegularError{Mode: fi.Mode()}).Error()}
	}
	data, err := regfile.ReadAll(f, maxTomb)
	var tooLarge *regfile.TooLargeError
	if errors.As(err, &tooLarge) {
		return tomb{}, badTomb{fmt.Sprintf("it holds %s, where a tombstone is one short line", api.SizeText(fi.Size()))}
	}
	if err != nil {
		return tomb{}, err
	}
	var t tomb
	if json.Unmarshal(data, &t) != nil || t.Time.IsZero() {
		return tomb{}, badTomb{"it is no line of JSON with the time of a delete"}
	}
	return t, nil
}

// records calls fn with the machine and the time of each record of the
// journal at path that muse can read, a line at a time: it holds one
// line, however large the journal (a whole replay held four times its
// size).
func records(path string, fn func(m string, t time.Time)) error {
	f, err := os.OpenFile(path, fileio.NoFollow(os.O_RDONLY)|syscall.O_NONBLOCK, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", filepath.Base(path))
	}
	br := bufio.NewReaderSize(f, 64<<10)
	var buf []byte
	for {
		l, err := fileio.ReadLine(br, buf, maxLine)
		buf = l.Data
		if err != nil && err != io.EOF {
			return fmt.Errorf("read journal: %w", err)
		}
		if l.Size == 0 {
			return nil
		}
		if k := keyLine(bytes.TrimRight(l.Data, "\r")); !l.TooLong && !k.bad {
			fn(k.m, k.t)
		}
		if err == io.EOF {
			return nil
		}
	}
}

// seenIn returns what a delete of the journal at path sees: the time of
// its newest record, and of the newest of each machine, of the records
// dated up to bound (the latest believed). A tombstone names no time too
// far ahead: a reader leaves such an entry out (takeTomb), and a record so
// dated is no edit made after a delete anyway.
func seenIn(path string, bound time.Time) (last time.Time, seen map[string]time.Time, err error) {
	seen = map[string]time.Time{}
	err = records(path, func(m string, t time.Time) {
		if t.After(bound) {
			return
		}
		if t.After(last) {
			last = t
		}
		if u, ok := seen[m]; !ok || t.After(u) {
			seen[m] = t
		}
	})
	return last, seen, err
}

// unseen reports whether the journal at path holds a record the delete t
// did not see, and returns the time of its newest record (or the clock,
// if later): what this machine can have written of it. A record dated too
// far ahead to be believed is no edit made after a delete.
func (s *Store) unseen(path string, t tomb) (bool, time.Time, error) {
	found := false
	upto := s.clock()
	err := records(path, func(m string, at time.Time) {
		if !s.believed(at) {
			return
		}
		found = found || !t.saw(m, at)
		if at.After(upto) {
			upto = at
		}
	})
	return found, upto, err
}

// applyTomb keeps the session id deleted: its journal, if one arrived, is
// removed, unless it was changed after the delete. A tombstone older than
// tombLife is removed.
func (s *Store) applyTomb(id string) []Note {
	fi, err := os.Lstat(s.path(id))
	if err != nil || !fi.Mode().IsRegular() {
		// The usual case, settled with a stat or two: what is old
		// enough by its file's time is read, and removed when expired;
		// what no tombstone can be (not a regular file, or larger than
		// one) is set aside.
		tfi, err := os.Lstat(s.tombPath(id))
		switch {
		case err != nil:
		case !tfi.Mode().IsRegular() || tfi.Size() > maxTomb:
			return s.untakenTomb(id)
		case s.clock().Sub(tfi.ModTime()) > tombLife:
			if t, ok := s.tombOf(id); ok && s.clock().Sub(t) > tombLife {
				_ = os.Remove(s.tombPath(id))
				s.forgetSight(id)
				return nil
			}
			return s.untakenTomb(id)
		}
		return nil
	}
	// Taken before the lock: a tombstone that arrives while the session
	// is open here is judged at its first sight (tombsight.go).
	t, err := s.takeTomb(id, true)
	if err != nil {
		return s.untaken(id, err)
	}
	unlock, err := s.Lock(id)
	if err != nil {
		return nil // open in a muse: settled by a later catch-up
	}
	defer unlock()
	found, upto, err := s.unseen(s.path(id), t)
	if err == nil && found {
		_ = os.Remove(s.tombPath(id))
		s.forgetSight(id)
		return []Note{keptNote(id, t)}
	}
	if err == nil {
		// What this machine wrote leaves with the journal: a tombstone
		// read later cannot have seen more of it (tombsight.go).
		_, _ = s.markSight(id, upto)
	}
	if err := s.removeSession(id); err != nil {
		return []Note{{Session: id, Text: "deleted elsewhere, but could not be removed here: " + err.Error()}}
	}
	return nil
}

// keptNote says the session id was kept though deleted by t.
func keptNote(id string, t tomb) Note {
	return Note{File: id + journalExt, Session: id, Text: fmt.Sprintf("kept: it was deleted at %s, but changed afterwards on a machine that had not seen the delete; delete it again if you mean to", t.Time.Format(time.RFC3339))}
}

// copyOfDeleted settles the conflict copy name of the deleted session id,
// deleted by t: removed, unless it holds a record the delete did not see,
// when it becomes the session's journal again.
func (s *Store) copyOfDeleted(id, name string, t tomb) []Note {
	path := filepath.Join(s.dir, name)
	found, _, err := s.unseen(path, t)
	if err != nil || !found {
		if err == nil || errors.Is(err, ErrDamaged) {
			_ = os.Remove(path)
		}
		return nil
	}
	data, err := readRegular(path)
	if err == nil {
		err = fileio.WriteNew(s.path(id), data)
	}
	if err != nil && !errors.Is(err, fs.ErrExist) {
		return []Note{s.leave(id, name, "it was changed after its session was deleted, and could not be restored: "+err.Error())}
	}
	_ = os.Remove(path)
	_ = os.Remove(s.tombPath(id))
	s.forgetSight(id)
	s.changed(id)
	return []Note{keptNote(id, t)}
}
