package composer

import (
	"errors"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"muse/session"
	"muse/theme"
	"muse/ui/input"
	"muse/ui/pending"
)

func newComposer(t *testing.T) Model {
	t.Helper()
	th, err := theme.New("dark", true)
	if err != nil {
		t.Fatal(err)
	}
	return New(th, KeyMap{}, nil, nil).SetSize(80, 24, input.State{})
}

func file(name string) session.File {
	return session.File{Attachment: session.Attachment{Name: name, MediaType: "text/plain"}, Data: []byte(name)}
}

// A prompt sent takes the files waiting and leaves the input; a prompt
// refused leaves both as they were.
func TestSentTakesInputAndFiles(t *testing.T) {
	m := newComposer(t)
	m = m.SetInput(m.Input().SetValue("hello")).SetPending(m.Pending().Set([]session.File{file("a.txt")}))
	p := m.Prompt("hello")
	if p.Text != "hello" || len(p.Files) != 1 || p.Edit != "" {
		t.Fatalf("prompt %+v", p)
	}
	refused, cmd := m.Sent(p, Refused, "s1", nil)
	if cmd != nil || refused.Input().Value() != "hello" || refused.Pending().Len() != 1 {
		t.Errorf("refused: input %q, %d files, cmd %v", refused.Input().Value(), refused.Pending().Len(), cmd != nil)
	}
	sent, _ := m.Sent(p, Started, "s1", nil)
	if sent.Input().Value() != "" || sent.Pending().Len() != 0 {
		t.Errorf("started: input %q, %d files", sent.Input().Value(), sent.Pending().Len())
	}
}

// A queued prompt goes with its own files, and the files waiting stay; if
// it is refused it waits again, first, and the queue stops.
func TestNextQueuedKeepsFilesWaiting(t *testing.T) {
	m := newComposer(t)
	m = m.SetPending(m.Pending().Set([]session.File{file("queued.txt")}))
	m, _ = m.Enqueue(m.Prompt("later"), "s1", nil)
	m, _ = m.Enqueue(m.Prompt("after that"), "s1", nil)
	if m.Queue().Len() != 2 || m.Pending().Len() != 0 {
		t.Fatalf("queue %d, files %d", m.Queue().Len(), m.Pending().Len())
	}
	m = m.SetPending(m.Pending().Set([]session.File{file("draft.txt")}))

	next, out := m.AfterTurn(true, "", "")
	if out.Send == nil || out.Send.Text != "later" || len(out.Send.Files) != 1 || out.Send.Files[0].Name != "queued.txt" {
		t.Fatalf("after a good turn: %+v", out.Send)
	}
	refused, _ := next.Sent(out.Send, Refused, "s1", nil)
	if q := refused.Queue(); q.Len() != 2 || !q.Stopped() || q.Prompts()[0].Text != "later" {
		t.Errorf("refused: queue %+v", q.Prompts())
	}
	if refused.Pending().Len() != 1 || refused.Pending().Files()[0].Name != "draft.txt" {
		t.Errorf("refused: files waiting %+v", refused.Pending().Files())
	}

	sent, _ := next.Sent(out.Send, Started, "s1", nil)
	if sent.Queue().Len() != 1 || sent.Pending().Files()[0].Name != "draft.txt" {
		t.Errorf("started: queue %d, files waiting %+v", sent.Queue().Len(), sent.Pending().Files())
	}
}

// A turn that failed or was cancelled stops the queue, and the notice
// says why first.
func TestAfterTurnStopsTheQueue(t *testing.T) {
	m := newComposer(t)
	m, _ = m.Enqueue(m.Prompt("later"), "s1", nil)
	for _, c := range []struct{ notice, lastErr, want string }{
		{"rate limited", "", "rate limited · queue stopped: 1 prompt waiting"},
		{"", "messages", "the turn failed · queue stopped: 1 prompt waiting"},
		{"", "", "cancelled · queue stopped: 1 prompt waiting"},
	} {
		next, out := m.AfterTurn(false, c.notice, c.lastErr)
		if out.Send != nil || !out.Noted || out.Notice != c.want || !next.Queue().Stopped() {
			t.Errorf("AfterTurn(false, %q, %q) = %+v", c.notice, c.lastErr, out)
		}
	}
	if _, out := newComposer(t).AfterTurn(true, "", ""); out.Noted || out.Send != nil || out.Cmd != nil {
		t.Errorf("no queue: %+v", out)
	}
}

// The prompt whose mentions were attached is sent once they are, if the
// input still holds it; a refusal puts /attach back into an empty input.
func TestAttachedSendsThePromptThatNamedThem(t *testing.T) {
	m := newComposer(t)
	m = m.SetInput(m.Input().SetValue("look at @a.txt"))
	got, out := m.Attached(AttachedMsg{files: []session.File{file("a.txt")}, send: "look at @a.txt"})
	if out.Send == nil || out.Send.Text != "look at @a.txt" || len(out.Send.Files) != 1 {
		t.Errorf("send %+v", out.Send)
	}
	if got.Pending().Len() != 1 || !strings.HasPrefix(out.Notice, "attached 1 file") {
		t.Errorf("%d files, notice %q", got.Pending().Len(), out.Notice)
	}

	changed := m.SetInput(m.Input().SetValue("something else"))
	if _, out := changed.Attached(AttachedMsg{files: []session.File{file("a.txt")}, send: "look at @a.txt"}); out.Send != nil {
		t.Errorf("sent a prompt the input no longer holds: %+v", out.Send)
	}

	empty := newComposer(t)
	got, out = empty.Attached(AttachedMsg{Err: errors.New("no such file"), retype: "/attach nope"})
	if got.Input().Value() != "/attach nope" || out.Notice != "no such file" || out.Send != nil {
		t.Errorf("refused: input %q, notice %q", got.Input().Value(), out.Notice)
	}
}

