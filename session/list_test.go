package session

import (
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
		if want := sess.info(); !reflect.DeepEqual(info, want) {
			t.Errorf("listed %+v, loaded %+v", info, want)
		}
	}
}
