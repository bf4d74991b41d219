package session

import (
	"crypto/rand"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"muse/session/internal/fileio"
)

// ErrDeleted means the session's journal was removed while it was open:
// nothing more is written to it.
var ErrDeleted = errors.New("the session was deleted")

// Writer is the one writer of an open session. It owns the journal and
// writes records in the order they are given; its methods may be called from
// several goroutines.
//
// A new session's journal is created with its first entry. A record that
// cannot be written (a full disk, a read-only directory) is kept and written
// before the next one, so nothing is lost once writing works again; until
// then Unsaved counts what waits, and every method returns the error.
//
// Two locks: mu guards the session in memory and the records that wait, and
// is never held across a write to the disk, so reading the session (a
// screen's Snapshot, ID or NewID) never waits for one; ioMu orders the
// writes and syncs of the journal, one at a time, in the order the records
// were queued. A method that writes takes mu to change the session and queue
// its record, lets it go, then takes ioMu (and mu again, briefly, to take the
// records and to note them written) for the write. ioMu is never taken while
// mu is held.
//
// A Writer made with a nil store keeps the session in memory only.
type Writer struct {
	mu      sync.Mutex
	ioMu    sync.Mutex
	store   *Store
	sess    *Session
	pos     map[string]int  // entry id → position in sess.All
	exists  bool            // the journal has been created
	unlock  func() error    // releases the session's lock
	pending []pendingRecord // records not yet written, in order
	queued  uint64          // how many records were ever queued
	written uint64          // how many of them are written
	// creating is set while the journal is being created, with the title
	// and settings taken for its header: a change of either made then is
	// queued as a record of its own.
	creating bool
	err      error                  // why the last write failed
	marks    map[string][]blockMark // what the chunks of each streaming reply hold
	// last is the time of the newest record of the journal: a record is
	// never written with a time before it (see Writer.now).
	lastMu sync.Mutex
	last   time.Time
	closed bool
	// files holds the bytes of attachments SaveAttachment could not store,
	// by hash, for the turns of this run.
	files map[string][]byte
	// queueGen is the gen of the last queue SaveQueue wrote (see there).
	queueGen uint64
	// replay is the replay of the journal in the background, for a writer
	// of OpenWriterAsync; set before the writer is shared, never changed.
	replay *asyncReplay
}

// asyncReplay is the state of a replay in the background. The writer's mu
// is held until it is done; it waits to begin until Replay or another
// method asks for it, and Close gives it up while it runs.
type asyncReplay struct {
	start     chan struct{} // closed to begin
	begin     sync.Once
	mu        sync.Mutex
	done      bool // the replay finished and its session is the writer's
	abandoned bool // Close gave it up
	stop      atomic.Bool
	// id is the session's; params, when set, are the settings the adjust
	// of OpenWriterAsync made, which Close writes when it gives the replay up.
	id     string
	params *Params
}

// lock locks w.mu, which a replay in the background holds until it is
// done, beginning that replay if it waits.
func (w *Writer) lock() {
	w.Replay()
	w.mu.Lock()
}

// Replay begins replaying the journal of a writer of OpenWriterAsync in
// the background, if that waits to begin; every other method of the writer
// begins it too, and waits until it is done. A screen calls it once its
// first frame is drawn, which the replay would slow down.
func (w *Writer) Replay() {
	if r := w.replay; r != nil {
		r.begin.Do(func() { close(r.start) })
	}
}

// pendingRecord is an encoded record waiting to be written.
type pendingRecord struct {
	line []byte
	sync bool
}

// NewWriter returns the writer of a new session with the settings p. Its
// journal is created with the first entry, so a session nobody wrote to
// leaves no file. store may be nil: the session is then kept in memory only.
func NewWriter(store *Store, p Params) *Writer {
	return &Writer{store: store, sess: &Session{Params: p.Clone()}, pos: map[string]int{}, marks: map[string][]blockMark{}}
}

