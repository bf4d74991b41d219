package session

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"muse/api"
)

// The property that makes a data folder safe in any sync engine: three
// machines share one session and, in a random schedule, append, branch,
// edit, stream replies, rename, move the head, delete and compact it,
// while their folders are copied to each other whole (as a sync engine
// does when a file changed on one side only) or as conflict copies of any
// engine's naming, merged in any order. Once every folder has been copied
// to every other and caught up, all three hold the same session, and no
// record a delete did not see is lost: every such entry is there in its
// newest version, with the newest title. A session the last delete saw
// whole, written no more after it, is deleted everywhere.
func TestMergeProperty(t *testing.T) {
	schedules := 1000
	if testing.Short() {
		schedules = 200
	}
	root := memDir(t)
	for n := range schedules {
		runSchedule(t, filepath.Join(root, fmt.Sprint(n)), uint64(n))
		if t.Failed() {
			t.Fatalf("schedule %d failed", n)
		}
	}
}

// memDir returns a temporary directory in memory where there is one
// (/dev/shm), so that the schedules' syncs cost no disk writes.
func memDir(t *testing.T) string {
	if fi, err := os.Stat("/dev/shm"); err == nil && fi.IsDir() {
		if dir, err := os.MkdirTemp("/dev/shm", "muse-merge-"); err == nil {
			t.Cleanup(func() { os.RemoveAll(dir) })
			return dir
		}
	}
	return t.TempDir()
}

// simMachine is one machine of a schedule.
type simMachine struct {
	name  string
	s     *Store
	clock time.Time // this machine's clock, skewed
	last  time.Time // its newest record, as Writer.now keeps it
}

func (m *simMachine) now(rng *rand.Rand) time.Time {
	m.clock = m.clock.Add(time.Duration(rng.IntN(3)) * time.Second)
	t := m.clock
	if !t.After(m.last) {
		t = m.last.Add(time.Nanosecond)
	}
	m.last = t
	return t
}

// written is what the schedule wrote, for the final check.
type written struct {
	entries   map[string]versioned // newest version of each entry
	title     versioned
	lastDel   time.Time // the newest delete
	lastWrite time.Time // the newest record
	// records is every record written; seen what each delete saw (its
	// tombstone's Seen); newest the newest record of each machine; whole
	// says the last delete saw every record written, and none followed.
	records []versioned
	seen    []map[string]time.Time
	newest  map[string]time.Time
	whole   bool
}

// covered reports whether a delete saw the record v.
func (w *written) covered(v versioned) bool {
	for _, seen := range w.seen {
		if at, ok := seen[v.m]; ok && !v.t.After(at) {
			return true
		}
	}
	return false
}

type versioned struct {
	t    time.Time
	m    string
	line string // the record
	id   string
}

func (v versioned) before(t time.Time, m string) bool {
	return v.t.Before(t) || v.t.Equal(t) && v.m <= m
}

