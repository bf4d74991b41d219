package session

// Merging: muse's, not the sync engine's.
//
// A journal is a set of records. Two copies of one session's journal, such
// as the one a sync engine keeps and the conflict copy it writes beside it
// when two machines changed the session before they synced, are merged by
// appending to the journal every record of the copy it does not hold,
// byte for byte. The merged journal holds the union of both; since records
// apply in the order of their times, then machines (order.go), whatever
// order their lines are in, a merge is idempotent (merging a copy again adds
// nothing), commutative and associative (any order of the same copies
// replays to the same session). Entry ids are unique across machines
// (id.go), so a session continued on two machines ends with both
// continuations as sibling branches under their common parent; the active
// branch is the newest, as its records come last.
//
// A sync engine's conflict copies are found by their names:
//
//	ID.sync-conflict-YYYYMMDD-HHMMSS-DEVICE.jsonl   Syncthing
//	ID (… conflicted copy …).jsonl                  Dropbox
//	ID 2.jsonl                                      iCloud (2, 3, …)
//
// and the same names of a tombstone (ID.deleted) or a queue (ID.queue),
// merged as sidecopy.go says,
// and a git conflict left in a journal is read as both sides (replay.go
// skips git's marker lines), then written without it by compaction.
//
// A copy is merged under the session's lock, and removed once every line of
// it was merged. A copy that cannot be merged whole (a damaged line, a
// header of another session, a symbolic link, one too large) is left where
// it is, renamed with unmergedExt so it is not tried again, and noted:
// Notes lists it, and muse doctor shows it. Nothing is ever deleted that
// was not merged first.

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	"muse/api/regfile"
	"muse/session/internal/fileio"
)

// unmergedExt is added to the name of a copy that could not be merged
// whole: it is left beside the session for a person to look at.
const unmergedExt = ".unmerged"

// maxCopy is the largest conflict copy merged, and the largest journal
// merged into: a larger copy is left and noted, so that a catch-up (which
// every list and search runs first) stays bounded in time and memory.
// Merging holds the records to add and a sum of each line of the journal;
// a 240 MB copy took 1.2 GB when the bound was 256 MiB. It is maxListed,
// so a copy merged is a journal a list reads.
const maxCopy = maxListed

// maxCopiesAtOnce bounds how many copies one catch-up merges: thousands of
// conflict files are merged a thousand at a time, over several commands.
const maxCopiesAtOnce = 1000

// The conflict copies' names, without the extension of the file copied
// (see copyOf).
var (
	syncthingCopy = regexp.MustCompile(`^(.+)\.sync-conflict-[0-9]{8}-[0-9]{6}-[A-Za-z0-9]+$`)
	dropboxCopy   = regexp.MustCompile(`^(.+?) \([^()]*conflicted copy[^()]*\)$`)
	icloudCopy    = regexp.MustCompile(`^(.+) ([2-9]|[1-9][0-9]+)$`)
)

// copiedExts are the extensions of the files of a session that sync with
// it, and so can have conflict copies: the journal, its tombstone and its
// queue (sidecopy.go merges the last two).
var copiedExts = []string{journalExt, tombExt, queueExt}

// copyOf reports whether the file name is a sync engine's conflict copy of
// a session's journal, tombstone or queue: of which session, and the
// extension of the file it copies.
func copyOf(name string) (id, ext string, ok bool) {
	for _, ext := range copiedExts {
		// A file's own name has no space and one dot: the usual case is
		// settled without a regular expression.
		base, found := strings.CutSuffix(name, ext)
		if !found || !strings.ContainsAny(base, ". ") {
			continue
		}
		for _, re := range []*regexp.Regexp{syncthingCopy, dropboxCopy, icloudCopy} {
			if m := re.FindStringSubmatch(base); m != nil && validID(m[1]) {
				return m[1], ext, true
			}
		}
	}
	return "", "", false
}

// conflictOf reports whether the file name is a sync engine's conflict copy
// of a journal, and of which session.
func conflictOf(name string) (id string, ok bool) {
	id, ext, ok := copyOf(name)
	return id, ok && ext == journalExt
}