// OpenWriter opens the session id for writing: it takes the session's lock
// (an error wrapping ErrLocked names the other muse), loads the journal and
// compacts it when it has grown well past what it holds or ends in a reply
// that was cut short. The session's Warnings tell what loading skipped.
func (s *Store) OpenWriter(id string) (*Writer, error) {
	unlock, err := s.Lock(id)
	if err != nil {
		return nil, err
	}
	cleaned := s.removeSessionTemps(id)
	sess, size, err := s.loadStats(id, false)
	if err != nil {
		unlock()
		return nil, fmt.Errorf("load session %s: %w", id, err)
	}
	w := &Writer{store: s, exists: true, unlock: unlock, marks: map[string][]blockMark{}}
	w.opened(sess, size, cleaned)
	return w, nil
}

// opened makes sess, replayed from a journal of the given size, the
// session of w, compacting the journal when it is worth it. cleaned is
// what failed as the session's temporary files were removed, if anything.
func (w *Writer) opened(sess *Session, size journalSize, cleaned error) {
	w.sess = sess
	w.reindex()
	w.lastMu.Lock()
	w.last = size.last
	w.lastMu.Unlock()
	if cleaned != nil {
		sess.Warnings = append(sess.Warnings, cleaned.Error())
	}
	var warnings []string
	sess.Queue, warnings = w.store.loadQueue(sess.ID)
	sess.Warnings = append(sess.Warnings, warnings...)
	if needsCompaction(size, sess) {
		if err := w.store.compact(sess, size.cutIDs); err != nil {
			sess.Warnings = append(sess.Warnings, "could not compact the journal: "+writeHint(err).Error())
		} else {
			w.store.changed(sess.ID)
		}
	}
}

// needsCompaction reports whether a journal is worth rewriting (see
// compact.go): it ends in a line a crash cut, or holds a git conflict's
// lines, or another machine's records merged in out of order (rewritten in
// order, a preview of its last records shows the newest), or a reply that
// replay cut at the size limit, or more than half
// of it is superseded records, and enough to matter. A journal
// with a line that could not be read, or a record a newer muse wrote, is
// never rewritten: compacting would lose them for good, where a person or a
// newer muse could still recover them.
func needsCompaction(size journalSize, sess *Session) bool {
	if size.damaged > 0 || size.unknown > 0 {
		return false
	}
	if size.cut > 0 || size.torn || size.markers > 0 || size.reordered {
		return true
	}
	dead := size.total - size.live
	return dead > size.live && dead > 64<<10
}

func (w *Writer) reindex() {
	w.pos = make(map[string]int, len(w.sess.All))
	for i, e := range w.sess.All {
		w.pos[e.ID] = i
	}
}

// ID returns the session's id, or "" while its journal is not created.
func (w *Writer) ID() string {
	w.lock()
	defer w.mu.Unlock()
	return w.sess.ID
}

// Snapshot returns a copy of the session as written so far, sharing no
// slices with the writer.
func (w *Writer) Snapshot() Session {
	w.lock()
	defer w.mu.Unlock()
	return w.snapshot()
}

// snapshot is Snapshot for a caller holding w.mu.
func (w *Writer) snapshot() Session {
	s := *w.sess
	s.All = slices.Clone(s.All)
	s.Entries = slices.Clone(s.Entries)
	s.Warnings = slices.Clone(s.Warnings)
	s.Params = s.Params.Clone()
	s.Queue = slices.Clone(s.Queue)
	return s
}

// Branch returns a copy of the active branch: the entries from the first to
// the head.
func (w *Writer) Branch() []Entry {
	w.lock()
	defer w.mu.Unlock()
	return slices.Clone(w.sess.Entries)
}

// Params returns the session's settings.
func (w *Writer) Params() Params {
	w.lock()
	defer w.mu.Unlock()
	return w.sess.Params.Clone()
}

// NewID returns a new entry id, unique across machines (see id.go).
func (w *Writer) NewID() string {
	w.lock()
	defer w.mu.Unlock()
	return w.newID()
}

func (w *Writer) newID() string {
	random := rand.Reader
	if w.store != nil {
		random = w.store.random
	}
	for {
		id, err := newEntryID(w.now(), random)
		if err != nil {
			// A source of randomness that fails is one a test gave:
			// the real one never does. Fall back to the system's.
			id, _ = newEntryID(w.now(), rand.Reader)
		}
		if _, ok := w.pos[id]; !ok {
			return id
		}
	}
}

