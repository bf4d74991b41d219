package session

import (
	"fmt"
	"sync"
)

// The tests of the store were written against a per-call API: Create, then
// Append, Checkpoint, SetTitle and SetParams on a *Session. These helpers
// keep them, each call going through the session's one Writer.

var testWriters sync.Map // *Session → *Writer

func (s *Store) Create(p Params) (*Session, error) {
	w := NewWriter(s, p)
	if err := w.create(); err != nil {
		return nil, err
	}
	w.release()
	sess := &Session{}
	w.sync(sess)
	testWriters.Store(sess, w)
	return sess, nil
}

func writerOf(s *Store, sess *Session) (*Writer, error) {
	if sess == nil {
		return nil, fmt.Errorf("no session")
	}
	if v, ok := testWriters.Load(sess); ok {
		return v.(*Writer), nil
	}
	w, err := s.OpenWriter(sess.ID)
	if err != nil {
		return nil, err
	}
	w.release()
	testWriters.Store(sess, w)
	return w, nil
}

// sync copies the writer's session into sess.
func (w *Writer) sync(sess *Session) {
	snap := w.Snapshot()
	*sess = snap
}

func (s *Store) Append(sess *Session, e Entry) error {
	if e.ID == "" {
		return fmt.Errorf("entry has no id")
	}
	w, err := writerOf(s, sess)
	if err != nil {
		return err
	}
	_, err = w.Append(e)
	w.sync(sess)
	return err
}

func (s *Store) Checkpoint(sess *Session, e Entry) error {
	w, err := writerOf(s, sess)
	if err != nil {
		return err
	}
	err = w.Checkpoint(e)
	w.sync(sess)
	return err
}

func (s *Store) SetTitle(sess *Session, title string) error {
	w, err := writerOf(s, sess)
	if err != nil {
		return err
	}
	err = w.SetTitle(title)
	w.sync(sess)
	return err
}

func (s *Store) SetParams(sess *Session, p Params) error {
	w, err := writerOf(s, sess)
	if err != nil {
		return err
	}
	err = w.SetParams(p)
	w.sync(sess)
	return err
}

// release lets go of the session's lock, so that tests may load, lock,
// rename and delete the session while the writer is still used.
func (w *Writer) release() {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.unlock != nil {
		w.unlock()
		w.unlock = nil
	}
}
