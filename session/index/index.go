// Package index is the full-text index of muse's sessions: a SQLite file
// (index.sqlite, in the store's cache folder, session.Store.CacheDir, never
// beside the journals a sync engine copies) with an FTS5 table of the text of
// every entry of every branch, and what a session list shows of each
// session. `muse sessions list`, `muse sessions search` and the chat
// screen's picker read it.
//
// The journals stay the truth and the index is only derived from them: each
// session's row keeps the size and modification time of the journal it was
// read from, and Sync re-reads every journal whose stamp differs and drops
// the sessions whose journal is gone; while the directory is as it was at
// the last full look, it stats only the journals of the sessions a muse had
// locked (see Sync). A file that is missing, of another version (PRAGMA
// user_version) or not a database is rebuilt. Deleting the file loses
// nothing. An Updater keeps the index current with a store's writes in the
// background, off the writer's path; what a process reads of a journal that
// changes before it is written is not written, so that an index never goes
// back to an older journal.
//
// The index never makes the user wait: a write waits at most lockWait for
// another's lock on the file (another muse's rebuild, an sqlite3 shell in
// a transaction), and then gives up with an error IsBusy knows. The
// index is then read as it was (WAL readers never wait for a writer), and
// Stale says so; callers that must be current read the journals instead.
// A cache folder muse may not write gets an index of the process's own,
// in a temporary folder removed on Close.
package index

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"modernc.org/sqlite" // the pure-Go SQLite driver
	sqlite3 "modernc.org/sqlite/lib"

	"muse/session"
	"muse/session/internal/fileio"
)

// FileName is the name of the index file in the store's cache folder.
const FileName = "index.sqlite"

// version is the schema of the index, and of what its rows hold, kept in
// PRAGMA user_version; a file of another version is rebuilt. 4: titles
// that are not the first prompt have rows, image prompts count as turns.
// 5: the look notes the stamp of the lock folder too. 6: the full-text
// table keeps the text, for FTS5's own snippets. 7: its words listed
// (vocab), for stemming; the entries of a session found by their rowids
// (sessions.first), with no column of the session; pages of 32 KiB,
// incremental vacuum.
const version = 7

// schema creates the tables of an empty index. entries holds one row per
// entry of every branch, those of a session under the consecutive rowids
// from its first (sessions.first, 0 for none, for its entries count): a
// range of rowids finds a session's entries, and the session of an entry
// is the one with the greatest first up to its rowid, where a column of
// the session's id, with its index, took 3% of the file. texts, an FTS5 table, keeps and indexes their
// text under the same rowid, with SQLite's unicode61 tokenizer (case and
// accents folded), so that its snippet() cuts what a hit shows and bm25
// ranks the hits, with no copy of the text or second tokenizer in muse.
// The full-text table gathers up to
// 32 MiB in memory before it writes a segment: fewer segments are fewer
// merges, the most of a rebuild's work after the tokenizing. vocab lists
// the words the full-text table holds, which stemming looks up (stem.go),
// and holds nothing of its own. look holds,
// in one row, what the last full look at the directory saw (see Sync).
const schema = `
CREATE TABLE sessions(
	id TEXT PRIMARY KEY,
	title TEXT NOT NULL,
	created INTEGER NOT NULL,
	updated INTEGER NOT NULL,
	messages INTEGER NOT NULL,
	model TEXT NOT NULL,
	damaged TEXT NOT NULL,
	entries INTEGER NOT NULL,
	text_bytes INTEGER NOT NULL,
	first INTEGER NOT NULL,
	size INTEGER NOT NULL,
	mtime INTEGER NOT NULL,
	card TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX sessions_first ON sessions(first);
CREATE TABLE entries(
	rowid INTEGER PRIMARY KEY,
	entry TEXT NOT NULL,
	leaf TEXT NOT NULL,
	active INTEGER NOT NULL,
	turn INTEGER NOT NULL,
	kind TEXT NOT NULL,
	role TEXT NOT NULL,
	model TEXT NOT NULL,
	time INTEGER NOT NULL
);
CREATE VIRTUAL TABLE texts USING fts5(text, tokenize='unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE vocab USING fts5vocab(texts, 'row');
INSERT INTO texts(texts, rank) VALUES('hashsize', 33554432);
CREATE TABLE look(
	dir_mtime INTEGER NOT NULL,
	dir_ctime INTEGER NOT NULL,
	dir_dev INTEGER NOT NULL,
	dir_ino INTEGER NOT NULL,
	locks_mtime INTEGER NOT NULL,
	locks_ctime INTEGER NOT NULL,
	locks_dev INTEGER NOT NULL,
	locks_ino INTEGER NOT NULL,
	locked TEXT NOT NULL,
	at INTEGER NOT NULL
);
`