// Note is something a catch-up could not settle alone: a file it left
// beside a session, or a session it kept against a delete. muse doctor
// lists them.
type Note struct {
	// File is the file the note is about, in the store's directory.
	File string `json:"file,omitempty"`
	// Session is the session it concerns, if known.
	Session string `json:"session,omitempty"`
	// Text says what happened and what to do.
	Text string `json:"text"`
}

// SetNotesFile makes the store log the notes of its catch-ups to the file
// path (a per-machine file, not in the synced folder), where Notes reads
// them back. Without one, notes are only returned.
func (s *Store) SetNotesFile(path string) { s.notesFile = path }

// SetMachine sets the id of this machine, which the store writes in the
// records that last writer wins decides (titles, settings, heads, deletes):
// of two written at the same time, the greater machine id wins.
func (s *Store) SetMachine(id string) { s.machine = id }

// CatchUp merges the conflict copies that wait in the store's directory
// into their sessions, keeps deleted sessions deleted (tombstones.go), and
// returns the notes of what it could not settle. It reads only the copies
// and the journals they belong to. Every command that reads sessions runs
// it first, through Scan and List.
func (s *Store) CatchUp() ([]Note, error) {
	des, err := os.ReadDir(s.dir)
	if err != nil {
		return nil, fmt.Errorf("catch up: %w", err)
	}
	return s.catchUp(dirNames(des)), nil
}

// waiting reports whether any of the directory entries des is a conflict
// copy, or a tombstone of a session whose journal is there too: what a
// catch-up has to do. It looks at the names alone.
func waiting(des []fs.DirEntry) bool {
	var tombs []string
	for _, de := range des {
		name := de.Name()
		if id, ok := strings.CutSuffix(name, tombExt); ok {
			tombs = append(tombs, id+journalExt)
		} else if _, _, ok := copyOf(name); ok {
			return true
		}
	}
	if len(tombs) == 0 {
		return false
	}
	slices.Sort(tombs)
	for _, de := range des { // ReadDir sorts by name
		if _, found := slices.BinarySearch(tombs, de.Name()); found {
			return true
		}
	}
	return false
}

// dirNames returns the names of des.
func dirNames(des []fs.DirEntry) []string {
	out := make([]string, len(des))
	for i, de := range des {
		out[i] = de.Name()
	}
	return out
}

// catchUp merges what of names (the store directory's) waits: conflict
// copies, then tombstones.
func (s *Store) catchUp(names []string) []Note {
	copies := map[string][]string{}
	var ids, tombs []string
	var sides []sideCopy
	n := 0
	var notes []Note
	for _, name := range names {
		if id, ok := strings.CutSuffix(name, tombExt); ok && validID(id) {
			tombs = append(tombs, id)
			continue
		}
		id, ext, ok := copyOf(name)
		if !ok {
			continue
		}
		if n++; n > maxCopiesAtOnce {
			continue
		}
		if ext != journalExt {
			sides = append(sides, sideCopy{id: id, ext: ext, name: name})
			continue
		}
		if copies[id] == nil {
			ids = append(ids, id)
		}
		copies[id] = append(copies[id], name)
	}
	if n > maxCopiesAtOnce {
		notes = append(notes, Note{Text: fmt.Sprintf("%d conflict copies wait to be merged; %d were merged now, the rest are merged by the next commands", n, maxCopiesAtOnce)})
	}
	slices.Sort(ids)
	for _, id := range ids {
		slices.Sort(copies[id])
		notes = append(notes, s.mergeCopies(id, copies[id])...)
	}
	// Tombstones' copies are settled before the tombstones apply.
	slices.SortFunc(sides, func(a, b sideCopy) int { return strings.Compare(a.name, b.name) })
	for _, c := range sides {
		if note, ok := s.mergeSide(c); !ok {
			notes = append(notes, note)
		}
	}
	for _, id := range tombs {
		notes = append(notes, s.applyTomb(id)...)
	}
	s.pruneSights(tombs)
	s.logNotes(notes)
	return notes
}

