//go:build !race

package session

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"muse/session/sessiontest"
)

// journalOfSize writes, for the session id of s, a journal of prompts of
// about 4 KiB each, of about size bytes.
func journalOfSize(t *testing.T, s *Store, id string, size int) {
	t.Helper()
	now := clockStart
	p := Params{Model: "m"}
	var b bytes.Buffer
	line, err := encodeRecord(&record{V: formatVersion, Type: recHeader, Time: now, ID: id, Created: &now, Params: &p})
	if err != nil {
		t.Fatal(err)
	}
	b.Write(line)
	text := strings.Repeat("All work and no play makes Jack a dull boy. ", 90)
	for i := 0; b.Len() < size; i++ {
		e := Entry{ID: fmt.Sprint("e", i), Kind: KindUser, Time: now, Text: text}
		if i > 0 {
			e.Parent = fmt.Sprint("e", i-1)
		}
		line, err := encodeRecord(&record{Type: recEntry, Time: now.Add(time.Duration(i+1) * time.Millisecond), Entry: &e})
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
	}
	if err := os.WriteFile(s.path(id), b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
}

// A replay reads and decodes a journal a batch of lines at a time: what a
// list keeps of a journal of 36 MiB (its replies skipped) is under half of
// it at its largest, and grows by less than a quarter of what the journal
// grows from 12 MiB (by what it keeps of each record). Reading every line before decoding any held
// the whole journal.
func TestListReplayHoldsABatchNotTheJournal(t *testing.T) {
	s, _ := newTestStore(t)
	const small, large = 12 << 20, 36 << 20
	peak := func(size int) uint64 {
		id := "20250301-090000-00000000000000" + fmt.Sprintf("%02d", size>>20)
		journalOfSize(t, s, id, size)
		return sessiontest.PeakLive(10, func() {
			sess, _, err := s.loadStats(id, true)
			if err != nil || len(sess.All) == 0 {
				t.Fatalf("replayed %v: %v", sess, err)
			}
		})
	}
	ps, pl := peak(small), peak(large)
	t.Logf("peak live heap of a light replay: %.1f MiB for 12 MiB, %.1f MiB for 36 MiB", float64(ps)/(1<<20), float64(pl)/(1<<20))
	if pl > large/2 || pl > ps+(large-small)/4 {
		t.Errorf("a light replay took %d MiB for a journal of 36 MiB, %d MiB for 12 MiB: it holds the journal", pl>>20, ps>>20)
	}
}
