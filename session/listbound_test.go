package session

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
)

// bigJournalOf returns the journal of the session id in s grown past size
// bytes with prompts of its own.
func bigJournalOf(t *testing.T, s *Store, id string, size int) []byte {
	t.Helper()
	data, err := os.ReadFile(s.path(id))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.Split(bytes.TrimSpace(data), []byte("\n"))
	last := lines[len(lines)-1]
	b := bytes.NewBuffer(make([]byte, 0, size+4096))
	b.Write(data)
	pad := strings.Repeat("x", 200)
	for i := 0; b.Len() <= size; i++ {
		b.Write(bytes.Replace(last, []byte(`"hello"`), fmt.Appendf(nil, `"hello %d %s"`, i, pad), 1))
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// allocated returns how many bytes f allocated.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// A list reads no journal over maxListed, and merges no conflict copy over
// maxCopy: each is noted, and listing costs a few MiB, not its size many
// times over (a 240 MB copy made a list take 1.2 GB). Counted, not timed.
func TestListIsBoundedOnLargeFiles(t *testing.T) {
	s, _ := newTestStore(t)
	small := oneSession(t, s)
	big := oneSession(t, s)
	if err := os.WriteFile(s.path(big), bigJournalOf(t, s, big, maxListed), 0o600); err != nil {
		t.Fatal(err)
	}
	copyName := small + " (conflicted copy 2025-03-01 101010)" + journalExt
	if err := os.WriteFile(filepath.Join(s.Dir(), copyName), bigJournalOf(t, s, small, maxCopy), 0o600); err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	var notes []Note
	var infos []Info
	var err error
	cost := allocated(func() {
		if notes, err = s.CatchUp(); err != nil {
			return
		}
		infos, err = s.List()
	})
	if err != nil {
		t.Fatal(err)
	}
	if cost > 16<<20 {
		t.Errorf("catching up and listing allocated %d MiB for a %d MiB journal and copy", cost>>20, maxListed>>20)
	}
	if len(notes) != 1 || notes[0].File != copyName+unmergedExt || !strings.Contains(notes[0].Text, "more than the 64 MiB merged automatically") {
		t.Errorf("notes %+v", notes)
	}
	byID := map[string]Info{}
	for _, in := range infos {
		byID[in.ID] = in
	}
	if in := byID[big]; in.Title != "(too large to list: 64 MiB, more than the 64 MiB a list reads; open it by its id)" {
		t.Errorf("the large journal is listed as %+v", in)
	}
	if in := byID[small]; in.Damaged != "" || in.Messages != 1 {
		t.Errorf("the small one is listed as %+v", in)
	}
	_, info, _, err := s.LoadStamped(big)
	if err != nil || !strings.HasPrefix(info.Title, "(too large to list") {
		t.Errorf("LoadStamped: %+v, %v", info, err)
	}
}

// The newest record's time, which settles a copy of a deleted session, is
// read a line at a time: what is held at once stays small, however large
// the journal (a replay held four times its size). With the collector
// running at every 2% of growth, the heap in use is sampled as it reads.
func TestLastRecordIsStreamed(t *testing.T) {
	s, _ := newTestStore(t)
	id := oneSession(t, s)
	path := filepath.Join(s.Dir(), "big"+journalExt)
	if err := os.WriteFile(path, bigJournalOf(t, s, id, 16<<20), 0o600); err != nil {
		t.Fatal(err)
	}
	defer debug.SetGCPercent(debug.SetGCPercent(2))
	runtime.GC()
	var base runtime.MemStats
	runtime.ReadMemStats(&base)
	done := make(chan struct{})
	peak := make(chan uint64)
	go func() {
		var most uint64
		for {
			var m runtime.MemStats
			runtime.ReadMemStats(&m)
			most = max(most, m.HeapAlloc)
			select {
			case <-done:
				peak <- most
				return
			default:
				runtime.Gosched()
			}
		}
	}()
	last, _, err := seenIn(path, maxRecordTime)
	close(done)
	most := <-peak
	if err != nil || last.IsZero() {
		t.Fatal(last, err)
	}
	if grew := int64(most) - int64(base.HeapAlloc); grew > 8<<20 {
		t.Errorf("seenIn held %d MiB at once for a 16 MiB journal", grew>>20)
	}
}

// The sync notes file, which catch-ups append to, is read to its last MiB:
// the newest notes, after one that says how much older ones were left out.
func TestNotesFileIsReadToItsTail(t *testing.T) {
	s, _ := newTestStore(t)
	path := filepath.Join(t.TempDir(), "sync-notes.jsonl")
	s.SetNotesFile(path)
	var b bytes.Buffer
	for i := 0; b.Len() < 32*maxNotes; i++ {
		fmt.Fprintf(&b, `{"time":"2025-03-01T09:00:00Z","text":"note %d %s"}`+"\n", i, strings.Repeat("n", 100))
	}
	if err := os.WriteFile(path, b.Bytes(), 0o600); err != nil {
		t.Fatal(err)
	}
	var notes []Note
	var err error
	cost := allocated(func() { notes, err = s.Notes() })
	if err != nil {
		t.Fatal(err)
	}
	if cost > 16*maxNotes { // about 6 MiB, 8 with -race
		t.Errorf("Notes allocated %d KiB for a %d KiB file", cost>>10, b.Len()>>10)
	}
	if len(notes) < 2 || !strings.Contains(notes[0].Text, "of older notes before these are not shown") {
		t.Fatalf("%d notes, the first %+v", len(notes), notes[:min(len(notes), 1)])
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	if last := notes[len(notes)-1].Text; !strings.HasPrefix(lines[len(lines)-1], `{"time":"2025-03-01T09:00:00Z","text":"`+last) {
		t.Errorf("the newest note is %q", last)
	}
	if len(notes)-1 > maxNotes/100 {
		t.Errorf("%d notes read", len(notes)-1)
	}
}
