package session

// Opening a long session for the chat screen replays its journal in the
// background: the screen first shows a preview made of the journal's last
// records, which hold the end of the active branch, and the records that
// set the session's title, settings and head.

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
)

// previewLines is how many of a journal's last records a preview replays:
// enough for a screenful of the end of the active branch.
const previewLines = 256

// OpenWriterAsync is OpenWriter for a screen that must show a long session
// at once. It locks the session and reads its journal, then returns a
// preview of the session; the whole journal is replayed in the background
// once Replay or another method of the Writer asks for it, and every method
// but Replay and Close waits until that is done. The preview holds the
// session's header, title and settings, and the end of its active branch,
// replayed from the journal's last records (its warnings are left to the
// replay of the whole journal). A short journal, or one whose last records
// do not make a session, is replayed at once, and the preview is then its
// snapshot. Closing the writer before the replay is done gives it up.
//
// adjust, when not nil, changes the settings of the session (and of the
// preview) as SetParams would, once the journal is replayed.
func (s *Store) OpenWriterAsync(id string, adjust func(Params) Params) (*Writer, *Session, error) {
	unlock, err := s.Lock(id)
	if err != nil {
		return nil, nil, err
	}
	data, err := s.readJournal(id)
	if err != nil {
		unlock()
		return nil, nil, fmt.Errorf("load session %s: %w", id, err)
	}
	w := &Writer{store: s, exists: true, unlock: unlock, marks: map[string][]blockMark{}}
	if preview, ok := previewJournal(data, id); ok {
		r := &asyncReplay{start: make(chan struct{}), id: id}
		if adjust != nil {
			if p := adjust(preview.Params.Clone()); !reflect.DeepEqual(p, preview.Params) {
				preview.Params = p
				r.params = &p
			}
		}
		w.replay = r
		w.mu.Lock()
		go func() {
			var adjusted uint64 // the record of the settings adjust made
			defer func() {
				w.mu.Unlock()
				_ = w.commit(adjusted, nil, false) // a failed write waits in w.pending, as SetParams leaves it
			}()
			<-r.start
			// One goroutine: the other processor keeps drawing the screen.
			cleaned := s.removeSessionTemps(id)
			sess, size, err := replayWith(bytes.NewReader(data), id, false, &r.stop, 1)
			r.mu.Lock()
			abandoned := r.abandoned
			r.done = !abandoned
			r.mu.Unlock()
			if abandoned { // closed: nothing more is written
				p := *preview
				w.sess, w.closed = &p, true
				w.reindex()
				return
			}
			if err != nil { // cannot happen: the preview's records are in the journal
				p := *preview
				sess = &p
				sess.Warnings = append(sess.Warnings, "the journal could not be replayed whole: "+err.Error())
			}
			w.opened(sess, size, cleaned)
			adjusted = w.adjust(adjust)
		}()
		return w, preview, nil
	}
	sess, size, err := replayStats(bytes.NewReader(data), id, false)
	if err != nil {
		unlock()
		return nil, nil, fmt.Errorf("load session %s: %w", id, err)
	}
	w.opened(sess, size, s.removeSessionTemps(id))
	adjusted := w.adjust(adjust)
	snap := w.snapshot()
	_ = w.commit(adjusted, nil, false) // a failed write waits in w.pending, as SetParams leaves it
	return w, &snap, nil
}

// adjust sets the settings adjust makes of the session's, when they differ,
// and returns the number of their record, for commit (0 when none). The
// caller holds w.mu.
func (w *Writer) adjust(adjust func(Params) Params) uint64 {
	if adjust == nil {
		return 0
	}
	if p := adjust(w.sess.Params.Clone()); !reflect.DeepEqual(p, w.sess.Params) {
		n, _ := w.setParams(p) // a failed write waits in w.pending, as SetParams leaves it
		return n
	}
	return 0
}

// readJournal reads the whole journal of the session id.
func (s *Store) readJournal(id string) ([]byte, error) {
	f, size, err := s.openJournal(id)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var b bytes.Buffer
	b.Grow(int(size) + bytes.MinRead)
	if _, err := b.ReadFrom(f); err != nil {
		return nil, fmt.Errorf("read journal: %w", err)
	}
	return b.Bytes(), nil
}

// previewJournal replays a preview of the journal data: its first record
// (the header), its last previewLines records, and the records between
// that are neither entries nor chunks. It reports false when the journal
// is short enough to replay whole, or when the preview is not a session.
func previewJournal(data []byte, id string) (*Session, bool) {
	var starts []int // where each non-blank line starts
	for i := 0; i < len(data); {
		end := bytes.IndexByte(data[i:], '\n')
		if end < 0 {
			end = len(data)
		} else {
			end += i + 1
		}
		if !blank(data[i:end]) {
			starts = append(starts, i)
		}
		i = end
	}
	if len(starts) <= 2*previewLines {
		return nil, false
	}
	lineAt := func(k int) []byte {
		end := len(data)
		if k+1 < len(starts) {
			end = starts[k+1]
		}
		return data[starts[k]:end] // blank lines that follow come along
	}
	var buf bytes.Buffer
	buf.Write(lineAt(0))
	tail := len(starts) - previewLines
	for k := 1; k < tail; k++ {
		if l := lineAt(k); !streamed(l) {
			buf.Write(l)
		}
	}
	for k := tail; k < len(starts); k++ {
		buf.Write(lineAt(k))
	}
	sess, _, err := replayStats(&buf, id, false)
	if err != nil || len(sess.Entries) == 0 {
		return nil, false
	}
	sess.Warnings = nil
	return sess, true
}

// streamed reports whether the line is an entry or a chunk record, by the
// type that encodeRecord writes near its start.
func streamed(line []byte) bool {
	head := line[:min(len(line), 64)]
	i := bytes.Index(head, []byte(`"type":"`))
	if i < 0 {
		return false
	}
	t := head[i+len(`"type":"`):]
	return bytes.HasPrefix(t, []byte(recEntry+`"`)) || bytes.HasPrefix(t, []byte(recChunk+`"`))
}

// OpenLatestAsync is OpenWriterAsync for the most recently used session
// that can be loaded, found as Latest finds it. It returns an error
// wrapping ErrNoSessions when there is none.
func (s *Store) OpenLatestAsync(adjust func(Params) Params) (*Writer, *Session, error) {
	ls, err := s.list()
	if err != nil {
		return nil, nil, fmt.Errorf("latest session: %w", err)
	}
	for _, l := range ls {
		if l.Damaged != "" {
			continue
		}
		w, preview, err := s.OpenWriterAsync(l.ID, adjust)
		if errors.Is(err, ErrNotFound) || errors.Is(err, ErrDamaged) {
			continue // changed since it was listed
		}
		return w, preview, err
	}
	return nil, nil, fmt.Errorf("latest session in %s: %w", s.dir, ErrNoSessions)
}

// writeRecord appends rec to the journal of the session id, synced.
func (s *Store) writeRecord(id string, rec *record) error {
	line, err := encodeRecord(rec)
	if err != nil {
		return err
	}
	return appendLine(s.path(id), line, true)
}