// Files asked for an edit that has ended are dropped.
func TestAttachedForAnEndedEditIsDropped(t *testing.T) {
	m := newComposer(t)
	got, out := m.Attached(AttachedMsg{files: []session.File{file("a.txt")}, edit: "gone"})
	if got.Pending().Len() != 0 || out.Noted || out.Send != nil {
		t.Errorf("%d files, %+v", got.Pending().Len(), out)
	}
}

// Too many files are refused at once, with no command: decorating it
// gives none either (a decorated nil command would crash when run).
func TestTooManyAttachmentsRefusedAtOnce(t *testing.T) {
	m := newComposer(t)
	sources := make([]Source, pending.Max+1)
	for i := range sources {
		sources[i] = Source{Name: "x", Data: []byte("x")}
	}
	got, out := m.Attach(sources, "")
	if out.Cmd != nil || got.Pending().Preparing() || !strings.Contains(out.Notice, "at most") {
		t.Errorf("%+v, preparing %v", out, got.Pending().Preparing())
	}
	if d := Decorate(out, func(msg AttachedMsg) AttachedMsg { return msg }); d.Cmd != nil {
		t.Error("a decorated refusal has a command")
	}
}

// An edit puts the draft and its files aside, and leaving it brings them
// back; an edit sent ends it the same way.
func TestEditPutsTheDraftAside(t *testing.T) {
	m := newComposer(t)
	m = m.SetInput(m.Input().SetValue("my draft")).SetPending(m.Pending().Set([]session.File{file("draft.txt")}))
	e := session.Entry{ID: "u1", Kind: session.KindUser, Text: "the prompt"}
	editing, out := m.Edit(e, 1, nil)
	if out.Cmd != nil || !editing.Editing().Active() || editing.Input().Value() != "the prompt" || editing.Pending().Len() != 0 {
		t.Fatalf("edit: input %q, %d files", editing.Input().Value(), editing.Pending().Len())
	}
	if p := editing.Prompt("the new prompt"); p.Edit != "u1" {
		t.Errorf("prompt of an edit %+v", p)
	}
	left := editing.LeaveEdit()
	if left.Editing().Active() || left.Input().Value() != "my draft" || left.Pending().Len() != 1 {
		t.Errorf("left: input %q, %d files", left.Input().Value(), left.Pending().Len())
	}
	sent, _ := editing.Sent(editing.Prompt("the new prompt"), Started, "s1", nil)
	if sent.Editing().Active() || sent.Input().Value() != "my draft" {
		t.Errorf("sent: input %q", sent.Input().Value())
	}
}

// Typing the prompt again attaches its mentions again.
func TestUpdateRetypes(t *testing.T) {
	m := newComposer(t)
	m = m.SetInput(m.Input().SetValue("see @a.txt")).SetPending(m.Pending().Mention("see @a.txt"))
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("!")})
	if m.Pending().Mentioned("see @a.txt") {
		t.Error("the mention is still taken as attached after the prompt changed")
	}
}

// The composer's own keys, as it stands: backspace on an empty input takes
// the last file back, ↑ on an empty input brings the last queued prompt
// back; on a typed input both are the input's.
func TestOwnKeys(t *testing.T) {
	th, err := theme.New("dark", true)
	if err != nil {
		t.Fatal(err)
	}
	up := key.NewBinding(key.WithKeys("up"))
	m := New(th, KeyMap{KeyMap: input.KeyMap{Prev: up}, Unqueue: up, PasteImage: key.NewBinding(key.WithKeys("ctrl+v"))}, nil, nil).SetSize(80, 24, input.State{})
	back, upKey := tea.KeyMsg{Type: tea.KeyBackspace}, tea.KeyMsg{Type: tea.KeyUp}
	if m.Owns(back) {
		t.Error("backspace with no file waiting is the composer's")
	}
	m = m.SetPending(m.Pending().Set([]session.File{file("a.txt"), file("b.txt")}))
	m, _ = m.Enqueue(m.Prompt("later"), "s1", nil)
	m = m.SetPending(m.Pending().Set([]session.File{file("a.txt"), file("b.txt")}))
	if !m.Owns(back) || !m.Owns(upKey) || !m.Owns(tea.KeyMsg{Type: tea.KeyCtrlV}) || m.Owns(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("x")}) {
		t.Fatal("the composer's own keys are not its")
	}
	got, out := m.Key(back, false, nil)
	if got.Pending().Len() != 1 || out.Notice != "removed b.txt" {
		t.Errorf("backspace: %d files, notice %q", got.Pending().Len(), out.Notice)
	}
	got, out = m.Key(upKey, true, nil)
	if got.Input().Value() != "later" || got.Queue().Len() != 0 || !strings.Contains(out.Notice, "enter queues it again") || out.Cmd == nil {
		t.Errorf("↑: input %q, queue %d, notice %q", got.Input().Value(), got.Queue().Len(), out.Notice)
	}
	typed := m.SetInput(m.Input().SetValue("draft"))
	if typed.Owns(back) {
		t.Error("backspace on a typed input is the composer's own")
	}
}
