package gitsync

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// turnText is one turn of a journal: a prompt and a reply, about the size
// of a short real one.
func turnText(i int) string {
	reply := strings.Repeat(fmt.Sprintf("Sentence %d of a reply that explains a point about channels in Go. ", i), 14)
	return fmt.Sprintf(`{"type":"entry","time":"2026-01-01T00:00:%02dZ","entry":{"id":"u%d","role":"user","text":"question number %d about goroutines"}}`+"\n", i%60, i, i) +
		fmt.Sprintf(`{"type":"entry","time":"2026-01-01T00:00:%02dZ","entry":{"id":"a%d","role":"assistant","text":%q}}`+"\n", i%60, i, reply)
}

// TestRemoteGrowsLinearly syncs a session after every turn: each sync
// adds the same number of objects to the remote, however long the session,
// and the remote stays within twice the journal's size. (1,000 turns are
// BenchmarkGrowth's, run by hand: the figure is in the README.)
func TestRemoteGrowsLinearly(t *testing.T) {
	bare := newBare(t)
	m := newMachine(t, bare, "")
	const turns = 30
	var added []int
	for i := range turns {
		m.write(t, "s1", turnText(i))
		before := objects(t, bare)
		m.sync(t)
		added = append(added, objects(t, bare)-before)
	}
	for i, n := range added[1:] {
		if n != added[1] {
			t.Fatalf("sync %d added %d objects, sync 2 added %d: %v", i+2, n, added[1], added)
		}
	}
	journal, _ := os.Stat(filepath.Join(m.o.DataDir, "sessions", "s1.jsonl"))
	remote := dirSize(t, filepath.Join(bare, "objects"))
	t.Logf("journal %d bytes, remote %d bytes (%.2fx), %d objects a sync", journal.Size(), remote, float64(remote)/float64(journal.Size()), added[1])
	if remote > 2*journal.Size() {
		t.Errorf("the remote holds %d bytes for a journal of %d", remote, journal.Size())
	}
}
