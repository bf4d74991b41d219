package index

import (
	"errors"
	"maps"
	"slices"
	"sync"
	"time"

	"muse/session"
)

// Shared opens the index of a store on first use, brings it up to date
// once, and then shares it between the goroutines of a process: the
// Updater and the picker's searches.
type Shared struct {
	store *session.Store
	mu    sync.Mutex // held while the index is opened
	state int        // unopened, opened or closed
	ix    *Index
	err   error
}

// The states of a Shared.
const (
	unopened = iota
	opened
	closed
)

// NewShared returns the index of store, to be opened on first use.
func NewShared(store *session.Store) *Shared {
	return &Shared{store: store}
}

// Get returns the index, opening it and syncing it with the journals the
// first time; a failure is kept and returned to every caller. An index
// another held the lock of is returned as it was, with Stale set.
func (s *Shared) Get() (*Index, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch s.state {
	case unopened:
		s.ix, s.err = OpenCurrent(s.store, nil)
		s.state = opened
	case closed:
		return nil, errClosed
	}
	return s.ix, s.err
}

// errClosed is Get's error once the index is closed.
var errClosed = errors.New("index closed")

// open returns the index if it is open now, without opening it, nor
// waiting while another goroutine opens it.
func (s *Shared) open() *Index {
	if !s.mu.TryLock() {
		return nil
	}
	defer s.mu.Unlock()
	if s.state != opened {
		return nil
	}
	return s.ix
}

// close closes the index if it was opened, and never opens it after. It
// does not wait for a goroutine opening it: the index is closed once that
// one is done.
func (s *Shared) close() error {
	if !s.mu.TryLock() {
		go func() {
			s.mu.Lock()
			s.closeLocked()
		}()
		return nil
	}
	return s.closeLocked()
}

// closeLocked is close, with s.mu held, which it releases.
func (s *Shared) closeLocked() error {
	defer s.mu.Unlock()
	prev := s.state
	s.state = closed
	if prev != opened || s.ix == nil {
		return nil
	}
	return s.ix.Close()
}

// Updater keeps the index of a store current with the store's writes: the
// store tells it the id of every journal it changes (session.Store.OnChange),
// which costs the writer a map insert, and a goroutine of its own, Delay
// after the first change it has not yet handled, reads those journals
// again and writes them to the index in one transaction. The index is
// opened only then, so a screen that writes nothing never opens it.
//
// A failure to update the index is never the writer's: the index is left
// as it was, and its stamps tell the next Sync to read those journals.
// While another holds the index's lock, the changes are kept and tried
// again Delay later.
type Updater struct {
	shared *Shared
	store  *session.Store
	delay  time.Duration

	mu    sync.Mutex
	dirty map[string]bool
	err   error // of the last update
	wake  chan struct{}
	stop  chan struct{}
	done  chan struct{}
	// ioMu makes one update at a time: the goroutine's or a Flush's.
	ioMu sync.Mutex
}

// DefaultDelay is how long an Updater gathers changes before it writes
// them: a reply that streams changes its journal many times a second.
const DefaultDelay = 500 * time.Millisecond

// NewUpdater starts keeping the index of shared's store current with the
// store's writes, gathering them for delay. Close stops it.
func NewUpdater(shared *Shared, delay time.Duration) *Updater {
	u := &Updater{
		shared: shared,
		store:  shared.store,
		delay:  delay,
		dirty:  map[string]bool{},
		wake:   make(chan struct{}, 1),
		stop:   make(chan struct{}),
		done:   make(chan struct{}),
	}
	u.store.OnChange(u.changed)
	go u.run()
	return u
}

// changed notes that the journal of id changed. It is the store's
// OnChange function, on the writer's path: it never waits for the index.
func (u *Updater) changed(id string) {
	u.mu.Lock()
	u.dirty[id] = true
	u.mu.Unlock()
	u.wakeUp()
}

// wakeUp has run update the index, delay from now, if it is not about to.
func (u *Updater) wakeUp() {
	select {
	case u.wake <- struct{}{}:
	default:
	}
}

// run updates the index delay after each change, until Close.
func (u *Updater) run() {
	defer close(u.done)
	for {
		select {
		case <-u.stop:
			return
		case <-u.wake:
		}
		select {
		case <-u.stop:
			return // Close flushes
		case <-time.After(u.delay):
		}
		u.Flush()
	}
}

// Flush writes the changes gathered so far to the index now, and returns
// the error of doing so, if any.
func (u *Updater) Flush() error { return u.flush(u.shared.Get) }

// flush writes the changes gathered so far to the index get returns.
func (u *Updater) flush(get func() (*Index, error)) error {
	u.ioMu.Lock()
	defer u.ioMu.Unlock()
	u.mu.Lock()
	ids := slices.Collect(maps.Keys(u.dirty))
	clear(u.dirty)
	u.mu.Unlock()
	if len(ids) == 0 {
		return nil
	}
	ix, err := get()
	var changed []string
	if err == nil {
		changed, err = ix.Update(ids)
	}
	if IsBusy(err) {
		changed = ids // another holds the lock: later
	}
	u.mu.Lock()
	u.err = err
	for _, id := range changed {
		u.dirty[id] = true // changed while it was read, or not written: again
	}
	u.mu.Unlock()
	if len(changed) > 0 {
		u.wakeUp()
	}
	return err
}

// Close stops the updater: it stops listening to the store, writes what
// it gathered if the index is open, and closes the index. It never opens
// the index, nor waits more than lockWait for another's lock: what is not
// written, the next Sync reads from the journals.
func (u *Updater) Close() error {
	u.store.OnChange(nil)
	close(u.stop)
	<-u.done
	var err error
	if ix := u.shared.open(); ix != nil {
		err = u.flush(func() (*Index, error) { return ix, nil })
	}
	return errors.Join(err, u.shared.close())
}
