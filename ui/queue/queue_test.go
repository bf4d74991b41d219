package queue

import (
	"errors"
	"strings"
	"testing"

	"muse/session"
	"muse/theme"
	"muse/theme/themetest"
	"muse/ui/input"
	"muse/ui/pending"
)

// ↑ takes the last prompt back into the input, its files above it, and
// Drop drops it once, only while the input holds it as it came; the queue
// empties unstopped; Shift and Unshift keep the order, a refusal stopping
// it.
func TestQueueOrder(t *testing.T) {
	th, err := theme.New("dark", true)
	if err != nil {
		t.Fatal(err)
	}
	in, files := input.New(th, input.KeyMap{}, nil), pending.New(&th.Styles, []session.File{{Attachment: session.Attachment{Name: "kept.md"}}})
	c := Prompt{Text: "c", Files: []session.File{{Attachment: session.Attachment{Name: "c.md"}}}}
	q := New(themetest.Styles(t)).Push(Prompt{Text: "a"}).Push(Prompt{Text: "b"}).Push(c)
	q, in, files = q.Unqueue(in, files)
	if in.Value() != "c" || files.Len() != 2 || q.Len() != 2 {
		t.Fatalf("Unqueue: input %q, %d files, %d left", in.Value(), files.Len(), q.Len())
	}
	if _, _, _, ok := q.Drop(in.SetValue("c, edited"), files); ok {
		t.Error("dropped a prompt edited since")
	}
	q, in, files, ok := q.Drop(in, files)
	if !ok || in.Value() != "" || files.Len() != 1 || files.Files()[0].Name != "kept.md" {
		t.Fatalf("Drop: %v, input %q, files %+v", ok, in.Value(), files.Files())
	}
	if _, _, _, again := q.Drop(in, files); again {
		t.Error("dropped a second time")
	}
	q, first := q.Shift()
	if first.Text != "a" || q.Stopped() {
		t.Fatalf("Shift: %q, stopped %v", first.Text, q.Stopped())
	}
	q = q.Unshift(first)
	if got := q.Prompts(); len(got) != 2 || got[0].Text != "a" || got[1].Text != "b" || !q.Stopped() {
		t.Fatalf("Unshift: %+v, stopped %v", got, q.Stopped())
	}
	q, _ = q.PopBack()
	q, _ = q.PopBack()
	if q.Len() != 0 || q.Stopped() {
		t.Errorf("emptied: %d left, stopped %v", q.Len(), q.Stopped())
	}
}

// A copy's pushes do not show in another copy made before them.
func TestQueuePushDoesNotShare(t *testing.T) {
	q := New(themetest.Styles(t)).Push(Prompt{Text: "a"}).Push(Prompt{Text: "b"})
	q, _ = q.PopBack()
	x := q.Push(Prompt{Text: "x"})
	y := q.Push(Prompt{Text: "y"})
	if x.Prompts()[1].Text != "x" || y.Prompts()[1].Text != "y" {
		t.Errorf("x %+v, y %+v", x.Prompts(), y.Prompts())
	}
}

type saver struct {
	gens []uint64
	q    []session.QueuedPrompt
	err  error
}

func (s *saver) SaveQueue(gen uint64, q []session.QueuedPrompt) error {
	s.gens, s.q = append(s.gens, gen), q
	return s.err
}

// What Save keeps, Restore shows again, stopped, files and all; each save
// is numbered after the last; a failure comes back as a SavedMsg.
func TestQueueSaveRestore(t *testing.T) {
	f := session.File{Attachment: session.Attachment{Name: "n.md", MediaType: "text/plain"}, Data: []byte("x")}
	q := New(themetest.Styles(t)).Push(Prompt{Text: "a", Files: []session.File{f}}).Push(Prompt{Text: "b"})
	s := &saver{}
	q, cmd := q.Save(s)
	if msg := cmd(); msg != nil {
		t.Fatalf("save: %+v", msg)
	}
	_, cmd = q.Save(s)
	s.err = errors.New("disk full")
	if msg, ok := cmd().(SavedMsg); !ok || msg.Err == nil {
		t.Fatalf("a failed save: %+v", msg)
	}
	if len(s.gens) != 2 || s.gens[1] <= s.gens[0] {
		t.Errorf("generations %v", s.gens)
	}
	r := New(themetest.Styles(t)).Restore(s.q)
	got := r.Prompts()
	if len(got) != 2 || got[0].Text != "a" || len(got[0].Files) != 1 || string(got[0].Files[0].Data) != "x" || !r.Stopped() {
		t.Errorf("restored %+v, stopped %v", got, r.Stopped())
	}
	if e := New(themetest.Styles(t)).Restore(nil); e.Stopped() || e.Len() != 0 {
		t.Errorf("an empty queue restored: %d, stopped %v", e.Len(), e.Stopped())
	}
}

// Tall, the queue shows a row a prompt, at most maxShown, then its keys;
// short, one line naming how many more; empty, nothing.
func TestQueueView(t *testing.T) {
	q := New(themetest.Styles(t))
	if q.View() != "" || q.Height() != 0 {
		t.Fatalf("empty: %q", q.View())
	}
	for _, s := range []string{"one", "two", "three", "four", "five"} {
		q = q.Push(Prompt{Text: s})
	}
	tall := q.SetSize(120, 30)
	if v := tall.View(); !strings.Contains(v, "… and 2 more") || tall.Height() != maxShown+2 || !strings.Contains(v, "sent when the reply ends") {
		t.Errorf("tall:\n%s", v)
	}
	short := q.Stop().SetSize(80, MinHeight-1)
	if v := short.View(); short.Height() != 1 || !strings.Contains(v, "queue stopped › one (+4)") {
		t.Errorf("short: %q", v)
	}
}
