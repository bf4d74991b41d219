package index

import (
	"database/sql"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"sync"

	"muse/session"
)

// Progress is told, while Sync reads journals, how many of the total it
// has read. It is called from Sync's goroutine.
type Progress func(done, total int)

// batchSessions and batchBytes bound what one transaction of Sync writes:
// the full-text table writes out what it gathered in memory at the end of
// each, so larger ones make fewer segments to merge.
const (
	batchSessions = 1000
	batchBytes    = 32 << 20
)

// Sync brings the index up to date with the journals: it reads every
// journal whose size or modification time differs from what the index
// noted (all of them for a new index), and forgets the sessions whose
// journal is gone. progress, when not nil, is told how far it got. It
// returns how many journals it read.
func (ix *Index) Sync(progress Progress) (int, error) {
	ix.syncMu.Lock()
	defer ix.syncMu.Unlock()
	n, err := ix.sync(progress)
	if err != nil {
		return n, fmt.Errorf("update index: %w", err)
	}
	return n, nil
}

func (ix *Index) sync(progress Progress) (int, error) {
	stamps, err := ix.store.Journals()
	if err != nil {
		return 0, err
	}
	known, err := ix.stamps()
	if err != nil {
		return 0, err
	}
	var stale, gone []string
	for id, st := range stamps {
		if k, ok := known[id]; !ok || k != st {
			stale = append(stale, id)
		}
	}
	for id := range known {
		if _, ok := stamps[id]; !ok {
			gone = append(gone, id)
		}
	}
	if len(gone) > 0 {
		if err := ix.write(func(tx *sql.Tx) error {
			for _, id := range gone {
				if err := forget(tx, id); err != nil {
					return err
				}
			}
			return nil
		}); err != nil {
			return 0, err
		}
	}
	return len(stale), ix.refresh(stale, progress)
}

// stamps returns the stamp the index noted for each session.
func (ix *Index) stamps() (map[string]session.Stamp, error) {
	rows, err := ix.db.Query("SELECT id, size, mtime FROM sessions")
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	out := map[string]session.Stamp{}
	for rows.Next() {
		var id string
		var st session.Stamp
		if err := rows.Scan(&id, &st.Size, &st.MTime); err != nil {
			return nil, err
		}
		out[id] = st
	}
	return out, rows.Err()
}

// loaded is a journal read for the index.
type loaded struct {
	id    string
	sess  *session.Session // nil when damaged or gone
	info  session.Info
	stamp session.Stamp
	gone  bool
	err   error
	// rows are the session's entries, their texts packed, as the
	// readers make them, off the writing goroutine.
	rows   []row
	packed [][]byte
	bytes  int
}

// refresh reads the journals of ids, several at a time, and writes what
// they hold, batchSessions sessions a transaction.
func (ix *Index) refresh(ids []string, progress Progress) error {
	if len(ids) == 0 {
		return nil
	}
	slices.Sort(ids)
	jobs := make(chan string)
	results := make(chan loaded, 64)
	var wg sync.WaitGroup
	for range max(1, min(runtime.GOMAXPROCS(0), len(ids))) {
		wg.Go(func() {
			for id := range jobs {
				sess, info, st, err := ix.store.LoadStamped(id)
				l := loaded{id: id, sess: sess, info: info, stamp: st}
				switch {
				case errors.Is(err, session.ErrNotFound):
					l.gone = true
				case err != nil:
					l.err = err
				case sess != nil:
					l.rows = rowsOf(sess)
					l.packed = make([][]byte, len(l.rows))
					for i, r := range l.rows {
						l.packed[i] = pack(r.text)
						l.bytes += len(r.text)
					}
				}
				results <- l
			}
		})
	}
	go func() {
		for _, id := range ids {
			jobs <- id
		}
		close(jobs)
		wg.Wait()
		close(results)
	}()
	var batch []loaded
	var firstErr error
	done, size := 0, 0
	flush := func() {
		if len(batch) == 0 || firstErr != nil {
			batch = batch[:0]
			return
		}
		firstErr = ix.write(func(tx *sql.Tx) error {
			for _, l := range batch {
				if err := put(tx, l); err != nil {
					return fmt.Errorf("session %s: %w", l.id, err)
				}
			}
			return nil
		})
		batch, size = batch[:0], 0
	}
	for l := range results { // drained whole, so the readers end
		if l.err != nil {
			continue // unreadable now (a permission): tried again next time
		}
		batch = append(batch, l)
		done++
		size += l.bytes
		if len(batch) == batchSessions || size >= batchBytes {
			flush()
			if progress != nil {
				progress(done, len(ids))
			}
		}
	}
	flush()
	if progress != nil {
		progress(done, len(ids))
	}
	return firstErr
}

