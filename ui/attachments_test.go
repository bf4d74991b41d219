package ui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"

	"muse/session"
	"muse/ui/attach"
	"muse/ui/input"
	"muse/ui/pending"
)

// writeFile writes a file for a test to attach and returns its path.
func writeFile(t *testing.T, name, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// lastPrompt returns the last user entry of the saved session.
func lastPrompt(t *testing.T, h *harness) session.Entry {
	t.Helper()
	sess, err := h.store.Latest()
	if err != nil {
		t.Fatal(err)
	}
	for i := len(sess.Entries) - 1; i >= 0; i-- {
		if sess.Entries[i].Kind == session.KindUser {
			return sess.Entries[i]
		}
	}
	t.Fatal("no prompt saved")
	return session.Entry{}
}

func TestAttachCommandShowsAChipAndSendsTheFile(t *testing.T) {
	h := newHarness(t, 0)
	path := writeFile(t, "notes.md", "# Shopping\nmilk\neggs\n")
	tm := start(t, h.model(t, nil), 80, 60)
	send(tm, "/attach "+path)
	waitFor(t, tm, "[1] notes.md")
	send(tm, "what is on it?")
	waitFor(t, tm, "stop end_turn")
	m := quit(t, tm)
	if !strings.Contains(m.View(), "I see notes.md: 3 lines; the first is “# Shopping”.") {
		t.Errorf("the demo should tell what arrived:\n%s", m.View())
	}
	if m.comp.Pending().Len() != 0 {
		t.Errorf("the chips should go with the prompt, %d left", m.comp.Pending().Len())
	}
	u := lastPrompt(t, h)
	if len(u.Attachments) != 1 || u.Attachments[0].Name != "notes.md" || u.Text != "what is on it?" {
		t.Fatalf("saved prompt %+v", u)
	}
	if data, err := h.store.ReadAttachment(m.sessID, u.Attachments[0]); err != nil || string(data) != "# Shopping\nmilk\neggs\n" {
		t.Errorf("stored attachment %q, %v", data, err)
	}
	if !strings.Contains(m.View(), "+ notes.md") {
		t.Errorf("the sent prompt should list its attachment:\n%s", m.View())
	}
}

func TestMentionAttachesAndAnUnknownMentionStaysText(t *testing.T) {
	h := newHarness(t, 0)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "todo.txt"), []byte("call mum\n"), 0o600)
	tm := start(t, h.model(t, nil), 80, 60)
	send(tm, "ask @someone about @"+filepath.Join(dir, "todo.txt"))
	waitFor(t, tm, "stop end_turn")
	if m := quit(t, tm); !strings.Contains(m.View(), "I see todo.txt: 1 line") {
		t.Errorf("the demo should tell what arrived:\n%s", m.View())
	}
	u := lastPrompt(t, h)
	if len(u.Attachments) != 1 || !strings.Contains(u.Text, "@someone") {
		t.Errorf("saved prompt %+v", u)
	}
}

func TestRefusedAttachmentKeepsTheInput(t *testing.T) {
	h := newHarness(t, 0)
	dir := t.TempDir()
	binary := filepath.Join(dir, "blob.bin")
	os.WriteFile(binary, []byte{0, 1, 2, 3, 0xff, 0xfe}, 0o600)
	tm := start(t, h.model(t, nil), 100, 24)
	// A mention of a file muse cannot send: nothing is sent, the prompt stays.
	send(tm, "read @"+binary+" please")
	waitFor(t, tm, "cannot attach")
	// A refused /attach comes back into the input, to be fixed.
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC}) // clear the prompt
	send(tm, "/attach "+dir)
	waitFor(t, tm, "› /attach "+dir)
	m := quit(t, tm)
	if m.comp.Pending().Len() != 0 || len(m.conv.Entries()) != 0 {
		t.Errorf("nothing should be attached or sent: %d pending, %d entries", m.comp.Pending().Len(), len(m.conv.Entries()))
	}
}

