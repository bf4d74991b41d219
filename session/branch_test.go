package session

import (
	"reflect"
	"testing"

	"muse/api"
)

func reply(text string) Entry {
	return Entry{Kind: KindAssistant, Status: StatusComplete, Message: &api.Message{Role: api.RoleAssistant, Model: "m",
		Content: []api.ContentBlock{{Type: api.BlockText, Text: text}}}}
}

// branched writes a session with two questions, then edits the first
// question (a new branch from the start) and regenerates its reply (a
// sibling reply). It returns the writer and the ids.
func branched(t *testing.T, s *Store) (*Writer, map[string]string) {
	t.Helper()
	w := NewWriter(s, Params{Model: "m"})
	ids := map[string]string{}
	add := func(name string, e Entry) {
		t.Helper()
		got, err := w.Append(e)
		if err != nil {
			t.Fatal(err)
		}
		ids[name] = got.ID
	}
	add("q1", Entry{Kind: KindUser, Text: "ask about go"})
	add("a1", reply("go answer"))
	add("q2", Entry{Kind: KindUser, Text: "second question"})
	add("a2", reply("second answer"))
	// Edit the first question: a sibling of q1, at the root.
	e, err := w.AppendAt(Entry{Kind: KindUser, Text: "ask about rust"}, "")
	if err != nil {
		t.Fatal(err)
	}
	ids["q1b"] = e.ID
	add("a1b", reply("rust answer"))
	// Regenerate that reply: a sibling of a1b.
	e, err = w.AppendAt(reply("rust answer, again"), ids["q1b"])
	if err != nil {
		t.Fatal(err)
	}
	ids["a1c"] = e.ID
	return w, ids
}

func texts(es []Entry) []string {
	var out []string
	for _, e := range es {
		if e.Message != nil {
			out = append(out, e.Message.Text())
		} else {
			out = append(out, e.Text)
		}
	}
	return out
}

func TestBranchesAndHead(t *testing.T) {
	s, _ := newTestStore(t)
	w, ids := branched(t, s)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	sess, err := s.Load(w.ID())
	if err != nil {
		t.Fatal(err)
	}
	// The active branch is the last written: the edited question and the
	// regenerated reply; nothing was overwritten.
	if got := texts(sess.Entries); !reflect.DeepEqual(got, []string{"ask about rust", "rust answer, again"}) {
		t.Fatalf("active branch %q", got)
	}
	if len(sess.All) != 7 || !sess.Branched() {
		t.Errorf("%d entries in all; want all 7 kept", len(sess.All))
	}
	sib, pos := sess.Siblings(ids["q1b"])
	if !reflect.DeepEqual(sib, []string{ids["q1"], ids["q1b"]}) || pos != 1 {
		t.Errorf("siblings of the edit %v at %d", sib, pos)
	}
	if sib, pos := sess.Siblings(ids["a1c"]); len(sib) != 2 || pos != 1 {
		t.Errorf("siblings of the regenerated reply %v at %d", sib, pos)
	}
	// Switching back to the first question follows its latest path.
	if leaf := sess.Leaf(ids["q1"]); leaf != ids["a2"] {
		t.Errorf("leaf of the first question %q, want %q", leaf, ids["a2"])
	}

	// Resuming opens the branch that was active last.
	w2, err := s.OpenWriter(w.ID())
	if err != nil {
		t.Fatal(err)
	}
	if err := w2.SetHead(sess.Leaf(ids["q1"])); err != nil {
		t.Fatal(err)
	}
	w2.Close()
	back, err := s.Load(w.ID())
	if err != nil {
		t.Fatal(err)
	}
	if got := texts(back.Entries); !reflect.DeepEqual(got, []string{"ask about go", "go answer", "second question", "second answer"}) {
		t.Errorf("after switching and reopening: %q", got)
	}
}

// kill -9 while a reply streams on a new branch: the branches written stay,
// and the cut reply comes back on its branch, interrupted.
func TestCrashWhileABranchStreams(t *testing.T) {
	s, _ := newTestStore(t)
	w, ids := branched(t, s)
	e, err := w.AppendAt(Entry{Kind: KindUser, Text: "third try"}, "")
	if err != nil {
		t.Fatal(err)
	}
	cp := streaming("", "half of it")
	cp.ID = w.NewID()
	if err := w.Checkpoint(cp); err != nil {
		t.Fatal(err)
	}
	// No Close: the process died.
	sess, err := s.Load(w.ID())
	if err != nil {
		t.Fatal(err)
	}
	if got := texts(sess.Entries); !reflect.DeepEqual(got, []string{"third try", "half of it"}) || sess.Entries[1].Status != StatusInterrupted || sess.Entries[0].ID != e.ID {
		t.Errorf("active branch after the crash %q", got)
	}
	if len(sess.All) != 9 || sess.Leaf(ids["q1"]) != ids["a2"] {
		t.Errorf("the other branches: %d entries", len(sess.All))
	}
}

func TestFork(t *testing.T) {
	s, _ := newTestStore(t)
	w, ids := branched(t, s)
	w.SetHead(ids["a2"])
	w.SetTitle("Go talk")
	w.Close()
	fork, err := s.Fork(w.ID(), 3, "")
	if err != nil {
		t.Fatal(err)
	}
	if got := texts(fork.Entries); !reflect.DeepEqual(got, []string{"ask about go", "go answer", "second question"}) {
		t.Errorf("fork holds %q", got)
	}
	if fork.ForkedFrom == nil || fork.ForkedFrom.ID != w.ID() || fork.ForkedFrom.Entry != ids["q2"] || fork.Title != "Go talk (fork)" || fork.ID == w.ID() {
		t.Errorf("fork %s from %+v titled %q", fork.ID, fork.ForkedFrom, fork.Title)
	}
	if _, err := s.Fork(w.ID(), 9, ""); err == nil {
		t.Error("a fork past the end of the branch was made")
	}
}