// write runs do in a transaction.
func (ix *Index) write(do func(tx *sql.Tx) error) error {
	tx, err := ix.db.Begin()
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := do(tx); err != nil {
		return err
	}
	return tx.Commit()
}

// forget removes the session id from the index.
func forget(tx *sql.Tx, id string) error {
	// Any statement on the full-text table makes it write out what it
	// gathered in memory: a session it does not hold must not cost that.
	var n int
	if err := tx.QueryRow("SELECT count(*) FROM entries WHERE session = ?", id).Scan(&n); err != nil {
		return err
	}
	if n == 0 {
		_, err := tx.Exec("DELETE FROM sessions WHERE id = ?", id)
		return err
	}
	if _, err := tx.Exec("DELETE FROM texts WHERE rowid IN (SELECT rowid FROM entries WHERE session = ?)", id); err != nil {
		return err
	}
	if _, err := tx.Exec("DELETE FROM entries WHERE session = ?", id); err != nil {
		return err
	}
	_, err := tx.Exec("DELETE FROM sessions WHERE id = ?", id)
	return err
}

// put replaces what the index holds of the session l read.
func put(tx *sql.Tx, l loaded) error {
	if err := forget(tx, l.id); err != nil {
		return err
	}
	if l.gone {
		return nil
	}
	rows := l.rows
	textBytes := 0
	if len(rows) > 0 {
		insEntry, err := tx.Prepare("INSERT INTO entries(session, entry, leaf, active, turn, kind, role, model, time, text) VALUES (?,?,?,?,?,?,?,?,?,?)")
		if err != nil {
			return err
		}
		defer insEntry.Close()
		insText, err := tx.Prepare("INSERT INTO texts(rowid, text) VALUES (?, ?)")
		if err != nil {
			return err
		}
		defer insText.Close()
		for i, r := range rows {
			res, err := insEntry.Exec(l.id, r.entry, r.leaf, r.active, r.turn, r.kind, r.role, r.model, r.time, l.packed[i])
			if err != nil {
				return err
			}
			rowid, err := res.LastInsertId()
			if err != nil {
				return err
			}
			if r.text == "" {
				continue
			}
			if _, err := insText.Exec(rowid, r.text); err != nil {
				return err
			}
			textBytes += len(r.text)
		}
	}
	in := l.info
	_, err := tx.Exec("INSERT INTO sessions(id, title, created, updated, messages, model, damaged, entries, text_bytes, size, mtime) VALUES (?,?,?,?,?,?,?,?,?,?,?)",
		l.id, in.Title, in.Created.UnixNano(), in.Updated.UnixNano(), in.Messages, in.Model, in.Damaged, len(rows), textBytes, l.stamp.Size, l.stamp.MTime)
	return err
}

// Update reads the journals of the sessions ids again and writes what
// they hold; a session whose journal is gone is forgotten.
func (ix *Index) Update(ids []string) error {
	ix.syncMu.Lock()
	defer ix.syncMu.Unlock()
	if err := ix.refresh(ids, nil); err != nil {
		return fmt.Errorf("update index: %w", err)
	}
	return nil
}