// Index is an open index of a store. Its methods may be called from
// several goroutines.
type Index struct {
	store *session.Store
	db    *sql.DB
	path  string
	now   func() time.Time // the clock, replaced by tests
	// syncMu makes one Sync at a time, so two never read the same journal
	// for the same update.
	syncMu sync.Mutex
	// stale is set when the last Sync gave up on another's lock.
	stale atomic.Bool
	// snippets counts the snippets made, for the tests of the work a
	// search does.
	snippets atomic.Int64
	// private, when not "", is the temporary folder of an index of this
	// process's own (see Open), removed by Close.
	private string
	// stem is the stemmer of the searches that ask for stemming, made on
	// the first (see stem.go).
	stemMu sync.Mutex
	stem   *stemmer
}

// lockWait is the most a statement waits for another connection's lock on
// the index: another muse's update takes some milliseconds, and is waited
// for; a rebuild, or a lock someone holds, is not.
const lockWait = 250 * time.Millisecond

// Open opens the index of store, in its cache folder, creating it (mode
// 0600) when it is missing, and replacing a file that is of another
// version or not an index with an empty one. It reads no journal: Sync
// brings the index up to date. An index an older muse kept beside the
// journals is removed: it is derived, and the cache holds it now.
//
// When the cache folder cannot hold an index (muse may only read it), the
// index is one of the process's own, in a temporary folder: Private says
// so, and Close removes it.
func Open(store *session.Store) (*Index, error) {
	return openPlace(store, true)
}

// ErrNotKept is OpenKept's error when the cache folder cannot hold the
// index.
var ErrNotKept = errors.New("the cache folder cannot hold the index")

// openPlace is Open; private says whether an index of the process's own
// may stand in for one the cache folder cannot hold, else ErrNotKept.
func openPlace(store *session.Store, private bool) (*Index, error) {
	dir := store.CacheDir()
	if dir != store.Dir() {
		removeFiles(filepath.Join(store.Dir(), FileName)) // an older muse's; not there, or in a folder muse may only read, it stays
	}
	ix, err := openIn(store, dir)
	if err == nil || IsBusy(err) {
		return ix, err // busy: another writes it, and it is no worse for that
	}
	if !private {
		return nil, fmt.Errorf("%w: %w", ErrNotKept, err)
	}
	tmp, terr := os.MkdirTemp("", "muse-index-")
	if terr != nil {
		return nil, fmt.Errorf("%w (and no temporary folder for one: %v)", err, terr)
	}
	if ix, terr = open(store, filepath.Join(tmp, FileName)); terr != nil {
		os.RemoveAll(tmp)
		return nil, fmt.Errorf("%w (and in a temporary folder: %v)", err, terr)
	}
	ix.private = tmp
	return ix, nil
}

// openIn opens the index in the folder dir, making the folder.
func openIn(store *session.Store, dir string) (*Index, error) {
	path := filepath.Join(dir, FileName)
	if err := fileio.MakeDir(dir); err != nil {
		return nil, fmt.Errorf("open index in %s: %w", dir, err)
	}
	ix, err := open(store, path)
	if err == nil {
		return ix, nil
	}
	if IsBusy(err) {
		return nil, fmt.Errorf("open index %s: %w", path, err)
	}
	// Of another version, foreign or corrupt: it is only derived, so
	// start again.
	if rerr := removeFiles(path); rerr != nil {
		return nil, fmt.Errorf("open index %s: %w (and it could not be removed: %v)", path, err, rerr)
	}
	ix, err = open(store, path)
	if err != nil {
		return nil, fmt.Errorf("open index %s: %w", path, err)
	}
	return ix, nil
}