// mergeCopies merges the conflict copies names of the session id into its
// journal.
func (s *Store) mergeCopies(id string, names []string) []Note {
	var notes []Note
	main := s.path(id)
	fi, err := os.Lstat(main)
	if errors.Is(err, fs.ErrNotExist) {
		// No journal (yet): the first copy becomes it, unless the session
		// was deleted (see applyTomb), and the others merge into it.
		if t, ok := s.tombAt(id); ok {
			for i, name := range names {
				notes = append(notes, s.copyOfDeleted(id, name, t)...)
				if _, err := os.Lstat(main); err == nil && i+1 < len(names) {
					// Restored, as a delete had not seen all of it: the
					// other copies merge into it, as they would have.
					return append(notes, s.mergeCopies(id, names[i+1:])...)
				}
			}
			return notes
		}
		notes = append(notes, s.untakenTomb(id)...)
		first := filepath.Join(s.dir, names[0])
		if cfi, err := os.Lstat(first); err != nil || !cfi.Mode().IsRegular() || cfi.Size() > maxCopy {
			return append(notes, s.leave(id, names[0], "it is not a regular file, or too large, and the session has no journal to merge it into"))
		}
		// Copied, not moved: if the journal was only briefly missing (a
		// sync engine replacing it), the copy is still there to merge
		// into what arrives, by the next catch-up, which removes it.
		data, err := readRegular(first)
		if err == nil {
			err = fileio.WriteNew(main, data)
		}
		if err == nil {
			s.changed(id)
			notes = append(notes, Note{File: id + journalExt, Session: id, Text: "a sync engine's copy of a session this folder did not hold (" + names[0] + ") became its journal"})
		} else if !errors.Is(err, fs.ErrExist) {
			return append(notes, Note{File: names[0], Session: id, Text: "could not make it the session's journal: " + err.Error()})
		}
		return notes
	}
	if err != nil {
		return append(notes, Note{Session: id, Text: "could not merge its conflict copies: " + err.Error()})
	}
	if !fi.Mode().IsRegular() || fileio.Shared(fi) {
		return append(notes, Note{File: filepath.Base(main), Session: id, Text: "the journal is a link or not a regular file: muse does not merge into it; replace it with a plain file"})
	}
	if fi.Size() > maxCopy {
		for _, name := range names {
			notes = append(notes, s.leave(id, name, fmt.Sprintf("its session's journal is %d MiB, more than the %d MiB merged automatically", fi.Size()>>20, maxCopy>>20)))
		}
		return notes
	}
	unlock, err := s.Lock(id)
	if err != nil {
		return notes // open in a muse: merged by a later catch-up
	}
	defer unlock()
	have, whole, err := lineSet(main)
	if err != nil {
		return append(notes, Note{Session: id, Text: "could not read the journal to merge into it: " + err.Error()})
	}
	if !whole {
		return notes // still being written: merged once it is whole
	}
	for _, name := range names {
		if note, ok := s.mergeCopy(id, name, have); !ok {
			notes = append(notes, note)
		}
	}
	return notes
}

// mergeCopy appends to the journal of id the records of the copy name it
// does not have, adding them to have, then removes the copy; ok is false
// when the copy could not be merged whole, and was left, with why.
func (s *Store) mergeCopy(id, name string, have map[[16]byte]bool) (Note, bool) {
	path := filepath.Join(s.dir, name)
	f, err := os.OpenFile(path, fileio.NoFollow(os.O_RDONLY)|syscall.O_NONBLOCK, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return Note{}, true // merged by another muse meanwhile
		}
		return s.leave(id, name, "it cannot be opened ("+reason(err)+"); a symbolic link is never followed"), false
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || !fi.Mode().IsRegular() {
		return s.leave(id, name, "it is not a regular file"), false
	}
	if fi.Size() > maxCopy {
		return s.leave(id, name, fmt.Sprintf("it is %d MiB, more than the %d MiB merged automatically", fi.Size()>>20, maxCopy>>20)), false
	}
	add, bad, other, err := missing(f, id, have)
	if err != nil {
		return s.leave(id, name, "it could not be read: "+err.Error()), false
	}
	if other != "" {
		return s.leave(id, name, fmt.Sprintf("it holds session %s, not %s: import it with muse sessions import --copy if you want it", other, id)), false
	}
	if len(add) > 0 {
		if err := s.appendFile(s.path(id), add, true); err != nil {
			return Note{File: name, Session: id, Text: "could not merge it: " + writeHint(err).Error()}, false
		}
		s.changed(id)
	}
	if bad > 0 {
		return s.leave(id, name, fmt.Sprintf("%d of its lines are damaged; the others were merged", bad)), false
	}
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return Note{File: name, Session: id, Text: "merged, but could not be removed: " + err.Error()}, false
	}
	return Note{}, true
}

