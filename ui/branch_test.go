package ui

import (
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"

	"muse/api"
	"muse/session"
	"muse/ui/sessions"
)

// textReply is a finished reply holding text, with no stop reason, so the
// status bar says "stop end_turn" only once a new reply ends.
func textReply(text string) session.Entry {
	return session.Entry{Kind: session.KindAssistant, Message: &api.Message{Model: "demo-chat", Content: []api.ContentBlock{{Type: api.BlockText, Text: text}}}}
}

// seedTree writes a session through build and returns it as loaded.
func seedTree(t *testing.T, h *harness, build func(w *session.Writer)) *session.Session {
	t.Helper()
	w := session.NewWriter(h.store, session.Params{Model: "demo-chat", MaxTokens: 1024})
	w.SetTitle("Branches")
	build(w)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	sess, err := h.store.Load(w.ID())
	if err != nil {
		t.Fatal(err)
	}
	return sess
}

func mustAppend(t *testing.T, w *session.Writer, es ...session.Entry) []string {
	t.Helper()
	var ids []string
	for _, e := range es {
		got, err := w.Append(e)
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, got.ID)
	}
	return ids
}

// twoQuestions seeds a session of two exchanges on one branch.
func twoQuestions(t *testing.T, h *harness) *session.Session {
	return seedTree(t, h, func(w *session.Writer) {
		mustAppend(t, w, session.Entry{Kind: session.KindUser, Text: "first question"}, textReply("first answer"),
			session.Entry{Kind: session.KindUser, Text: "second question"}, textReply("second answer"))
	})
}

// threeReplies seeds a prompt answered three times, the second answer active.
func threeReplies(t *testing.T, h *harness) *session.Session {
	return seedTree(t, h, func(w *session.Writer) {
		ids := mustAppend(t, w, session.Entry{Kind: session.KindUser, Text: "tell me a joke"}, textReply("joke one"))
		for _, text := range []string{"joke two", "joke three"} {
			if _, err := w.AppendAt(textReply(text), ids[0]); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.SetHead(w.Snapshot().All[2].ID); err != nil {
			t.Fatal(err)
		}
	})
}

func runes(s string) tea.KeyMsg { return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)} }

// press sends keys to m directly, running no command.
func press(m Model, keys ...tea.KeyMsg) Model {
	for _, k := range keys {
		m, _ = updateModel(m, k)
	}
	return m
}

// run sends msg to m, then the message of each command it returns, in
// turn: for the commands of this file, which finish at once.
func run(t *testing.T, m Model, msg tea.Msg) Model {
	t.Helper()
	m, cmd := updateModel(m, msg)
	for cmd != nil {
		out := cmd()
		if batch, ok := out.(tea.BatchMsg); ok {
			var next []tea.Cmd
			for _, c := range batch {
				if c == nil {
					continue
				}
				var nc tea.Cmd
				m, nc = updateModel(m, c())
				next = append(next, nc)
			}
			cmd = tea.Batch(next...)
			continue
		}
		if out == nil {
			break
		}
		m, cmd = updateModel(m, out)
	}
	return m
}

// sized opens sess on a screen of w×h.
func sized(t *testing.T, h *harness, sess *session.Session, w, ht int) Model {
	t.Helper()
	m, _ := updateModel(h.model(t, sess), tea.WindowSizeMsg{Width: w, Height: ht})
	return m
}

var (
	selectKey = tea.KeyMsg{Type: tea.KeyCtrlUp}
	upKey     = tea.KeyMsg{Type: tea.KeyUp}
	escKey    = tea.KeyMsg{Type: tea.KeyEsc}
	enterKey  = tea.KeyMsg{Type: tea.KeyEnter}
)