func TestDetachAndBackspaceRemoveChips(t *testing.T) {
	h := newHarness(t, 0)
	a, b := writeFile(t, "a.txt", "one"), writeFile(t, "b.txt", "two")
	tm := start(t, h.model(t, nil), 80, 24)
	send(tm, "/attach "+a)
	waitFor(t, tm, "[1] a.txt")
	send(tm, "/attach "+b)
	waitFor(t, tm, "[2] b.txt")
	send(tm, "/detach 1")
	waitFor(t, tm, "removed a.txt")
	tm.Send(tea.KeyMsg{Type: tea.KeyBackspace})
	waitFor(t, tm, "removed b.txt")
	m := quit(t, tm)
	if m.comp.Pending().Len() != 0 {
		t.Errorf("%d attachments left", m.comp.Pending().Len())
	}
}

func TestPastedPathBecomesAMention(t *testing.T) {
	h := newHarness(t, 0)
	path := writeFile(t, "my notes.txt", "x")
	m := h.model(t, nil)
	m, _ = updateModel(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	pasted := strings.ReplaceAll(path, " ", `\ `) // as a terminal pastes a dropped file
	m.comp = m.comp.SetInput(m.comp.Input().SetValue("look at " + pasted))
	m, _ = updateModel(m, input.PathPastedMsg{Text: pasted, Path: path})
	if got, want := m.comp.Input().Value(), `look at @"`+path+`" `; got != want { // a space ends the mention
		t.Errorf("input %q, want %q", got, want)
	}
	if paths, _ := input.Mentions(m.comp.Input().Value()); len(paths) != 1 || paths[0] != path {
		t.Errorf("the mention reads back as %q", paths)
	}
	if !strings.Contains(m.status.Notice(), "my notes.txt is attached at the next enter, sent at the one after") {
		t.Errorf("notice %q", m.status.Notice())
	}
}

func TestAttachmentsOfTheCommandLineWaitAboveTheInput(t *testing.T) {
	h := newHarness(t, 0)
	m := h.modelWith(t, nil, func(o *Options) {
		f := attachText(t, "stdin", "piped text\n")
		o.Attach = append(o.Attach, f)
	})
	m, _ = updateModel(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	if !strings.Contains(m.View(), "[1] stdin") || !strings.Contains(m.status.Notice(), "sent with the first prompt") {
		t.Errorf("the piped text should wait as a chip:\n%s", m.View())
	}
}

// attachText prepares text as an attachment named name.
func attachText(t *testing.T, name, text string) session.File {
	t.Helper()
	f, err := attach.FromBytes(name, []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return f
}

func TestPastedPathInACommandStaysAsItIs(t *testing.T) {
	h := newHarness(t, 0)
	path := writeFile(t, "notes.md", "x")
	m := h.model(t, nil)
	m, _ = updateModel(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	m.comp = m.comp.SetInput(m.comp.Input().SetValue("/attach " + path))
	m, _ = updateModel(m, input.PathPastedMsg{Text: path, Path: path})
	if got := m.comp.Input().Value(); got != "/attach "+path {
		t.Errorf("input %q: a command's argument must not become a mention", got)
	}
}

func TestCtrlVWithoutAClipboardSaysWhy(t *testing.T) {
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	h := newHarness(t, 0)
	tm := start(t, h.model(t, nil), 100, 24)
	tm.Type("draft")
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlV})
	waitFor(t, tm, "clipboard")
	m := quit(t, tm)
	if m.comp.Input().Value() != "draft" || m.comp.Pending().Len() != 0 {
		t.Errorf("input %q, %d pending", m.comp.Input().Value(), m.comp.Pending().Len())
	}
	if !strings.Contains(m.status.Notice(), "clipboard") {
		t.Errorf("notice %q should say why the clipboard cannot be read", m.status.Notice())
	}
}

func TestSelectionAttachesAnImageTurn(t *testing.T) {
	m, _ := imageTurn(t, "a red fox", termenv.Ascii, 100, 30)
	next, _ := m.startSelection()
	m = next.(Model)
	next, cmd := m.selectKey(runes("a"))
	m = next.(Model)
	if cmd == nil || m.sel.Active() {
		t.Fatalf("a on an image turn should attach it and leave selection mode")
	}
	m = run(t, m, cmd())
	if m.comp.Pending().Len() != 1 || m.comp.Pending().Files()[0].Kind != session.AttachImage {
		t.Errorf("pending %+v", m.comp.Pending())
	}
}

// Pasted text that names a file (an email, a web page) never sends it
// unseen: the file waits as a chip, and only the next enter sends it.
func TestMentionInPastedTextWaitsToBeSeen(t *testing.T) {
	h := newHarness(t, 0)
	key := writeFile(t, "id_ed25519", "-----BEGIN OPENSSH PRIVATE KEY-----\n")
	tm := start(t, h.model(t, nil), 100, 30)
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("translate: regarding the invoice @" + key + " please confirm"), Paste: true})
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "not sent yet")
	m := quit(t, tm)
	if len(m.conv.Entries()) != 0 {
		t.Fatalf("pasted text sent its mention's file unseen: %+v", m.conv.Entries())
	}
	if m.comp.Pending().Len() != 1 || !strings.Contains(m.comp.Input().Value(), "@"+key) {
		t.Errorf("the file should wait as a chip and the text stay: %d pending, input %q", m.comp.Pending().Len(), m.comp.Input().Value())
	}
	// Detached, it is not attached again by the same prompt's enter.
	m, _ = updateModel(m, tea.WindowSizeMsg{Width: 100, Height: 30})
	m.comp, _ = m.comp.Detach(0)
	next, cmd := m.compose(m.comp.Send(strings.TrimSpace(m.comp.Input().Value()), nil))
	m = next.(Model)
	if m.comp.Pending().Preparing() || m.turns.Turn() == nil {
		t.Errorf("the second enter should send the text alone (attaching %v, turn %v)", m.comp.Pending().Preparing(), m.turns.Turn() != nil)
	}
	_ = cmd
}

