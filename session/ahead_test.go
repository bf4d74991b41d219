package session

import (
	"slices"
	"testing"
	"time"
)

// idsOf returns the ids of infos, in order.
func idsOf(infos []Info) []string {
	var ids []string
	for _, in := range infos {
		ids = append(ids, in.ID)
	}
	return ids
}

// A session dated far ahead of the clock (a synced record dated 2262, the
// last date the index can hold, or 9999) is listed last, marked Ahead, and
// muse -c (Latest, OpenLatestAsync) resumes the newest session believed,
// from the journals and from a Lister; once the clock reaches its date, it
// is believed.
func TestSessionDatedAheadIsNotLatest(t *testing.T) {
	s, clock := newTestStore(t)
	create := func(at time.Time) string {
		t.Helper()
		if !at.IsZero() {
			clock.mu.Lock()
			saved := clock.t
			clock.t = at
			clock.mu.Unlock()
			defer func() { clock.mu.Lock(); clock.t = saved; clock.mu.Unlock() }()
		}
		w := NewWriter(s, Params{Model: "m"})
		defer w.Close()
		if _, err := w.Append(Entry{Kind: KindUser, Text: "hi"}); err != nil {
			t.Fatal(err)
		}
		return w.ID()
	}
	old := create(time.Time{})
	far := create(time.Date(9999, 12, 31, 0, 0, 0, 0, time.UTC))
	ahead := create(time.Date(2262, 4, 11, 23, 47, 0, 0, time.UTC))
	near := create(clockStart.Add(23 * time.Hour)) // within the day a clock may be ahead
	newest := create(time.Time{})
	want := []string{near, newest, old, far, ahead}
	infos, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	if got := idsOf(infos); !slices.Equal(got, want) {
		t.Errorf("list %q, want %q", got, want)
	}
	for _, in := range infos {
		if wantAhead := in.ID == far || in.ID == ahead; in.Ahead != wantAhead {
			t.Errorf("%s: ahead %v", in.ID, in.Ahead)
		}
	}
	if got := infos[len(infos)-1].UpdatedText("2006-01-02"); got != "2262-04-11 (in the future)" && got != "2262-04-12 (in the future)" {
		t.Errorf("shown as %q", got)
	}
	if sess, err := s.Latest(); err != nil || sess.ID != near {
		t.Errorf("Latest: %v, %v; want %s", sess, err, near)
	}
	w, _, err := s.OpenLatestAsync(nil)
	if err != nil || w.ID() != near {
		t.Fatalf("OpenLatestAsync: %v, %v; want %s", w, err, near)
	}
	w.Close()
	// A Lister's order is not taken as it is.
	s.SetLister(func() ([]Info, error) {
		out := slices.Clone(infos)
		slices.Reverse(out)
		return out, nil
	})
	if got, err := s.List(); err != nil || !slices.Equal(idsOf(got), want) || !got[4].Ahead {
		t.Errorf("list from the lister %q, %v; want %q", idsOf(got), err, want)
	}
	if sess, err := s.Latest(); err != nil || sess.ID != near {
		t.Errorf("Latest from the lister: %v, %v; want %s", sess, err, near)
	}
	s.SetLister(nil)
	// Once the clock is there, the date is believed.
	clock.mu.Lock()
	clock.t = time.Date(2262, 4, 11, 0, 0, 0, 0, time.UTC)
	clock.mu.Unlock()
	if got, err := s.List(); err != nil || !slices.Equal(idsOf(got), []string{ahead, near, newest, old, far}) || got[0].Ahead {
		t.Errorf("list in 2262: %q, %v", idsOf(got), err)
	}
}