// missing returns the records of the journal copy r of the session id
// whose lines are not in have, in the order of r, adding them to have; how
// many lines are damaged; and the id another session's header names, if r
// holds one.
func missing(r io.Reader, id string, have map[[16]byte]bool) (add []byte, bad int, other string, err error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var buf []byte
	for {
		l, err := fileio.ReadLine(br, buf, maxLine)
		buf = l.Data
		if err != nil && err != io.EOF {
			return nil, 0, "", err
		}
		if l.Size == 0 {
			break
		}
		line := bytes.TrimRight(l.Data, "\r")
		switch {
		case blank(line), gitMarker(line):
		case l.TooLong || keyLine(line).bad: // not JSON, or not a record (a bare 5, an object of no known type)
			bad++
		default:
			if keyLine(line).typ == recHeader {
				var h struct {
					ID string `json:"id"`
				}
				if json.Unmarshal(line, &h) == nil && h.ID != id && h.ID != "" {
					other = h.ID
				}
				break
			}
			if sum := lineSum(line); !have[sum] {
				have[sum] = true
				add = append(add, line...)
				add = append(add, '\n')
			}
		}
		if err == io.EOF {
			break
		}
	}
	return add, bad, other, nil
}

// readRegular reads the regular file path, never through a link.
func readRegular(path string) ([]byte, error) {
	f, err := os.OpenFile(path, fileio.NoFollow(os.O_RDONLY)|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err != nil || !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is not a regular file", path)
	}
	return regfile.ReadAll(f, maxCopy)
}

// leave renames the copy name of the session id so that it is not tried
// again, and returns the note that says why it was left.
func (s *Store) leave(id, name, why string) Note {
	kept := name
	if !strings.HasSuffix(name, unmergedExt) {
		kept = s.asideName(name)
		if kept == "" || os.Rename(filepath.Join(s.dir, name), filepath.Join(s.dir, kept)) != nil {
			kept = name
		}
	}
	return Note{File: kept, Session: id, Text: "left beside the session, not merged: " + why + "; look at it, then delete it"}
}

// asideName is the name to set the file name aside under: name with
// unmergedExt, or, when a file set aside before holds that, with a number
// before it, so that none is replaced; "" when the first 100 are taken.
func (s *Store) asideName(name string) string {
	for n := 1; n <= 100; n++ {
		kept := name + unmergedExt
		if n > 1 {
			kept = name + "." + strconv.Itoa(n) + unmergedExt
		}
		if _, err := os.Lstat(filepath.Join(s.dir, kept)); errors.Is(err, fs.ErrNotExist) {
			return kept
		}
	}
	return ""
}

// lineSum is what merging compares lines by.
func lineSum(line []byte) [16]byte {
	sum := sha256.Sum256(line)
	return [16]byte(sum[:16])
}

// lineSet returns the sums of the records of the journal at path, and
// whether it is whole: a last line without its newline is one a sync
// engine or a crash left unfinished, and nothing is appended after it.
func lineSet(path string) (map[[16]byte]bool, bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	have := map[[16]byte]bool{}
	br := bufio.NewReaderSize(f, 64<<10)
	var buf []byte
	whole := true
	for {
		l, err := fileio.ReadLine(br, buf, maxLine)
		buf = l.Data
		if err != nil && err != io.EOF {
			return nil, false, err
		}
		if l.Size == 0 {
			break
		}
		if !l.Newline {
			whole = false
		}
		if line := bytes.TrimRight(l.Data, "\r"); !blank(line) && !l.TooLong {
			have[lineSum(line)] = true
		}
		if err == io.EOF {
			break
		}
	}
	return have, whole, nil
}