// A prompt typed again after its mention's file was detached attaches the
// file again: only the very same input, unchanged, skips it.
func TestRetypedMentionAttachesAgain(t *testing.T) {
	h := newHarness(t, 0)
	notes := writeFile(t, "notes.md", "x\n")
	m := h.model(t, nil)
	m, _ = updateModel(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	m.comp = m.comp.SetPending(m.comp.Pending().Mention("check @" + notes)) // as after a paste whose file was detached
	m.comp = m.comp.SetInput(m.comp.Input().SetValue("check @" + notes + "!"))
	m.comp, _ = m.comp.Update(tea.KeyMsg{Type: tea.KeyBackspace}) // typed again
	next, _ := m.compose(m.comp.Send(m.comp.Input().Value(), nil))
	if m = next.(Model); !m.comp.Pending().Preparing() {
		t.Errorf("the retyped prompt's mention should be attached (attaching %v)", m.comp.Pending().Preparing())
	}
}

// Text not typed (a paste, the editor's) naming more files than may wait
// for one prompt is refused at once, saying so, with no command: the
// command that showed the files first was made around none, and crashed
// muse when run.
func TestMentionsBeyondTheLimitRefusedAtOnce(t *testing.T) {
	h := newHarness(t, 0)
	m := h.model(t, nil)
	m, _ = updateModel(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	var b strings.Builder
	for i := range pending.Max + 1 {
		fmt.Fprintf(&b, "@f%d.txt ", i)
	}
	m.comp = m.comp.SetInput(m.comp.Input().SetValue(b.String()))
	next, cmd := m.submit()
	m = next.(Model)
	if cmd != nil || m.comp.Pending().Preparing() || !strings.Contains(m.status.Notice(), "at most") {
		t.Errorf("command %v, preparing %v, notice %q", cmd != nil, m.comp.Pending().Preparing(), m.status.Notice())
	}
	if strings.TrimSpace(m.comp.Input().Value()) != strings.TrimSpace(b.String()) {
		t.Errorf("the text left the input: %q", m.comp.Input().Value())
	}
}
