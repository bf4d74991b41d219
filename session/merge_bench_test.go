package session

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkScan10000 is what a command that reads sessions pays to look at
// a folder of 10,000 journals in which nothing waits to be merged: the
// catch-up adds a look at each name.
func BenchmarkScan10000(b *testing.B) {
	s, err := Open(filepath.Join(b.TempDir(), "sessions"))
	if err != nil {
		b.Fatal(err)
	}
	header := []byte(`{"v":2,"type":"header","time":"2025-03-01T09:00:00Z","params":{}}` + "\n")
	for i := range 10000 {
		if err := os.WriteFile(s.path(fmt.Sprintf("20250301-090000-%016x", i)), header, 0o600); err != nil {
			b.Fatal(err)
		}
	}
	for b.Loop() {
		if sc, err := s.Scan(); err != nil || len(sc.Journals) != 10000 {
			b.Fatal(err)
		}
	}
}

// BenchmarkMergeCopies10000 merges two copies of one session of 10,000
// entries each, 5,000 of them common and 5,000 each its own (the same
// session continued on two machines): the conflict copy into the journal.
func BenchmarkMergeCopies10000(b *testing.B) {
	dir := b.TempDir()
	common, mine, theirs := entryLines(0, 5000, "a"), entryLines(5000, 5000, "a"), entryLines(5000, 5000, "b")
	header := `{"v":2,"type":"header","time":"2025-03-01T09:00:00Z","id":"20250301-090000-0102030405060708","params":{}}` + "\n"
	id := "20250301-090000-0102030405060708"
	n := 0
	for b.Loop() {
		b.StopTimer()
		s, err := Open(filepath.Join(dir, fmt.Sprint(n)))
		n++
		if err != nil {
			b.Fatal(err)
		}
		os.WriteFile(s.path(id), []byte(header+common+mine), 0o600)
		copyName := id + ".sync-conflict-20250301-101010-B.jsonl"
		os.WriteFile(filepath.Join(s.Dir(), copyName), []byte(header+common+theirs), 0o600)
		b.StartTimer()
		if notes := s.mergeCopies(id, []string{copyName}); len(notes) != 0 {
			b.Fatal(notes)
		}
	}
	b.StopTimer()
	s, _ := Open(filepath.Join(dir, "0"))
	if sess, err := s.Load(id); err != nil || len(sess.All) != 15000 {
		b.Fatalf("merged: %v", err)
	}
}

// entryLines returns n entry records, a chain from entry from, each of a
// reply's size, written by machine m.
func entryLines(from, n int, m string) string {
	var out []byte
	parent := ""
	if from > 0 {
		parent = fmt.Sprintf("x%d", from-1)
	}
	text := fmt.Sprintf("%0400d", 0)
	for i := from; i < from+n; i++ {
		id := fmt.Sprintf("%s%d", m, i)
		if i < 5000 {
			id = fmt.Sprintf("x%d", i)
		}
		e := Entry{ID: id, Parent: parent, Kind: KindUser, Time: clockStart, Text: text}
		line, _ := encodeRecord(&record{Type: recEntry, Time: clockStart.Add(time.Duration(i) * time.Second), M: m, Entry: &e})
		out = append(out, line...)
		parent = id
	}
	return string(out)
}

// BenchmarkWaiting10000 is what the catch-up adds to every scan of a
// folder of 10,000 journals in which nothing waits: a look at each name.
func BenchmarkWaiting10000(b *testing.B) {
	dir := b.TempDir()
	for i := range 10000 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("20250301-090000-%016x.jsonl", i)), nil, 0o600); err != nil {
			b.Fatal(err)
		}
	}
	des, err := os.ReadDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if waiting(des) {
			b.Fatal("something waits")
		}
	}
}
