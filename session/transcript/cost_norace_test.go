//go:build !race

package transcript

import (
	"bytes"
	"io"
	"runtime"
	"testing"

	"muse/session"
	"muse/session/sessiontest"
)

// The cost tests of import, merge and export: large and single-goroutine,
// they run without the race detector, which could find nothing in them
// and makes them slow (see .ci/test).

// savePeak returns the largest live heap, over what was live before, of
// saving data as a new session (see sessiontest.PeakLive).
func savePeak(t *testing.T, data []byte) uint64 {
	t.Helper()
	return sessiontest.PeakLive(2, func() {
		saved, err := Save(newTestStore(t), bytes.NewReader(data), false)
		if err != nil || saved.Entries == 0 {
			t.Fatalf("saved %+v: %v", saved, err)
		}
	})
}

// Saving an import holds about an entry of it, not the file: the largest
// live heap while a 16 MiB export is saved is under a quarter of it, and
// grows by less than a quarter of what the export grows from 4 MiB (by the
// ids of the entries, which checking a tree needs, and what a collection
// counts live of what is allocated while it runs). Writing the whole
// journal at once held every entry and every encoded line, five times the
// file.
func TestSaveHoldsAnEntryNotTheFile(t *testing.T) {
	small, large := bigExport(4<<20), bigExport(16<<20)
	ps, pl := savePeak(t, small), savePeak(t, large)
	t.Logf("peak live heap over the base: %.1f MiB for %d MiB, %.1f MiB for %d MiB", float64(ps)/(1<<20), len(small)>>20, float64(pl)/(1<<20), len(large)>>20)
	if pl > uint64(len(large)/4) || pl > ps+uint64(len(large)-len(small))/4 {
		t.Errorf("saving took %d KiB for a %d MiB export, %d KiB for %d MiB: it holds the file", pl>>10, len(large)>>20, ps>>10, len(small)>>20)
	}
}

// Merging an export into the session it came from holds the session,
// which its writer loads, and the entries new to it, not the export: the
// largest live heap of merging a 16 MiB export of a session into it is
// less than half the export over what the session takes, loaded (the
// replay reads a batch of lines at a time). Reading the export whole
// first held it beside the session: twice as much.
func TestMergeHoldsTheSessionNotTheExport(t *testing.T) {
	s := newTestStore(t)
	saved, err := Save(s, bytes.NewReader(bigExport(16<<20)), false)
	if err != nil {
		t.Fatal(err)
	}
	sess, err := s.Load(saved.ID)
	if err != nil {
		t.Fatal(err)
	}
	var exp bytes.Buffer
	if err := Export(sess, "json", &exp, nil, s); err != nil {
		t.Fatal(err)
	}
	data := exp.Bytes()
	runtime.GC()
	withSession := sessiontest.LiveHeap()
	runtime.KeepAlive(sess)
	sess = nil
	runtime.GC()
	session := withSession - sessiontest.LiveHeap()
	merge := sessiontest.PeakLive(10, func() {
		got, err := Save(s, bytes.NewReader(data), true)
		if err != nil || !got.Merged || got.ID != saved.ID || got.Entries != 0 {
			t.Fatalf("merged %+v: %v", got, err)
		}
	})
	t.Logf("export %d MiB: its session takes %.1f MiB loaded, merging it peaks %.1f MiB over the base", len(data)>>20, float64(session)/(1<<20), float64(merge)/(1<<20))
	if merge > session+uint64(len(data))/2 {
		t.Errorf("merging a %d MiB export took %d MiB, its session %d MiB: it holds the export", len(data)>>20, merge>>20, session>>20)
	}
}

// exportPeak returns the largest live heap, over what was live before, of
// exporting sess in format (see sessiontest.PeakLive). A collection counts
// what is allocated while it runs as live: with the session in the heap,
// collecting at every 2% of growth keeps that under 2% of it.
func exportPeak(t *testing.T, sess *session.Session, format string) uint64 {
	t.Helper()
	return sessiontest.PeakLive(2, func() {
		if err := Export(sess, format, io.Discard, escapeLS, nil); err != nil {
			t.Fatal(err)
		}
	})
}

// An export is written as it is made: beyond the session, which the
// caller holds, the largest live heap while a session of 8 MiB is
// exported, as JSON or Markdown, is under half of it, and grows by less
// than half of what the session grows from 2 MiB (what a collection
// counts live of what is allocated while it runs is about 2 MiB).
// Encoding the whole export, then cleaning it, held it twice over.
func TestExportHoldsAnEntryNotTheSession(t *testing.T) {
	s := newTestStore(t)
	load := func(size int) *session.Session {
		saved, err := Save(s, bytes.NewReader(bigExport(size)), false)
		if err != nil {
			t.Fatal(err)
		}
		sess, err := s.Load(saved.ID)
		if err != nil {
			t.Fatal(err)
		}
		return sess
	}
	const sizeSmall, sizeLarge = 2 << 20, 8 << 20
	small, large := load(sizeSmall), load(sizeLarge)
	for _, format := range []string{"json", "md"} {
		ps, pl := exportPeak(t, small, format), exportPeak(t, large, format)
		t.Logf("%s: peak live heap over the session: %.2f MiB for 2 MiB, %.2f MiB for 8 MiB", format, float64(ps)/(1<<20), float64(pl)/(1<<20))
		if pl > sizeLarge/2 || pl > ps+(sizeLarge-sizeSmall)/2 {
			t.Errorf("%s: exporting took %d KiB for a session of 8 MiB, %d KiB for 2 MiB: it holds the export", format, pl>>10, ps>>10)
		}
	}
	runtime.KeepAlive(small)
	runtime.KeepAlive(large)
}