// Append writes the entry e, synced. An entry with a new id is added after
// the head (unless e names its parent) and becomes the head; one with the id
// of an entry already written replaces it, as when a streaming reply ends.
// A missing id or time is filled in. Append returns e as written; the entry
// is part of the session even when writing fails (see Writer).
func (w *Writer) Append(e Entry) (Entry, error) {
	w.lock()
	if e.ID == "" {
		e.ID = w.newID()
	}
	if e.Time.IsZero() {
		e.Time = w.now()
	}
	if i, ok := w.pos[e.ID]; ok && e.Parent == "" {
		e.Parent = w.sess.All[i].Parent
	} else if !ok && e.Parent == "" {
		e.Parent = w.sess.Head
	}
	delete(w.marks, e.ID)
	w.put(e)
	return e, w.send(&record{Type: recEntry, Time: w.now(), Entry: &e}, true)
}

// AppendAll appends the entries es as Append does, with one write and one
// sync for them all, as a fork does.
func (w *Writer) AppendAll(es []Entry) error {
	return w.appendAll(es, false)
}

// appendTree appends the entries es, each after the parent it names (an
// empty parent makes it a first entry), with one write and one sync, then
// makes the branch ending at head the active one: a whole tree of branches,
// as an export of every branch holds it.
func (w *Writer) appendTree(es []Entry, head string) error {
	if err := w.appendAll(es, true); err != nil {
		return err
	}
	if head == "" {
		return nil
	}
	return w.SetHead(head)
}

func (w *Writer) appendAll(es []Entry, literal bool) error {
	w.lock()
	if w.closed {
		w.mu.Unlock()
		return errors.New("the session is closed")
	}
	for _, e := range es {
		if e.ID == "" {
			e.ID = w.newID()
		}
		if e.Time.IsZero() {
			e.Time = w.now()
		}
		if i, ok := w.pos[e.ID]; ok && e.Parent == "" && !literal {
			e.Parent = w.sess.All[i].Parent
		} else if !ok && e.Parent == "" && !literal {
			e.Parent = w.sess.Head
		}
		w.put(e)
		if w.store == nil {
			continue
		}
		line, err := encodeRecord(&record{Type: recEntry, Time: w.now(), M: w.store.machine, Entry: &e})
		if err != nil {
			w.mu.Unlock()
			return err
		}
		w.pending = append(w.pending, pendingRecord{line: line, sync: true})
		w.queued++
	}
	if len(es) > 0 {
		w.sess.Updated = w.now()
	}
	n := w.queued
	w.mu.Unlock()
	return w.commit(n, nil, true)
}

// AppendAt writes the entry e, synced, after the entry parent, whatever the
// head: an empty parent makes e a first entry. It becomes the head. This is
// how an edited prompt starts a branch beside the prompt it replaces.
func (w *Writer) AppendAt(e Entry, parent string) (Entry, error) {
	w.lock()
	if _, ok := w.pos[parent]; !ok && parent != "" {
		w.mu.Unlock()
		return e, fmt.Errorf("append: no entry %q to follow", parent)
	}
	if e.ID == "" {
		e.ID = w.newID()
	}
	if _, ok := w.pos[e.ID]; ok {
		w.mu.Unlock()
		return e, fmt.Errorf("append: entry %q exists", e.ID)
	}
	if e.Time.IsZero() {
		e.Time = w.now()
	}
	e.Parent = parent
	w.put(e)
	return e, w.send(&record{Type: recEntry, Time: w.now(), Entry: &e}, true)
}

// put applies the entry e to the session in memory.
func (w *Writer) put(e Entry) {
	s := w.sess
	if i, ok := w.pos[e.ID]; ok {
		s.All[i] = e
		for k := len(s.Entries) - 1; k >= 0; k-- { // a reply being written is last
			if s.Entries[k].ID == e.ID {
				s.Entries[k] = e
				break
			}
		}
		return
	}
	w.pos[e.ID] = len(s.All)
	s.All = append(s.All, e)
	if n := len(s.Entries); e.Parent != "" && n > 0 && s.Entries[n-1].ID == e.Parent || e.Parent == "" && n == 0 {
		s.Head = e.ID // the usual case: the branch grows by one
		s.Entries = append(s.Entries, e)
	} else {
		w.setHead(e.ID)
	}
}