func runSchedule(t *testing.T, dir string, seed uint64) {
	rng := rand.New(rand.NewPCG(seed, 7))
	base := clockStart
	ms := make([]*simMachine, 3)
	for i := range ms {
		// A store as muse opens one, with a folder of its own for its
		// locks and what it remembers of tombstones (tombsight.go).
		s, err := OpenAt(filepath.Join(dir, fmt.Sprint(i)), Places{Locks: filepath.Join(dir, fmt.Sprint(i)+"-state")})
		if err != nil {
			t.Fatal(err)
		}
		s.appendFile = func(path string, data []byte, _ bool) error { return appendLine(path, data, false) }
		skew := time.Duration(rng.IntN(5)) * time.Second
		if rng.IntN(10) == 0 {
			// A clock most of a day ahead: a date more than a day ahead
			// is not believed (tombstone.go; TestFutureTombIsSetAside,
			// TestFutureRecordDoesNotOutliveDelete).
			skew = 23 * time.Hour
		}
		name := string(rune('a' + i))
		s.SetMachine(name)
		s.random = rand.NewChaCha8([32]byte{byte(seed), byte(seed >> 8), byte(i)})
		ms[i] = &simMachine{name: name, s: s, clock: base.Add(skew)}
		s.now = func() time.Time { return ms[i].clock }
	}
	w := written{entries: map[string]versioned{}, newest: map[string]time.Time{}}
	// The session begins on machine a, and reaches the others whole.
	a := ms[0]
	sess, err := a.s.create(Params{Model: "m"}, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	id := sess.ID
	a.last = sess.Created
	for _, m := range ms[1:] {
		copyFile(t, a.s.path(id), m.s.path(id))
	}
	steps := 10 + rng.IntN(20)
	for range steps {
		m := ms[rng.IntN(3)]
		switch op := rng.IntN(100); {
		case op < 45:
			write(t, rng, m, id, &w)
		case op < 52:
			compactNow(t, m, id)
		case op < 55:
			if err := m.s.Delete(id); err == nil {
				w.lastDel = latest(w.lastDel, lastOfTomb(t, m.s, id))
				tb, err := readTomb(m.s.tombPath(id))
				if err != nil {
					t.Fatal(err)
				}
				w.seen = append(w.seen, tb.Seen)
				w.whole = true
				for name, at := range w.newest {
					if saw, ok := tb.Seen[name]; !ok || at.After(saw) {
						w.whole = false
					}
				}
			} else if !errors.Is(err, ErrNotFound) {
				t.Fatal(err)
			}
		case op < 85:
			syncFolder(t, rng, m, ms[rng.IntN(3)], id)
		default:
			catchUp(t, m.s)
		}
	}
	for range 3 { // every folder to every other, until all agree
		for _, from := range ms {
			for _, to := range ms {
				if from != to {
					syncFolder(t, rng, from, to, id)
					catchUp(t, to.s)
				}
			}
		}
	}
	checkConverged(t, ms, id, &w, seed)
	checkHonest(t, ms, id, seed)
}

// checkHonest fails unless every tombstone was taken for what it says
// (none set aside: none claimed more than its reader can have written,
// tombsight.go), and a machine remembers nothing of a tombstone it no
// longer holds.
func checkHonest(t *testing.T, ms []*simMachine, id string, seed uint64) {
	t.Helper()
	for _, m := range ms {
		for _, name := range dirNamesOf(t, m.s.Dir()) {
			if strings.HasSuffix(name, unmergedExt) {
				t.Fatalf("seed %d, machine %s: set aside %s", seed, m.name, name)
			}
		}
		_, sightErr := os.Stat(m.s.sightPath(id))
		if _, err := os.Stat(m.s.tombPath(id)); os.IsNotExist(err) && !os.IsNotExist(sightErr) {
			t.Fatalf("seed %d, machine %s: remembers a tombstone it does not hold (%v)", seed, m.name, sightErr)
		}
	}
}

func latest(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

func lastOfTomb(t *testing.T, s *Store, id string) time.Time {
	at, ok := s.tombOf(id)
	if !ok {
		t.Fatal("no tombstone after a delete")
	}
	return at
}

func copyFile(t *testing.T, from, to string) {
	data, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// write appends one random record to m's journal, if it has one.
func write(t *testing.T, rng *rand.Rand, m *simMachine, id string, w *written) {
	sess, err := m.s.Load(id)
	if err != nil {
		return // deleted here, or not arrived
	}
	if !sess.Updated.IsZero() {
		m.last = latest(m.last, sess.Updated)
	}
	var recs []record
	newEntry := func(kind, parent string) Entry {
		eid, err := newEntryID(m.now(rng), m.s.random)
		if err != nil {
			t.Fatal(err)
		}
		return Entry{ID: eid, Parent: parent, Kind: kind, Time: m.last, Text: fmt.Sprintf("%s %d", m.name, rng.IntN(1000))}
	}
	switch op := rng.IntN(6); {
	case op == 0 && len(sess.All) > 0: // a branch beside an entry, as an edit makes
		e := newEntry(KindUser, sess.All[rng.IntN(len(sess.All))].Parent)
		recs = append(recs, record{Type: recEntry, Entry: &e})
	case op == 1: // a reply that streams, and ends or is cut short
		e := newEntry(KindAssistant, sess.Head)
		e.Text = ""
		e.Status = StatusStreaming
		e.Message = &api.Message{Role: api.RoleAssistant}
		recs = append(recs, record{Type: recChunk, Chunk: &chunk{ID: e.ID, Entry: &e, Blocks: []blockDelta{{I: 0, Block: &api.ContentBlock{Type: api.BlockText, Text: "once"}}}}})
		recs = append(recs, record{Type: recChunk, Chunk: &chunk{ID: e.ID, Blocks: []blockDelta{{I: 0, Text: " upon"}}}})
		if rng.IntN(2) == 0 {
			e.Status = StatusComplete
			e.Message = &api.Message{Role: api.RoleAssistant, Content: []api.ContentBlock{{Type: api.BlockText, Text: "once upon"}}}
			recs = append(recs, record{Type: recEntry, Entry: &e})
		}
	case op == 2: // a rename
		title := fmt.Sprintf("title %s %d", m.name, rng.IntN(1000))
		recs = append(recs, record{Type: recTitle, Title: &title})
	case op == 3 && len(sess.All) > 0: // another branch made active
		head := sess.All[rng.IntN(len(sess.All))].ID
		recs = append(recs, record{Type: recHead, Head: &head})
	case op == 4 && len(sess.All) > 0: // an entry this machine wrote, written again
		for _, e := range slices.Backward(sess.All) {
			if strings.HasPrefix(e.Text, m.name+" ") {
				e.Text += " (again)"
				recs = append(recs, record{Type: recEntry, Entry: &e})
				break
			}
		}
	default:
		e := newEntry(KindUser, sess.Head)
		recs = append(recs, record{Type: recEntry, Entry: &e})
	}
	var data []byte
	for i := range recs {
		r := &recs[i]
		r.Time, r.M = m.now(rng), m.name
		line, err := encodeRecord(r)
		if err != nil {
			t.Fatal(err)
		}
		data = append(data, line...)
		w.lastWrite = latest(w.lastWrite, r.Time)
		w.newest[r.M] = latest(w.newest[r.M], r.Time)
		w.whole = false
		v := versioned{t: r.Time, m: r.M, line: string(line)}
		w.records = append(w.records, v)
		switch {
		case r.Type == recTitle && w.title.before(r.Time, r.M):
			v.id = *r.Title
			w.title = v
		case r.Type == recEntry:
			if old, ok := w.entries[r.Entry.ID]; !ok || old.before(r.Time, r.M) {
				v.id = r.Entry.Text
				w.entries[r.Entry.ID] = v
			}
		case r.Type == recChunk && r.Chunk.Entry != nil:
			if _, ok := w.entries[r.Chunk.ID]; !ok {
				w.entries[r.Chunk.ID] = versioned{t: r.Time, m: r.M, id: ""}
			}
		}
	}
	if err := appendLine(m.s.path(id), data, false); err != nil {
		t.Fatal(err)
	}
}

func compactNow(t *testing.T, m *simMachine, id string) {
	f, err := os.Open(m.s.path(id))
	if err != nil {
		return
	}
	sess, size, err := replayStats(f, id, false)
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	if err := m.s.compact(sess, size.cutIDs); err != nil {
		t.Fatal(err)
	}
}

var engineNames = []string{".sync-conflict-20250301-101010-DEV%d.jsonl", " (m's conflicted copy %d).jsonl", " %d.jsonl"}

// syncFolder copies from's journal and tombstone to to's folder as a sync
// engine would: whole where to has nothing from's lacks, else as a
// conflict copy.
func syncFolder(t *testing.T, rng *rand.Rand, from, to *simMachine, id string) {
	if from == to {
		return
	}
	if tomb, err := os.ReadFile(from.s.tombPath(id)); err == nil {
		if _, err := os.Stat(to.s.tombPath(id)); err != nil {
			os.WriteFile(to.s.tombPath(id), tomb, 0o600)
		}
	}
	src, err := os.ReadFile(from.s.path(id))
	if err != nil {
		return
	}
	dst, err := os.ReadFile(to.s.path(id))
	if err == nil && bytes.Equal(src, dst) {
		return
	}
	if err == nil && !subset(dst, src) || rng.IntN(4) == 0 {
		name := fmt.Sprintf(engineNames[rng.IntN(len(engineNames))], 2+rng.IntN(1000))
		if err := os.WriteFile(filepath.Join(to.s.Dir(), id+name), src, 0o600); err != nil {
			t.Fatal(err)
		}
		return
	}
	if err := os.WriteFile(to.s.path(id), src, 0o600); err != nil {
		t.Fatal(err)
	}
}

// subset reports whether every line of a is a line of b.
func subset(a, b []byte) bool {
	have := map[string]bool{}
	for _, l := range strings.Split(string(b), "\n") {
		have[l] = true
	}
	for _, l := range strings.Split(string(a), "\n") {
		if !have[l] {
			return false
		}
	}
	return true
}

func checkConverged(t *testing.T, ms []*simMachine, id string, w *written, seed uint64) {
	t.Helper()
	var first *Session
	for _, m := range ms {
		sess, err := m.s.Load(id)
		deleted := errors.Is(err, ErrNotFound)
		if err != nil && !deleted {
			t.Fatalf("seed %d, machine %s: %v", seed, m.name, err)
		}
		if w.whole && !deleted {
			t.Fatalf("seed %d, machine %s: kept, though the last delete saw every record", seed, m.name)
		}
		if deleted {
			for _, v := range w.records {
				if !w.covered(v) {
					t.Fatalf("seed %d, machine %s: deleted, though no delete saw the record %s", seed, m.name, v.line)
				}
			}
		}
		if deleted {
			continue
		}
		if len(sess.Warnings) > 0 {
			t.Errorf("seed %d, machine %s: warnings %q", seed, m.name, sess.Warnings)
		}
		if first == nil {
			first = sess
			continue
		}
		a, _ := json.Marshal(first.All)
		b, _ := json.Marshal(sess.All)
		if string(a) != string(b) || first.Title != sess.Title || first.Head != sess.Head {
			t.Fatalf("seed %d: machines %s and %s differ:\n%s %q %s\n%s %q %s", seed, ms[0].name, m.name, a, first.Title, first.Head, b, sess.Title, sess.Head)
		}
	}
	if first == nil {
		return
	}
	byID := map[string]Entry{}
	for _, e := range first.All {
		byID[e.ID] = e
	}
	for eid, v := range w.entries {
		if !w.lastDel.IsZero() && !v.t.After(w.lastDel) {
			// Written before a delete (a tie goes to it): gone with it
			// where that delete saw it. One it did not see keeps the
			// session, but may show an older version: an old copy merged
			// after a compaction applies in line order in a journal one
			// machine wrote (order.go), which this does not check.
			continue
		}
		e, ok := byID[eid]
		if !ok {
			t.Fatalf("seed %d: entry %s (%s) lost", seed, eid, v.line)
		}
		if v.id != "" && e.Text != v.id {
			t.Fatalf("seed %d: entry %s is %q, want its newest version %q", seed, eid, e.Text, v.id)
		}
	}
	if w.title.line != "" && (w.lastDel.IsZero() || w.title.t.After(w.lastDel)) && first.Title != w.title.id {
		t.Fatalf("seed %d: title %q, want the newest, %q", seed, first.Title, w.title.id)
	}
}