// OpenCurrent opens the index of store and brings it up to date with the
// journals (see Sync), telling progress how far it got. An index found
// damaged while it is read is rebuilt from the journals. When another
// holds the index's lock, it is returned as it was, with Stale set.
func OpenCurrent(store *session.Store, progress Progress) (*Index, error) {
	return openUpToDate(store, progress, true)
}

// OpenKept is OpenCurrent, but never builds an index of the process's
// own: when the cache folder cannot hold the index, it fails with an error
// wrapping ErrNotKept. A list, which the journals give as fast, has no use
// for an index built from them all for one look.
func OpenKept(store *session.Store, progress Progress) (*Index, error) {
	return openUpToDate(store, progress, false)
}

// openUpToDate is OpenCurrent, with openPlace's private.
func openUpToDate(store *session.Store, progress Progress, private bool) (*Index, error) {
	ix, err := openPlace(store, private)
	if err != nil {
		return nil, err
	}
	_, err = ix.Sync(progress)
	if corrupt(err) {
		ix.Close()
		if err := removeFiles(ix.path); err != nil {
			return nil, fmt.Errorf("remove the damaged index: %w", err)
		}
		if ix, err = openPlace(store, private); err != nil {
			return nil, err
		}
		_, err = ix.Sync(progress)
	}
	if IsBusy(err) {
		return ix, nil // Stale says so
	}
	if err != nil {
		ix.Close()
		return nil, err
	}
	return ix, nil
}

// Stale reports whether the last Sync gave up because another held the
// index's lock: the index is as it was before, and may miss the newest
// changes of the journals.
func (ix *Index) Stale() bool { return ix.stale.Load() }

// Private reports whether the index is one of this process's own, in a
// temporary folder, because the cache folder could not hold one.
func (ix *Index) Private() bool { return ix.private != "" }

// IsBusy reports whether err says another connection held the index's
// lock for longer than the index waits (lockWait).
func IsBusy(err error) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == sqlite3.SQLITE_BUSY
}

// errVersion is an index file of another version, or of another program.
var errVersion = errors.New("index of another version")

// open opens the index at path, creating its schema in a new file; an
// index of another version gives errVersion.
func open(store *session.Store, path string) (*Index, error) {
	// Only regular files with no other name: SQLite would follow a
	// symbolic link, and write through a hard link, the text of every
	// session, and the chmod below would change the other file's mode.
	// Open removes what is there (the link, not what it names), and
	// starts again.
	for _, p := range []string{path, path + "-wal", path + "-shm", path + "-journal"} {
		if fi, err := os.Lstat(p); err == nil && (!fi.Mode().IsRegular() || fileio.Shared(fi)) {
			return nil, fmt.Errorf("%s is not a regular file of its own", p)
		}
	}
	// Create the file with our mode, whatever the umask: SQLite gives its
	// -wal and -shm files the mode of the database.
	f, err := os.OpenFile(path, fileio.NoFollow(os.O_CREATE|os.O_RDWR), fileio.FileMode)
	if err != nil {
		return nil, err
	}
	err = f.Chmod(fileio.FileMode)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return nil, err
	}
	// The WAL is kept when the last connection closes, emptied: its
	// creation and removal would change the directory's stamp, and a Sync
	// would then stat every journal.
	dsn := "file:" + path + fmt.Sprintf("?_pragma=busy_timeout(%d)&", lockWait.Milliseconds()) + "_pragma=synchronous(NORMAL)&_pragma=journal_size_limit(4194304)&_txlock=immediate"
	inner, err := sqlite.NewConnector(dsn)
	if err != nil {
		return nil, err
	}
	db := sql.OpenDB(keepWAL{inner})
	ix := &Index{store: store, db: db, path: path, now: time.Now}
	if err := ix.prepare(); err != nil {
		db.Close()
		return nil, err
	}
	return ix, nil
}

// keepWAL is a connector whose connections keep the WAL file when they
// close (SQLITE_FCNTL_PERSIST_WAL).
type keepWAL struct{ driver.Connector }

// Connect opens a connection that keeps the WAL.
func (k keepWAL) Connect(ctx context.Context) (driver.Conn, error) {
	c, err := k.Connector.Connect(ctx)
	if err != nil {
		return nil, err
	}
	if fc, ok := c.(sqlite.FileControl); ok {
		if _, err := fc.FileControlPersistWAL("main", 1); err != nil {
			c.Close()
			return nil, err
		}
	}
	return c, nil
}