// setHead makes the branch ending at id the active one.
func (w *Writer) setHead(id string) {
	w.sess.Head = id
	w.sess.Entries = branch(w.sess.All, w.pos, id)
}

// Checkpoint writes what a streaming reply e holds so far, not synced: only
// what arrived since its last checkpoint is written, so the checkpoints of a
// reply cost its length once in all. Append the reply when it ends.
func (w *Writer) Checkpoint(e Entry) error {
	w.lock()
	if e.ID == "" {
		w.mu.Unlock()
		return errors.New("checkpoint: the reply has no id")
	}
	e.Status = StatusStreaming
	c := chunk{ID: e.ID}
	marks, seen := w.marks[e.ID]
	if i, ok := w.pos[e.ID]; !ok {
		if e.Parent == "" {
			e.Parent = w.sess.Head
		}
		if e.Time.IsZero() {
			e.Time = w.now()
		}
		skeleton := e
		if e.Message != nil {
			m := *e.Message
			m.Content = nil
			skeleton.Message = &m
		}
		c.Entry = &skeleton
	} else {
		e.Parent = w.sess.All[i].Parent
		if !seen && w.sess.All[i].Message != nil {
			// A reply that goes on (/continue): its chunks extend what it held.
			_, marks = diffBlocks(nil, w.sess.All[i].Message.Content)
		}
	}
	var blocks []blockDelta
	if e.Message != nil {
		blocks, marks = diffBlocks(marks, e.Message.Content)
	}
	c.Blocks = blocks
	w.marks[e.ID] = marks
	w.put(e)
	if c.Entry == nil && len(c.Blocks) == 0 {
		err := w.err
		w.mu.Unlock()
		return err
	}
	return w.send(&record{Type: recChunk, Time: w.now(), Chunk: &c}, false)
}

// SetTitle writes the session's title.
func (w *Writer) SetTitle(title string) error {
	w.lock()
	w.sess.Title = title
	if !w.exists && !w.creating {
		err := w.err // written with the header
		w.mu.Unlock()
		return err
	}
	return w.send(&record{Type: recTitle, Time: w.now(), Title: &title}, true)
}

// SetParams writes the session's settings.
func (w *Writer) SetParams(p Params) error {
	w.lock()
	n, err := w.setParams(p)
	w.mu.Unlock()
	return w.commit(n, err, false)
}

// setParams is SetParams for a caller holding w.mu: it sets the settings
// and queues their record, which the caller commits once it lets go of
// w.mu.
func (w *Writer) setParams(p Params) (uint64, error) {
	p = p.Clone()
	w.sess.Params = p
	if !w.exists && !w.creating {
		return 0, w.err // written with the header
	}
	return w.queue(&record{Type: recParams, Time: w.now(), Params: &p}, true)
}

// SetHead makes the branch ending at the entry id the active one.
func (w *Writer) SetHead(id string) error {
	w.lock()
	if _, ok := w.pos[id]; !ok && id != "" {
		w.mu.Unlock()
		return fmt.Errorf("set head: no entry %q in the session", id)
	}
	w.setHead(id)
	return w.send(&record{Type: recHead, Time: w.now(), Head: &id}, true)
}

// Unsaved returns how many records wait to be written, and why the last
// attempt failed. A record being written counts until it is.
func (w *Writer) Unsaved() (int, error) {
	w.lock()
	defer w.mu.Unlock()
	return len(w.pending), w.err
}

// Close writes what waits, notes the session in the store's index and
// releases its lock. It returns an error when records could not be written.
// The writer must not be used after.
func (w *Writer) Close() error {
	if r := w.replay; r != nil {
		r.mu.Lock()
		if !r.done {
			// Closed before the journal was replayed, so before anything
			// but the adjusted settings was to be written: the lock can go
			// at once.
			first := !r.abandoned
			r.abandoned = true
			r.stop.Store(true)
			r.mu.Unlock()
			w.Replay() // to end at once
			if !first {
				return nil
			}
			var err error
			if r.params != nil {
				err = w.store.writeRecord(r.id, &record{Type: recParams, Time: w.now(), Params: r.params})
			}
			if w.unlock != nil {
				w.unlock()
			}
			if err != nil {
				return fmt.Errorf("session %s: its settings were not saved: %w", r.id, err)
			}
			return nil
		}
		r.mu.Unlock()
	}
	w.lock()
	if w.closed {
		w.mu.Unlock()
		return nil
	}
	w.closed = true // nothing more is queued
	n := w.queued
	w.mu.Unlock()
	w.ioMu.Lock()
	defer w.ioMu.Unlock()
	err := w.commitLocked(n, true)
	w.mu.Lock()
	id, unsaved, unlock := w.sess.ID, len(w.pending), w.unlock
	w.unlock = nil
	w.mu.Unlock()
	if unlock != nil {
		unlock()
	}
	if err != nil {
		return fmt.Errorf("session %s: %d changes not saved: %w", id, unsaved, err)
	}
	return nil
}