// e on a prompt puts it in the input, marked; esc gives the draft back.
func TestEditKeepsTheDraft(t *testing.T) {
	h := newHarness(t, 0)
	m := sized(t, h, twoQuestions(t, h), 80, 24)
	m.comp = m.comp.SetInput(m.comp.Input().SetValue("my half-written draft"))
	m = press(m, selectKey, upKey, upKey, upKey, runes("e"))
	if !m.comp.Editing().Active() || m.sel.Active() {
		t.Fatalf("e did not start editing: edit %+v, selecting %v", m.comp.Editing(), m.sel.Active())
	}
	if got := m.comp.Input().Value(); got != "first question" {
		t.Errorf("input %q, want the prompt", got)
	}
	view := m.View()
	if !strings.Contains(view, "editing message 1 · enter sends it as a new branch · esc cancels") {
		t.Errorf("no editing line:\n%s", view)
	}
	if n := strings.Count(view, "\n") + 1; n != 24 {
		t.Errorf("view has %d lines, want 24", n)
	}
	m = press(m, escKey)
	if m.comp.Editing().Active() || m.comp.Input().Value() != "my half-written draft" || strings.Contains(m.View(), "editing message") {
		t.Errorf("esc: editing %v, input %q", m.comp.Editing().Active(), m.comp.Input().Value())
	}
	// ctrl+c leaves editing too, before it clears anything.
	m = press(m, selectKey, upKey, runes("e"))
	if m.comp.Editing().Num() != 3 || m.comp.Input().Value() != "second question" {
		t.Fatalf("editing %+v, input %q", m.comp.Editing(), m.comp.Input().Value())
	}
	m = press(m, tea.KeyMsg{Type: tea.KeyCtrlC})
	if m.comp.Editing().Active() || m.comp.Input().Value() != "my half-written draft" || m.quitting.Active() {
		t.Errorf("ctrl+c: editing %v, input %q, quitting %v", m.comp.Editing().Active(), m.comp.Input().Value(), m.quitting.Active())
	}
	// e on a reply edits nothing.
	m = press(m, selectKey, runes("e"))
	if m.comp.Editing().Active() || !strings.Contains(m.status.Notice(), "only a prompt") {
		t.Errorf("e on a reply: editing %v, notice %q", m.comp.Editing().Active(), m.status.Notice())
	}
}

