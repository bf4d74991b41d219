// Package indextest helps tests hold the index's lock as another program
// would (an sqlite3 shell inside BEGIN EXCLUSIVE, another muse's rebuild).
package indextest

import (
	"context"
	"database/sql"
	"testing"

	_ "modernc.org/sqlite" // the "sqlite" driver
)

// HoldLock takes the write lock of the SQLite file at path, on a
// connection of its own, and holds it until the test ends or release is
// called. A reader of the file in WAL mode still reads it; a writer gets
// SQLITE_BUSY.
func HoldLock(t testing.TB, path string) (release func()) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := db.Conn(context.Background())
	if err != nil {
		db.Close()
		t.Fatal(err)
	}
	if _, err := conn.ExecContext(context.Background(), "BEGIN EXCLUSIVE"); err != nil {
		conn.Close()
		db.Close()
		t.Fatalf("hold the lock of %s: %v", path, err)
	}
	done := false
	release = func() {
		if done {
			return
		}
		done = true
		conn.ExecContext(context.Background(), "ROLLBACK")
		conn.Close()
		db.Close()
	}
	t.Cleanup(release)
	return release
}