// now returns the time of a new record: the clock's, but never before
// the newest record of the journal, and after it by at least a
// nanosecond. Records of a journal thus have distinct times that follow
// the order they were written, even when this machine's clock is behind
// another's whose records were merged in: merging orders records by time
// (merge.go).
//
// A journal whose newest record is dated at the last time a record can
// hold (maxRecordTime: a clock far wrong, or a synced record written to
// come last) has its next records dated there too, in the order of their
// lines (see order.go): a time after it could not be written, and every
// turn of the session would fail to save.
func (w *Writer) now() time.Time {
	t := time.Now().UTC()
	if w.store != nil {
		t = w.store.clock()
	}
	w.lastMu.Lock()
	defer w.lastMu.Unlock()
	if !t.After(w.last) {
		t = w.last.Add(time.Nanosecond)
	}
	if t.After(maxRecordTime) {
		t = maxRecordTime
	}
	w.last = t
	return t
}

// maxRecordTime is the last time a record can carry: JSON's RFC 3339
// times have four digits for the year.
var maxRecordTime = time.Date(9999, 12, 31, 23, 59, 59, 999999999, time.UTC)

// send queues rec, lets go of w.mu, which the caller holds, and commits
// it; sync is queue's.
func (w *Writer) send(rec *record, sync bool) error {
	n, err := w.queue(rec, sync)
	w.mu.Unlock()
	return w.commit(n, err, false)
}

// queue encodes rec and queues it to be written, for a caller holding
// w.mu; it returns the record's number, for commit, which the caller calls
// once it has let go of w.mu. A writer without a store queues nothing: 0.
func (w *Writer) queue(rec *record, sync bool) (uint64, error) {
	if w.closed {
		return 0, errors.New("the session is closed")
	}
	if w.store == nil {
		w.sess.Updated = rec.Time
		return 0, nil
	}
	rec.M = w.store.machine
	line, err := encodeRecord(rec)
	if err != nil {
		return 0, err
	}
	if rec.Type != recTitle {
		w.sess.Updated = rec.Time
	}
	w.pending = append(w.pending, pendingRecord{line: line, sync: sync})
	w.queued++
	return w.queued, nil
}

// commit writes the records that wait, up to the n-th ever queued at least,
// unless err (of queueing it) is set: then it returns err. With sync it
// writes and syncs whatever waits, even when n is written already, as a
// flush does. The caller must not hold w.mu.
func (w *Writer) commit(n uint64, err error, sync bool) error {
	if err != nil || n == 0 && !sync {
		return err
	}
	w.ioMu.Lock()
	defer w.ioMu.Unlock()
	return w.commitLocked(n, sync)
}

