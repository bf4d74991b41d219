package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

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

// settle is how old the directory's stamp must be for a look at it to be
// noted: a file system keeps times with a coarse clock (two seconds on
// FAT), and a change in the same tick as the last would leave the stamp
// as it was.
const settle = 2 * time.Second

// recheck is how long a noted look is trusted: a journal changed in place
// by another program, with no lock file, changes no stamp of the
// directory, and is seen at the next full look.
const recheck = 10 * time.Minute

// Sync brings the index up to date with the journals, and returns how many
// journals it read.
//
// A full look stats every journal, reads those whose size or modification
// time differs from what the index noted (all of them for a new index),
// and forgets the sessions whose journal is gone; when the directory was
// steady and settled, the index notes its stamp and the sessions locked.
// While the directory keeps that stamp, a muse can only have changed the
// journals of the sessions then locked (see session.Store.Scan), so the
// next Sync stats just those: a few system calls instead of one per
// journal. A full look is made at least every recheck. progress, when not
// nil, is told how far the reading got.
func (ix *Index) Sync(progress Progress) (int, error) {
	ix.syncMu.Lock()
	defer ix.syncMu.Unlock()
	n, err := ix.sync(progress)
	ix.stale.Store(IsBusy(err))
	if err != nil {
		return n, fmt.Errorf("update index: %w", err)
	}
	return n, nil
}

func (ix *Index) sync(progress Progress) (int, error) {
	if n, ok, err := ix.quickSync(progress); ok || err != nil {
		return n, err
	}
	return ix.fullSync(progress)
}

// look is what the index noted of a full look at the directory.
type look struct {
	dir    session.DirStamp
	locked []string
	at     time.Time // when it was made
}

// noted returns the look the index noted, if any.
func (ix *Index) noted() (look, bool, error) {
	var l look
	var locked string
	var at, dev, ino int64
	var ldev, lino int64
	err := ix.db.QueryRow("SELECT dir_mtime, dir_ctime, dir_dev, dir_ino, locks_mtime, locks_ctime, locks_dev, locks_ino, locked, at FROM look").
		Scan(&l.dir.MTime, &l.dir.CTime, &dev, &ino, &l.dir.LocksMTime, &l.dir.LocksCTime, &ldev, &lino, &locked, &at)
	if errors.Is(err, sql.ErrNoRows) {
		return l, false, nil
	}
	if err != nil {
		return l, false, err
	}
	l.dir.Dev, l.dir.Ino = uint64(dev), uint64(ino) // stored as their bits
	l.dir.LocksDev, l.dir.LocksIno = uint64(ldev), uint64(lino)
	l.locked = strings.Fields(locked)
	l.at = time.Unix(0, at)
	return l, true, nil
}

// quickSync brings the index up to date from the noted look, when the
// directory still has its stamp: ok is false when a full look is needed.
func (ix *Index) quickSync(progress Progress) (n int, ok bool, err error) {
	l, found, err := ix.noted()
	if err != nil || !found {
		return 0, false, err
	}
	if age := ix.now().Sub(l.at); age < 0 || age >= recheck {
		return 0, false, nil
	}
	dir, err := ix.store.DirStamp()
	if err != nil || dir != l.dir {
		return 0, false, nil
	}
	if len(l.locked) == 0 {
		return 0, true, nil
	}
	stamps := ix.store.StampsOf(l.locked)
	known, err := ix.stampsOf(l.locked)
	if err != nil {
		return 0, false, err
	}
	var stale []string
	for _, id := range l.locked {
		st, there := stamps[id]
		k, indexed := known[id]
		if there != indexed || st != k {
			stale = append(stale, id)
		}
	}
	_, err = ix.refresh(stale, progress)
	return len(stale), true, err
}

