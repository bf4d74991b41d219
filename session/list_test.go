package session

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The list reads journals lightly, without the replies' content; what it
// shows is what a full load gives, for branched and interrupted sessions too.
func TestLightListMatchesLoad(t *testing.T) {
	s, _ := newTestStore(t)
	w, _ := branched(t, s)
	w.Close()
	cut := NewWriter(s, Params{Model: "m"})
	cut.Append(userEntry("e1", "tell me"))
	cut.Checkpoint(streaming("e2", "Once upon"))
	empty := NewWriter(s, Params{Model: "m"})
	empty.Append(userEntry("e1", "hi"))
	empty.Checkpoint(Entry{ID: "e2", Kind: KindAssistant})
	// A journal with a line that is not valid JSON (a raw control byte in
	// a string) and one with no header at all.
	writeJournal(t, s, "20261120-093000-aaaaaa", []string{
		`{"v":2,"type":"header","time":"2026-11-20T09:30:00Z","id":"20261120-093000-aaaaaa","created":"2026-11-20T09:30:00Z","params":{"model":"m"}}`,
		`{"type":"entry","time":"2026-11-20T09:30:00Z","entry":{"id":"e1","kind":"user","text":"bad ` + "\x1b" + ` byte"}}`,
		`{"type":"entry","time":"2026-11-20T09:30:00Z","entry":{"id":"e2","parent":"e1","kind":"assistant"}}`,
	}, "")
	writeJournal(t, s, "20261120-093000-bbbbbb", []string{"not json at all"}, "")
	infos, err := s.List()
	if err != nil || len(infos) != 5 {
		t.Fatalf("list: %v, %d sessions", err, len(infos))
	}
	for _, info := range infos {
		if info.Damaged != "" {
			if _, err := s.Load(info.ID); err == nil || !strings.Contains(err.Error(), info.Damaged) {
				t.Errorf("listed as damaged (%s), loaded with %v", info.Damaged, err)
			}
			continue
		}
		sess, err := s.Load(info.ID)
		if err != nil {
			t.Fatal(err)
		}
		info.Ahead = false // the list's mark, by its clock (2025 here), not the journal's
		if want := sess.info(); !reflect.DeepEqual(info, want) {
			t.Errorf("listed %+v, loaded %+v", info, want)
		}
	}
}

// listFixture makes a store with three sessions and a damaged journal.
func listFixture(t *testing.T) *Store {
	t.Helper()
	s, _ := newTestStore(t)
	for i, title := range []string{"Alpha", "Beta", ""} {
		sess, err := s.Create(Params{Model: "m" + title})
		if err != nil {
			t.Fatal(err)
		}
		for j := range i + 1 {
			if err := s.Append(sess, userEntry("u"+string(rune('a'+j)), "q")); err != nil {
				t.Fatal(err)
			}
			if err := s.Append(sess, fullAssistant("a"+string(rune('a'+j)))); err != nil {
				t.Fatal(err)
			}
		}
		if title != "" {
			if err := s.SetTitle(sess, title); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := os.WriteFile(s.path("20250301-090000-bad000"), []byte("not json\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return s
}

func mustList(t *testing.T, s *Store) []Info {
	t.Helper()
	infos, err := s.List()
	if err != nil {
		t.Fatal(err)
	}
	return infos
}

// List shows every session, the damaged ones with why.
func TestListShowsDamaged(t *testing.T) {
	s := listFixture(t)
	want := mustList(t, s)
	if len(want) != 4 {
		t.Fatalf("%d sessions listed, want 4", len(want))
	}
	var damaged, counted int
	for _, info := range want {
		if info.Damaged != "" {
			damaged++
			if info.Title != "(damaged: "+info.Damaged+")" || !strings.Contains(info.Damaged, "header") {
				t.Errorf("damaged info %+v", info)
			}
		}
		if info.Title == "Beta" && info.Messages == 4 {
			counted++
		}
	}
	if damaged != 1 || counted != 1 {
		t.Errorf("infos %+v", want)
	}
}

// List follows the journals: new, renamed and removed sessions.
func TestListFollowsChanges(t *testing.T) {
	s := listFixture(t)
	before := mustList(t, s)
	sess, err := s.Create(Params{Model: "new"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Rename(before[1].ID, "Renamed"); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(s.path(before[2].ID)); err != nil {
		t.Fatal(err)
	}
	after := mustList(t, s)
	if len(after) != 4 {
		t.Fatalf("%d sessions, want 4", len(after))
	}
	byID := map[string]Info{}
	for _, info := range after {
		byID[info.ID] = info
	}
	if _, ok := byID[sess.ID]; !ok {
		t.Error("a new session is missing")
	}
	if byID[before[1].ID].Title != "Renamed" {
		t.Errorf("renamed session: %+v", byID[before[1].ID])
	}
	if _, ok := byID[before[2].ID]; ok {
		t.Error("a removed journal is still listed")
	}
	leftovers, _ := filepath.Glob(filepath.Join(s.Dir(), ".*.tmp"))
	if len(leftovers) != 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}
}

// A store's Lister answers List, Find and Latest; when it fails, the
// journals do.
func TestLister(t *testing.T) {
	s := listFixture(t)
	want := mustList(t, s)
	calls := 0
	s.SetLister(func() ([]Info, error) {
		calls++
		return want[1:2], nil
	})
	if got := mustList(t, s); !reflect.DeepEqual(got, want[1:2]) || calls != 1 {
		t.Errorf("List with a Lister: %+v (%d calls)", got, calls)
	}
	if info, err := s.Find(want[1].ID[:10]); err != nil || info.ID != want[1].ID {
		t.Errorf("Find with a Lister: %+v, %v", info, err)
	}
	if sess, err := s.Latest(); err != nil || sess.ID != want[1].ID {
		t.Errorf("Latest with a Lister: %v", err)
	}
	s.SetLister(func() ([]Info, error) { return nil, errors.New("index broken") })
	if got := mustList(t, s); !reflect.DeepEqual(got, want) {
		t.Errorf("List with a failing Lister:\n got %+v\nwant %+v", got, want)
	}
	s.SetLister(nil)
	if got := mustList(t, s); !reflect.DeepEqual(got, want) {
		t.Errorf("List without a Lister:\n got %+v\nwant %+v", got, want)
	}
}