// commitLocked is commit for a caller holding w.ioMu. It holds w.mu only to
// take the records that wait and to note them written: the write, the sync
// and the creation of the journal happen with w.mu free.
func (w *Writer) commitLocked(n uint64, sync bool) error {
	w.mu.Lock()
	if w.store == nil || len(w.pending) == 0 && w.exists {
		w.err = nil
		w.mu.Unlock()
		return nil
	}
	if w.written >= n && !sync {
		w.mu.Unlock()
		return nil // written by the commit before
	}
	if len(w.pending) == 0 {
		w.mu.Unlock()
		return nil // nothing worth a session yet
	}
	batch := slices.Clone(w.pending)
	create := !w.exists
	var params Params
	var title string
	var fork *Fork
	if create {
		params, title, fork = w.sess.Params.Clone(), w.sess.Title, w.sess.ForkedFrom
		w.creating = true
	}
	id := w.sess.ID
	w.mu.Unlock()

	var created *Session
	var unlock func() error
	err := error(nil)
	if create {
		created, err = w.store.create(params, title, fork)
		if err == nil {
			id = created.ID
			if u, lerr := w.store.Lock(id); lerr == nil {
				unlock = u
			}
		}
	}
	if err == nil {
		err = w.store.appendFile(w.store.path(id), joinRecords(batch, &sync), sync)
		if errors.Is(err, ErrNotFound) {
			err = fmt.Errorf("%w: %s is gone", ErrDeleted, w.store.path(id))
		}
		if err != nil {
			err = writeHint(err)
		}
	}

	w.mu.Lock()
	defer w.mu.Unlock()
	if create {
		w.creating = false
		if created != nil {
			w.sess.ID, w.sess.Created, w.exists, w.unlock = created.ID, created.Created, true, unlock
			if w.sess.Updated.IsZero() {
				w.sess.Updated = created.Created
			}
		}
	}
	if err != nil {
		w.err = err
		return err
	}
	w.store.changed(id)
	clear(w.pending[:len(batch)])
	w.pending = w.pending[len(batch):]
	w.written += uint64(len(batch))
	w.err = nil
	return nil
}

// joinRecords returns the lines of the records batch as one write, and sets
// *sync when any of them asks for a sync.
func joinRecords(batch []pendingRecord, sync *bool) []byte {
	for _, p := range batch {
		*sync = *sync || p.sync
	}
	if len(batch) == 1 {
		return batch[0].line // one record, the usual case, is written as it is
	}
	n := 0
	for _, p := range batch {
		n += len(p.line)
	}
	data := make([]byte, 0, n) // at once: a fork's batch is its whole journal
	for _, p := range batch {  // an empty line only asks for the journal
		data = append(data, p.line...)
	}
	return data
}

// writeHint adds what to do to the errors of a failed write.
func writeHint(err error) error {
	switch {
	case errors.Is(err, syscall.ENOSPC):
		return fmt.Errorf("%w (the disk is full: free some space; muse keeps the changes and writes them with the next save)", err)
	case errors.Is(err, syscall.EROFS), errors.Is(err, fs.ErrPermission):
		return fmt.Errorf("%w (the session directory cannot be written: check its permissions)", err)
	}
	return err
}

// loadStats is Load, also returning the journal's size; light reads what a
// session list shows, not the content of the replies.
func (s *Store) loadStats(id string, light bool) (*Session, journalSize, error) {
	f, _, err := s.openJournal(id)
	if err != nil {
		return nil, journalSize{}, err
	}
	defer f.Close()
	sess, size, err := replayStats(f, id, light)
	if err == nil && !light {
		s.localImages(sess)
	}
	return sess, size, err
}

// maxJournal is the largest journal read. A session of 10,000 messages
// is about 4 MB.
const maxJournal = 512 << 20

// openJournal opens the journal of the session id for reading, and returns
// its size.
func (s *Store) openJournal(id string) (*os.File, int64, error) {
	if !validID(id) {
		return nil, 0, fmt.Errorf("invalid id: %w", ErrNotFound)
	}
	f, err := os.OpenFile(s.path(id), fileio.NoFollow(os.O_RDONLY)|syscall.O_NONBLOCK, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, 0, ErrNotFound
		}
		if errors.Is(err, syscall.ELOOP) {
			return nil, 0, &damageError{reason: "a symbolic link, which muse does not follow"}
		}
		return nil, 0, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, err
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, 0, &damageError{reason: "not a regular file"}
	}
	if fi.Size() > maxJournal {
		// One a sync engine brought, or a runaway: reading it would take
		// its size in memory. It is left as it is.
		f.Close()
		return nil, 0, &damageError{reason: fmt.Sprintf("%d MiB, more than the %d MiB muse reads; left as it is", fi.Size()>>20, maxJournal>>20)}
	}
	return f, fi.Size(), nil
}

// create makes the journal now, before any entry, as Import and tests need.
func (w *Writer) create() error {
	w.lock()
	if w.exists || w.store == nil {
		w.mu.Unlock()
		return nil
	}
	w.pending = append(w.pending, pendingRecord{})
	w.queued++
	n := w.queued
	w.mu.Unlock()
	return w.commit(n, nil, true)
}