// prepare checks the version of the file, and creates the schema in an
// empty one.
func (ix *Index) prepare() error {
	var v int
	if err := ix.db.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
		return err
	}
	if v == version {
		// Quick signs that it is ours: the tables answer.
		var n int
		return ix.db.QueryRow("SELECT (SELECT count(*) FROM sessions WHERE 0) + (SELECT count(*) FROM texts WHERE 0) + (SELECT count(*) FROM entries WHERE 0) + (SELECT count(*) FROM look WHERE 0)").Scan(&n)
	}
	var objects int
	if err := ix.db.QueryRow("SELECT count(*) FROM sqlite_schema").Scan(&objects); err != nil {
		return err
	}
	if v != 0 || objects != 0 {
		return fmt.Errorf("%w (%d)", errVersion, v)
	}
	return ix.create()
}

// pageSize is the size of the pages of a new index: the entries' texts,
// rows of about a KiB, fill a page but for part of a row, 2.5% of 32 KiB
// and 5% of 16 KiB. At 64 KiB, the full-text table's own rows of 4 KiB,
// written out of order, leave more room unused than the texts save.
const pageSize = 32768

// create makes the schema of the index in its empty file, unless another
// process just did.
func (ix *Index) create() error {
	ctx := context.Background()
	conn, err := ix.db.Conn(ctx) // the pragmas hold for one connection
	if err != nil {
		return err
	}
	defer conn.Close()
	// The page size and vacuum are set before the first table, and WAL,
	// which is then noted in the file, after them.
	// Incremental vacuum, so that the pages a rebuild frees (the
	// full-text table merging its segments) can be given back.
	for _, p := range []string{fmt.Sprintf("PRAGMA page_size = %d", pageSize), "PRAGMA auto_vacuum = INCREMENTAL", "PRAGMA journal_mode = WAL"} {
		if _, err := conn.ExecContext(ctx, p); err != nil {
			return fmt.Errorf("create the index: %w", err)
		}
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	var v int
	if err := tx.QueryRow("PRAGMA user_version").Scan(&v); err != nil || v == version {
		return err // made meanwhile by another
	}
	if _, err := tx.Exec(schema); err != nil {
		return fmt.Errorf("create the index: %w", err)
	}
	if _, err := tx.Exec(fmt.Sprintf("PRAGMA user_version = %d", version)); err != nil {
		return err
	}
	return tx.Commit()
}

// removeFiles removes the index at path with its WAL and shared-memory
// files.
func removeFiles(path string) error {
	var errs []error
	for _, p := range []string{path, path + "-wal", path + "-shm", path + "-journal"} {
		if err := os.Remove(p); err != nil && !errors.Is(err, os.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// Path returns the index file's path.
func (ix *Index) Path() string { return ix.path }

// Close closes the index; a private one is removed.
func (ix *Index) Close() error {
	err := ix.db.Close()
	if ix.stem != nil {
		err = errors.Join(err, ix.stem.db.Close())
	}
	if ix.private != "" {
		err = errors.Join(err, os.RemoveAll(ix.private))
	}
	if err != nil {
		return fmt.Errorf("close index: %w", err)
	}
	return nil
}

// IsDamaged reports whether err, of a search or a list, says the index
// file is damaged: Remove it, and OpenCurrent builds it again.
func IsDamaged(err error) bool { return corrupt(err) }

// Remove removes the index of store, with its WAL, closed by its users.
// Nothing is lost: the next OpenCurrent builds it from the journals.
func Remove(store *session.Store) error {
	if err := removeFiles(filepath.Join(store.CacheDir(), FileName)); err != nil {
		return fmt.Errorf("remove the index: %w", err)
	}
	return nil
}

// corrupt reports whether err says the file is damaged: then the caller
// rebuilds it.
func corrupt(err error) bool {
	if err == nil {
		return false
	}
	s := err.Error()
	return strings.Contains(s, "SQLITE_CORRUPT") || strings.Contains(s, "SQLITE_NOTADB") ||
		strings.Contains(s, "malformed") || strings.Contains(s, "not a database")
}