func isConflict(name string) bool {
	_, ok := conflictOf(name)
	return ok
}

// logNotes appends notes to the store's notes file, if it has one.
func (s *Store) logNotes(notes []Note) {
	if s.notesFile == "" || len(notes) == 0 {
		return
	}
	var data []byte
	now := s.clock()
	for _, n := range notes {
		line, err := json.Marshal(struct {
			Time time.Time `json:"time"`
			Note
		}{now, n})
		if err == nil {
			data = append(append(data, line...), '\n')
		}
	}
	if err := fileio.MakeDir(filepath.Dir(s.notesFile)); err != nil {
		return
	}
	f, err := os.OpenFile(s.notesFile, fileio.NoFollow(os.O_WRONLY|os.O_APPEND|os.O_CREATE), 0o600)
	if err != nil {
		return
	}
	defer f.Close()
	_, _ = f.Write(data)
}

// maxNotes bounds what Notes reads of the notes file, which catch-ups
// append to: the newest notes.
const maxNotes = 1 << 20

// notesTail returns the last maxNotes bytes of the notes file at path,
// from the start of a line, and how many bytes before them it left out.
func notesTail(path string) (data []byte, cut int64, err error) {
	f, err := os.OpenFile(path, fileio.NoFollow(os.O_RDONLY)|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, 0, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, 0, err
	}
	if !fi.Mode().IsRegular() {
		return nil, 0, &regfile.NotRegularError{Mode: fi.Mode()}
	}
	if cut = max(fi.Size()-maxNotes, 0); cut > 0 {
		if _, err := f.Seek(cut, io.SeekStart); err != nil {
			return nil, 0, err
		}
	}
	data, err = regfile.ReadAll(f, maxNotes)
	if tooLarge := (*regfile.TooLargeError)(nil); errors.As(err, &tooLarge) {
		err = nil // appended to meanwhile: the newer notes wait for the next look
	}
	if cut > 0 {
		nl := bytes.IndexByte(data, '\n') + 1 // the first line is cut
		data, cut = data[nl:], cut+int64(nl)
	}
	return data, cut, err
}

// Notes returns what catch-ups noted (see SetNotesFile), oldest first, and
// a note for each file left beside the sessions now: copies not merged,
// and conflict copies that wait.
func (s *Store) Notes() ([]Note, error) {
	var notes []Note
	if s.notesFile != "" {
		data, cut, err := notesTail(s.notesFile)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("read sync notes: %w", err)
		}
		if cut > 0 {
			notes = append(notes, Note{File: s.notesFile, Text: fmt.Sprintf("the %d KiB of older notes before these are not shown; delete the file to start afresh", cut>>10)})
		}
		for _, line := range bytes.Split(data, []byte{'\n'}) {
			var n Note
			if json.Unmarshal(line, &n) == nil && n.Text != "" {
				notes = append(notes, n)
			}
		}
	}
	des, err := os.ReadDir(s.dir)
	if err != nil {
		return nil, fmt.Errorf("read sync notes: %w", err)
	}
	for _, de := range des {
		name := de.Name()
		switch {
		case strings.HasSuffix(name, unmergedExt):
			notes = append(notes, Note{File: name, Text: "a copy left beside its session, not merged whole: look at it, then delete it"})
		case isConflict(name):
			notes = append(notes, Note{File: name, Text: "a conflict copy waiting to be merged (its session is open, or its journal unfinished)"})
		case strings.HasSuffix(name, journalExt) && de.Type()&fs.ModeSymlink != 0:
			notes = append(notes, Note{File: name, Text: "a journal that is a symbolic link: muse does not read or write through it"})
		}
	}
	return notes, nil
}
