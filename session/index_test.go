package session

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

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

func TestListIndex(t *testing.T) {
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
	if m := mode(t, s.indexPath()); m != 0o600 {
		t.Errorf("index mode %o, want 600", m)
	}
	var idx indexFile
	data, err := os.ReadFile(s.indexPath())
	if err != nil || json.Unmarshal(data, &idx) != nil || len(idx.Sessions) != 4 {
		t.Fatalf("index %s, %v", data, err)
	}

	// With a warm index, List reads no journal: make one unreadable but keep
	// its size and time, and the listing does not change.
	victim := want[1].ID
	if want[1].Damaged != "" || want[0].Damaged == "" {
		t.Fatalf("want the damaged journal first (the newest file): %+v", want)
	}
	fi, err := os.Stat(s.path(victim))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(s.path(victim), []byte(strings.Repeat("x", int(fi.Size()))), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(s.path(victim), fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
	if got := mustList(t, s); !reflect.DeepEqual(got, want) {
		t.Errorf("warm List read a journal:\n got %+v\nwant %+v", got, want)
	}
	// A changed time makes List read it again.
	later := fi.ModTime().Add(time.Second)
	if err := os.Chtimes(s.path(victim), later, later); err != nil {
		t.Fatal(err)
	}
	for _, info := range mustList(t, s) {
		if info.ID == victim && info.Damaged == "" {
			t.Errorf("a changed journal was not read again: %+v", info)
		}
	}
}

func TestListIndexRebuilt(t *testing.T) {
	s := listFixture(t)
	want := mustList(t, s)
	write := func(data string) func() error {
		return func() error { return os.WriteFile(s.indexPath(), []byte(data), 0o600) }
	}
	for _, tc := range []struct {
		name   string
		damage func() error
	}{
		{"deleted", func() error { return os.Remove(s.indexPath()) }},
		{"corrupt", write(`{"version":1,"sessions":{"x`)},
		{"garbage", write("\x00\x01")},
		{"version", write(`{"version":99,"sessions":{}}`)},
		{"wrong ids", write(`{"version":1,"sessions":{"a":{"info":{"id":"b"}}}}`)},
		{"directory", func() error {
			if err := os.Remove(s.indexPath()); err != nil {
				return err
			}
			return os.Mkdir(s.indexPath(), 0o700)
		}},
	} {
		name := tc.name
		t.Run(name, func(t *testing.T) {
			mustList(t, s) // a good index to damage
			if err := tc.damage(); err != nil {
				t.Fatal(err)
			}
			if got := mustList(t, s); !reflect.DeepEqual(got, want) {
				t.Errorf("List with a %s index:\n got %+v\nwant %+v", name, got, want)
			}
			if name == "directory" {
				os.Remove(s.indexPath())
				return
			}
			if idx := s.readIndex(); len(idx) != len(want) {
				t.Errorf("index not rebuilt: %d entries", len(idx))
			}
		})
	}
}

func TestListIndexFollowsChanges(t *testing.T) {
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
	if idx := s.readIndex(); len(idx) != 4 {
		t.Errorf("index has %d entries, want 4", len(idx))
	}
	leftovers, _ := filepath.Glob(filepath.Join(s.Dir(), ".*.tmp"))
	if len(leftovers) != 0 {
		t.Errorf("temporary files left: %v", leftovers)
	}
}