// fullSync stats every journal, brings the index up to date with them, and
// notes the look when the directory was steady and settled.
func (ix *Index) fullSync(progress Progress) (int, error) {
	scan, err := ix.store.Scan()
	if err != nil {
		return 0, err
	}
	known, err := ix.stampsOf(nil)
	if err != nil {
		return 0, err
	}
	var stale, gone []string
	for id, st := range scan.Journals {
		if k, ok := known[id]; !ok || k != st {
			stale = append(stale, id)
		}
	}
	for id := range known {
		if _, ok := scan.Journals[id]; !ok {
			gone = append(gone, id)
		}
	}
	if len(stale) > 0 || len(gone) > 0 {
		// The old look must not stand for what this one changes, should
		// it fail half way.
		if err := ix.write(func(tx *sql.Tx) error {
			if _, err := tx.Exec("DELETE FROM look"); err != nil {
				return err
			}
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
	res, err := ix.refresh(stale, progress)
	if err != nil {
		return len(stale), err
	}
	if len(stale) > 0 || len(gone) > 0 {
		ix.vacuum()
	}
	settled := ix.now().Sub(time.Unix(0, scan.Dir.MTime)) >= settle
	for _, t := range []int64{scan.Dir.CTime, scan.Dir.LocksMTime, scan.Dir.LocksCTime} {
		if t != 0 {
			settled = settled && ix.now().Sub(time.Unix(0, t)) >= settle
		}
	}
	if !scan.Steady || !settled || res.skipped > 0 {
		return len(stale), nil // looked at again next time
	}
	slices.Sort(scan.Locked)
	return len(stale), ix.write(func(tx *sql.Tx) error {
		if _, err := tx.Exec("DELETE FROM look"); err != nil {
			return err
		}
		d := scan.Dir
		_, err := tx.Exec("INSERT INTO look(dir_mtime, dir_ctime, dir_dev, dir_ino, locks_mtime, locks_ctime, locks_dev, locks_ino, locked, at) VALUES (?,?,?,?,?,?,?,?,?,?)",
			d.MTime, d.CTime, int64(d.Dev), int64(d.Ino), d.LocksMTime, d.LocksCTime, int64(d.LocksDev), int64(d.LocksIno), strings.Join(scan.Locked, " "), ix.now().UnixNano())
		return err
	})
}

// stampsOf returns the stamp the index noted for each of the sessions ids
// it holds, or for every session when ids is nil.
func (ix *Index) stampsOf(ids []string) (map[string]session.Stamp, error) {
	q, args := "SELECT id, size, mtime FROM sessions", []any(nil)
	if ids != nil {
		if len(ids) == 0 {
			return map[string]session.Stamp{}, nil
		}
		q += " WHERE id IN (?" + strings.Repeat(",?", len(ids)-1) + ")"
		for _, id := range ids {
			args = append(args, id)
		}
	}
	rows, err := ix.db.Query(q, args...)
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
	info  session.Info
	stamp session.Stamp
	gone  bool
	err   error
	// rows are the session's entries, as the readers make them, off the
	// writing goroutine.
	rows  []row
	bytes int
}

// refreshed is what a refresh did.
type refreshed struct {
	// skipped counts the journals not written to the index: unreadable
	// (a permission), or changed between their reading and the writing.
	// The index keeps what it had of them, and its stamps tell the next
	// full look to read them again.
	skipped int
	// changed are the sessions skipped because their journal changed.
	changed []string
}

// progressEvery is how many journals read make a step of progress: a few
// a second while the index is built.
const progressEvery = 100

// refresh reads the journals of ids, several at a time, and writes what
// they hold, batchSessions sessions a transaction.
func (ix *Index) refresh(ids []string, progress Progress) (refreshed, error) {
	var res refreshed
	if len(ids) == 0 {
		return res, nil
	}
	slices.Sort(ids)
	jobs := make(chan string)
	results := make(chan loaded, 64)
	var wg sync.WaitGroup
	for range max(1, min(runtime.GOMAXPROCS(0), len(ids))) {
		wg.Go(func() {
			for id := range jobs {
				results <- ix.load(id)
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
	// The batches are written by a goroutine of their own, so that the
	// readers read the next batch meanwhile.
	batches := make(chan []loaded, 1)
	var err error
	var changed []string
	written := make(chan struct{})
	go func() {
		defer close(written)
		for batch := range batches { // drained whole, so the gathering ends
			if err != nil {
				continue
			}
			err = ix.write(func(tx *sql.Tx) error {
				c, err := ix.putAll(tx, batch)
				changed = append(changed, c...)
				return err
			})
		}
	}()
	var batch []loaded
	done, size := 0, 0
	for l := range results { // drained whole, so the readers end
		done++
		if progress != nil && done%progressEvery == 0 {
			progress(done, len(ids)) // read: the writing follows a batch behind
		}
		if l.err != nil {
			res.skipped++
			continue
		}
		batch = append(batch, l)
		size += l.bytes
		if len(batch) == batchSessions || size >= batchBytes {
			batches <- batch
			batch, size = nil, 0
		}
	}
	if len(batch) > 0 {
		batches <- batch
	}
	close(batches)
	<-written
	if progress != nil {
		progress(done, len(ids))
	}
	res.skipped += len(changed)
	res.changed = changed
	return res, err
}

// load reads the journal of id for the index.
func (ix *Index) load(id string) loaded {
	sess, info, st, err := ix.store.LoadStamped(id)
	l := loaded{id: id, info: info, stamp: st}
	switch {
	case errors.Is(err, session.ErrNotFound):
		l.gone = true
	case err != nil:
		l.err = err
	case sess != nil:
		l.rows = rowsOf(sess)
		for _, r := range l.rows {
			l.bytes += len(r.text)
		}
	}
	return l
}

// vacuum gives back to the file system the pages the index no longer
// uses, when they are vacuumMin or more: those a rebuild frees as the
// full-text table merges its segments (1.5% of the file), or a delete of
// many sessions. Fewer are left for the next writes to use, and the lock
// is not asked for. It is only tidying: on an error, such as another
// holding the lock, the pages wait for the next writes too.
func (ix *Index) vacuum() {
	var free int
	if err := ix.db.QueryRow("PRAGMA freelist_count").Scan(&free); err != nil || free < vacuumMin {
		return
	}
	rows, err := ix.db.Query("PRAGMA incremental_vacuum")
	if err != nil {
		return
	}
	for rows.Next() { // a row a page
	}
	rows.Close()
}

// vacuumMin is the fewest free pages vacuum gives back: 1 MiB.
const vacuumMin = (1 << 20) / pageSize

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

// forget removes the session id from the index: its entries are the
// rowids from its first, as many as it has.
func forget(tx *sql.Tx, id string) error {
	var first, n int64
	err := tx.QueryRow("SELECT first, entries FROM sessions WHERE id = ?", id).Scan(&first, &n)
	if errors.Is(err, sql.ErrNoRows) {
		return nil
	}
	if err != nil {
		return err
	}
	if n > 0 {
		for _, table := range []string{"texts", "entries"} {
			if _, err := tx.Exec("DELETE FROM "+table+" WHERE rowid BETWEEN ? AND ?", first, first+n-1); err != nil {
				return err
			}
		}
	}
	_, err = tx.Exec("DELETE FROM sessions WHERE id = ?", id)
	return err
}

// heldOf returns which of the sessions of batch the index holds, as the
// transaction tx sees it.
func heldOf(tx *sql.Tx, batch []loaded) (map[string]bool, error) {
	held := map[string]bool{}
	for len(batch) > 0 {
		n := min(len(batch), insertMax)
		args := make([]any, n)
		for i, l := range batch[:n] {
			args[i] = l.id
		}
		ids, err := column[string](context.Background(), tx, "SELECT id FROM sessions WHERE id IN (?"+strings.Repeat(",?", n-1)+")", args...)
		if err != nil {
			return nil, err
		}
		for _, id := range ids {
			held[id] = true
		}
		batch = batch[n:]
	}
	return held, nil
}

// putAll replaces what the index holds of the sessions of batch, but of
// those whose journal changed since they were read: it returns those, and
// leaves what the index holds of them, so that it never writes what is
// older than what another process wrote meanwhile.
func (ix *Index) putAll(tx *sql.Tx, batch []loaded) (changed []string, err error) {
	ids := make([]string, len(batch))
	for i, l := range batch {
		ids[i] = l.id
	}
	now := ix.store.StampsOf(ids)
	put := batch[:0:0]
	for _, l := range batch {
		st, there := now[l.id]
		if there == l.gone || there && st != l.stamp {
			changed = append(changed, l.id)
			continue
		}
		put = append(put, l)
	}
	// What the index holds of them now, in this transaction: another muse
	// may have written some since this one looked.
	held, err := heldOf(tx, put)
	if err != nil {
		return changed, err
	}
	// The deletes first: the full-text table writes out what it gathered
	// in memory before a delete, or an insert of a lower rowid.
	for _, l := range put {
		if held[l.id] {
			if err := forget(tx, l.id); err != nil {
				return changed, fmt.Errorf("session %s: %w", l.id, err)
			}
		}
	}
	var rowid int64
	if err := tx.QueryRow("SELECT coalesce((SELECT max(rowid) FROM entries), 0)").Scan(&rowid); err != nil {
		return changed, err
	}
	ins := inserter{tx: tx}
	for _, l := range put {
		if l.gone {
			continue
		}
		textBytes, first := 0, rowid+1
		if len(l.rows) == 0 {
			first = 0
		}
		for _, r := range l.rows {
			rowid++
			ins.add(&ins.entries, rowid, r.entry, r.leaf, r.active, r.turn, r.kind, r.role, r.model, r.time)
			if r.text != "" {
				ins.add(&ins.texts, rowid, r.text)
			}
			textBytes += len(r.text)
		}
		in := l.info
		ins.add(&ins.sessions, l.id, in.Title, nanos(in.Created), nanos(in.Updated), in.Messages, in.Model, in.Damaged,
			len(l.rows), textBytes, first, l.stamp.Size, l.stamp.MTime, cardOf(in))
	}
	return changed, ins.flush()
}

// insertMax is about how many values one INSERT statement carries.
const insertMax = 999

// inserter gathers the rows of a transaction and inserts them many at a
// time, in the order entries, texts, sessions: one statement per row
// would spend more in database/sql than in SQLite. The full-text table is
// the exception: it writes out what it gathered in memory at the start of
// every statement that may change several rows, so it gets one row a
// statement.
type inserter struct {
	tx                       *sql.Tx
	entries, texts, sessions pending
}

// pending are the values of rows waiting to be inserted into a table.
type pending struct {
	values []any
	width  int // values a row
}

// add adds a row of values to p.
func (ins *inserter) add(p *pending, values ...any) {
	p.width = len(values)
	p.values = append(p.values, values...)
}

// flush inserts every row gathered.
func (ins *inserter) flush() error {
	for _, t := range []struct {
		p       *pending
		head    string
		perStmt int
	}{
		{&ins.entries, "INSERT INTO entries(rowid, entry, leaf, active, turn, kind, role, model, time) VALUES ", insertMax},
		{&ins.texts, "INSERT INTO texts(rowid, text) VALUES ", 1},
		{&ins.sessions, "INSERT INTO sessions(id, title, created, updated, messages, model, damaged, entries, text_bytes, first, size, mtime, card) VALUES ", insertMax},
	} {
		if err := ins.insert(t.head, t.p, t.perStmt); err != nil {
			return err
		}
	}
	return nil
}

// insert inserts the rows of p with statements that start with head, of
// up to perStmt values each.
func (ins *inserter) insert(head string, p *pending, perStmt int) error {
	if len(p.values) == 0 {
		return nil
	}
	rowsPer := max(1, perStmt/p.width)
	row := "(?" + strings.Repeat(",?", p.width-1) + ")"
	var full *sql.Stmt
	for vs := p.values; len(vs) > 0; {
		n := min(rowsPer, len(vs)/p.width)
		var err error
		if n == rowsPer {
			if full == nil {
				if full, err = ins.tx.Prepare(head + row + strings.Repeat(","+row, n-1)); err != nil {
					return err
				}
				defer full.Close()
			}
			_, err = full.Exec(vs[:n*p.width]...)
		} else {
			_, err = ins.tx.Exec(head+row+strings.Repeat(","+row, n-1), vs[:n*p.width]...)
		}
		if err != nil {
			return err
		}
		vs = vs[n*p.width:]
	}
	p.values = p.values[:0]
	return nil
}

// Update reads the journals of the sessions ids again and writes what
// they hold; a session whose journal is gone is forgotten. It returns the
// sessions whose journal changed while it was read, which were not
// written.
func (ix *Index) Update(ids []string) ([]string, error) {
	ix.syncMu.Lock()
	defer ix.syncMu.Unlock()
	res, err := ix.refresh(ids, nil)
	if err != nil {
		return nil, fmt.Errorf("update index: %w", err)
	}
	return res.changed, nil
}