// Editing the first of two prompts sends a new branch: the second exchange
// leaves the view and stays in the session; [ brings it back, and the
// session reopens on the branch active when it closed.
func TestEditPromptStartsABranch(t *testing.T) {
	h := newHarness(t, 0)
	sess := twoQuestions(t, h)
	tm := start(t, h.model(t, sess), 80, 40)
	for _, k := range []tea.KeyMsg{selectKey, upKey, upKey, upKey, runes("e")} {
		tm.Send(k)
	}
	waitFor(t, tm, "editing message 1")
	tm.Type(", edited")
	tm.Send(enterKey)
	waitFor(t, tm, "stop end_turn")
	m := quit(t, tm)

	view := m.View()
	for _, want := range []string{"first question, edited", "you ‹ 2/2 ›", "2 branches"} {
		if !strings.Contains(view, want) {
			t.Errorf("view lacks %q:\n%s", want, view)
		}
	}
	for _, gone := range []string{"second question", "first answer", "editing message"} {
		if strings.Contains(view, gone) {
			t.Errorf("view still shows %q:\n%s", gone, view)
		}
	}
	if m.comp.Editing().Active() || m.comp.Input().Value() != "" {
		t.Errorf("after sending: editing %v, input %q", m.comp.Editing().Active(), m.comp.Input().Value())
	}
	saved, err := h.store.Load(sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(saved.All) != 6 || len(saved.Entries) != 2 || saved.Entries[0].Text != "first question, edited" || saved.Entries[0].Parent != "" {
		t.Fatalf("saved: %d entries, branch %+v", len(saved.All), saved.Entries)
	}
	if ids, _ := saved.Siblings(saved.Entries[0].ID); len(ids) != 2 || ids[0] != sess.Entries[0].ID {
		t.Errorf("siblings of the edited prompt: %v", ids)
	}
}

// [ and ] switch to the sibling's latest path, keeping the selection on
// it; the branch is saved, and -c/-r reopen it.
func TestSwitchSiblingsAndResume(t *testing.T) {
	h := newHarness(t, 0)
	sess := threeReplies(t, h)
	m := sized(t, h, sess, 80, 24)
	if v := m.View(); !strings.Contains(v, "joke two") || !strings.Contains(v, "assistant · demo-chat ‹ 2/3 ›") || !strings.Contains(v, "3 branches") {
		t.Fatalf("opened view:\n%s", v)
	}
	m = press(m, selectKey)
	if v := m.View(); !strings.Contains(v, "selected: reply, 2 of 2 · branch 2/3") {
		t.Errorf("selection status:\n%s", v)
	}
	m = run(t, m, runes("]"))
	view := m.View()
	if !strings.Contains(view, "joke three") || strings.Contains(view, "joke two") || !strings.Contains(view, "‹ 3/3 ›") {
		t.Errorf("after ]:\n%s", view)
	}
	if e, ok := m.sel.Entry(m.conv.Entries()); !ok || e.Message.Text() != "joke three" || !strings.Contains(view, "switched to branch 3/3") {
		t.Errorf("selected %+v, ok %v:\n%s", e, ok, view)
	}
	m = press(m, runes("]"))
	if !strings.Contains(m.status.Notice(), "no later branch") {
		t.Errorf("] on the last: %q", m.status.Notice())
	}
	m = run(t, run(t, m, runes("[")), runes("["))
	if e, _ := m.sel.Entry(m.conv.Entries()); e.Message.Text() != "joke one" || !strings.Contains(m.View(), "‹ 1/3 ›") {
		t.Errorf("after [ [: %+v", e)
	}
	// Quit (closing the session), reopen: the branch active last.
	_, quitCmd := press(m, escKey).quit()
	if msg, ok := quitCmd().(sessions.ClosedMsg); !ok || msg.Err != nil {
		t.Fatalf("quitting: %#v", msg)
	}
	saved, err := h.store.Load(sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	again := sized(t, h, saved, 80, 24)
	if v := again.View(); !strings.Contains(v, "joke one") || strings.Contains(v, "joke two") || !strings.Contains(v, "‹ 1/3 ›") {
		t.Errorf("reopened:\n%s", v)
	}
}

// A switch follows the latest path through the sibling, not only the
// sibling: the exchanges after it come back.
func TestSwitchFollowsTheLatestPath(t *testing.T) {
	h := newHarness(t, 0)
	sess := seedTree(t, h, func(w *session.Writer) {
		mustAppend(t, w, session.Entry{Kind: session.KindUser, Text: "first question"}, textReply("first answer"),
			session.Entry{Kind: session.KindUser, Text: "second question"}, textReply("second answer"))
		if _, err := w.AppendAt(session.Entry{Kind: session.KindUser, Text: "first question, edited"}, ""); err != nil {
			t.Fatal(err)
		}
		mustAppend(t, w, textReply("edited answer"))
	})
	m := sized(t, h, sess, 80, 30)
	m = run(t, press(m, selectKey, upKey), runes("["))
	view := m.View()
	for _, want := range []string{"▌ you ‹ 1/2 ›", "first answer", "second question", "second answer"} {
		if !strings.Contains(view, want) {
			t.Errorf("view lacks %q:\n%s", want, view)
		}
	}
	if m.sel.Index() != 0 || !m.sel.Active() {
		t.Errorf("selection %+v, want the first prompt", m.sel)
	}
}

// r on a reply writes it again beside the old one: the view drops it and
// what followed, and shows the new reply.
func TestRegenerateReply(t *testing.T) {
	h := newHarness(t, 0)
	sess := twoQuestions(t, h)
	tm := start(t, h.model(t, sess), 80, 40)
	for _, k := range []tea.KeyMsg{selectKey, upKey, upKey, runes("r")} {
		tm.Send(k)
	}
	waitFor(t, tm, "stop end_turn")
	m := quit(t, tm)
	es := m.conv.Entries()
	if len(es) != 2 || es[0].Text != "first question" || es[1].Kind != session.KindAssistant || es[1].ID == sess.Entries[1].ID {
		t.Fatalf("view entries: %+v", es)
	}
	view := m.View()
	if strings.Contains(view, "second question") || strings.Contains(view, "first answer") || !strings.Contains(view, "assistant · demo-chat ‹ 2/2 ›") {
		t.Errorf("view:\n%s", view)
	}
	saved, err := h.store.Load(sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(saved.All) != 5 || saved.Head != es[1].ID || saved.All[4].Parent != sess.Entries[0].ID {
		t.Errorf("saved: head %s, %+v", saved.Head, saved.All)
	}
	// r on a prompt regenerates nothing.
	m = press(m, selectKey, upKey, runes("r"))
	if m.turns.Turn() != nil || !strings.Contains(m.status.Notice(), "only a reply") {
		t.Errorf("r on a prompt: notice %q", m.status.Notice())
	}
}

// f forks the session at the message selected and opens the fork.
func TestForkAtSelected(t *testing.T) {
	h := newHarness(t, 0)
	sess := twoQuestions(t, h)
	m := sized(t, h, sess, 80, 24)
	m = run(t, press(m, selectKey, upKey, upKey), runes("f"))
	t.Cleanup(func() { m.writer.Close() })
	id := m.SessionID()
	if id == sess.ID || m.status.Notice() != "forked into "+id {
		t.Fatalf("session %s, notice %q", id, m.status.Notice())
	}
	es := m.conv.Entries()
	if len(es) != 2 || es[1].Message.Text() != "first answer" || m.sel.Active() {
		t.Errorf("fork shows %+v", es)
	}
	fork, err := h.store.Load(id)
	if err != nil || fork.ForkedFrom == nil || fork.ForkedFrom.ID != sess.ID || len(fork.Entries) != 2 {
		t.Fatalf("fork %+v: %v", fork, err)
	}
	// The old session was let go of: it can be opened again.
	unlock, err := h.store.Lock(sess.ID)
	if err != nil {
		t.Fatalf("the old session is still locked: %v", err)
	}
	unlock()
	// A notice is not on the branch: nothing to fork there.
	m = run(t, m, runes("/info"))
	m = run(t, m, enterKey)
	m = press(m, selectKey, runes("f"))
	if m.SessionID() != id || !strings.Contains(m.status.Notice(), "not saved in the session") {
		t.Errorf("f on a notice: %s, %q", m.SessionID(), m.status.Notice())
	}
}

// The selection mode's keys are in its help line and in /help.
func TestBranchKeysInHelp(t *testing.T) {
	h := newHarness(t, 0)
	m := press(sized(t, h, twoQuestions(t, h), 100, 30), selectKey)
	lines := strings.Split(m.View(), "\n")
	help := lines[len(lines)-1]
	for _, want := range []string{"e edit", "r retry", "[ ] branch", "f fork", "esc back"} {
		if !strings.Contains(help, want) {
			t.Errorf("help line lacks %q: %q", want, help)
		}
	}
	text := m.keys.helpText()
	for _, want := range []string{"  e                  edit the prompt", "  r                  regenerate", "  [ ]                switch to the previous or next branch", "  f                  fork"} {
		if !strings.Contains(text, want) {
			t.Errorf("/help lacks %q:\n%s", want, text)
		}
	}
}

// Editing the prompt before an image turn leaves the image on the old
// branch; r on an image turn draws it again, beside it.
func TestImageTurnsBranch(t *testing.T) {
	h := newHarness(t, 0)
	sess := seedTree(t, h, func(w *session.Writer) {
		mustAppend(t, w, session.Entry{Kind: session.KindUser, Text: "describe a fox"}, textReply("a red fox"),
			session.Entry{Kind: session.KindImage, ImagePrompt: "a red fox", ImageParams: &session.ImageParams{Model: "demo-image", Size: "16*16"},
				Images: []session.Image{{Index: 0, Error: "gone"}}})
	})
	tm := start(t, h.model(t, sess), 80, 40)
	for _, k := range []tea.KeyMsg{selectKey, runes("r")} {
		tm.Send(k)
	}
	// The status bar, once the image turn ended (the frame that shows it
	// shows the badge too: a second wait would not see it again).
	waitFor(t, tm, "2 branches")
	for _, k := range []tea.KeyMsg{selectKey, upKey, upKey, runes("e")} {
		tm.Send(k)
	}
	waitFor(t, tm, "editing message 1")
	tm.Type(" in winter")
	tm.Send(enterKey)
	waitFor(t, tm, "stop end_turn")
	m := quit(t, tm)
	if v := m.View(); strings.Contains(v, "image ·") || !strings.Contains(v, "describe a fox in winter") || !strings.Contains(v, "3 branches") {
		t.Errorf("view after the edit:\n%s", v)
	}
	saved, err := h.store.Load(sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	var imgs []session.Entry
	for _, e := range saved.All {
		if e.Kind == session.KindImage {
			imgs = append(imgs, e)
		}
	}
	if len(imgs) != 2 || imgs[0].Parent != imgs[1].Parent || imgs[1].ImageParams == nil || imgs[1].ImageParams.Size != "16*16" ||
		imgs[1].Status != session.StatusComplete || len(imgs[1].Images) != 1 || imgs[1].Images[0].Path == "" {
		t.Errorf("image turns: %+v", imgs)
	}
	if !slices.ContainsFunc(saved.All, func(e session.Entry) bool { return e.Text == "describe a fox" }) || len(saved.Entries) != 2 {
		t.Errorf("saved branch %+v", saved.Entries)
	}
}

// Goldens: a reply with siblings, and a prompt being edited.
func TestBranchGoldens(t *testing.T) {
	t.Run("siblings", func(t *testing.T) {
		h := newHarness(t, 0)
		m := sized(t, h, threeReplies(t, h), 80, 16)
		view := m.View()
		if !strings.Contains(view, "assistant · demo-chat ‹ 2/3 ›") {
			t.Errorf("no sibling badge:\n%s", view)
		}
		golden.RequireEqual(t, []byte(view))
	})
	t.Run("editing", func(t *testing.T) {
		h := newHarness(t, 0)
		m := sized(t, h, twoQuestions(t, h), 80, 20)
		m = press(m, selectKey, upKey, runes("e"))
		view := m.View()
		if !strings.Contains(view, "editing message 3") || !strings.Contains(view, "› second question") {
			t.Errorf("not editing:\n%s", view)
		}
		for i, line := range strings.Split(view, "\n") {
			if w := visibleWidth(line); w > 80 {
				t.Errorf("line %d is %d wide", i, w)
			}
		}
		golden.RequireEqual(t, []byte(view))
	})
}

// While a prompt is edited, actions that would take it out of view wait;
// the prompt reaches the input without what could control the terminal.
func TestEditingHoldsTheBranch(t *testing.T) {
	h := newHarness(t, 0)
	sess := seedTree(t, h, func(w *session.Writer) {
		ids := mustAppend(t, w, session.Entry{Kind: session.KindUser, Text: "hi \x1b]0;evil\x07there\x1b[2J"}, textReply("one"))
		if _, err := w.AppendAt(textReply("two"), ids[0]); err != nil {
			t.Fatal(err)
		}
	})
	m := sized(t, h, sess, 80, 24)
	m = press(m, selectKey, upKey, runes("e"))
	if got := m.comp.Input().Value(); got != "hi there" {
		t.Errorf("input %q", got)
	}
	for _, k := range []string{"[", "r", "f"} {
		m.status = m.status.Note("")
		next, cmd := updateModel(press(m, selectKey), runes(k))
		if cmd != nil || !strings.Contains(next.status.Notice(), "a prompt is being edited") {
			t.Errorf("%s while editing: notice %q, command %v", k, next.status.Notice(), cmd != nil)
		}
	}
}
