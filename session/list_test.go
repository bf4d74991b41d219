package session

import (
	"reflect"
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
	infos, err := s.List()
	if err != nil || len(infos) != 3 {
		t.Fatalf("list: %v, %d sessions", err, len(infos))
	}
	for _, info := range infos {
		sess, err := s.Load(info.ID)
		if err != nil {
			t.Fatal(err)
		}
		if want := sess.Info(); !reflect.DeepEqual(info, want) {
			t.Errorf("listed %+v, loaded %+v", info, want)
		}
	}
}
