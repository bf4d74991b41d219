package ui

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"

	"muse/session"
)

// writeTestJournal writes a session journal by hand, with fixed times, so the
// picker's dates are the same on every run.
func writeTestJournal(t *testing.T, dir, id, title, model string, prompts int, at time.Time) {
	t.Helper()
	var b strings.Builder
	ts := at.UTC().Format(time.RFC3339)
	fmt.Fprintf(&b, `{"v":2,"type":"header","time":%q,"id":%q,"created":%q,"params":{"model":%q,"max_tokens":1024}}`+"\n", ts, id, ts, model)
	jt, _ := json.Marshal(title)
	fmt.Fprintf(&b, `{"type":"title","time":%q,"title":%s}`+"\n", ts, jt)
	for i := 0; i < prompts; i++ {
		fmt.Fprintf(&b, `{"type":"entry","time":%q,"entry":{"id":"e%d","parent":"e%d","kind":"user","time":%q,"text":"question %d about %s"}}`+"\n", ts, 2*i+1, 2*i, ts, i, title)
		fmt.Fprintf(&b, `{"type":"entry","time":%q,"entry":{"id":"e%d","parent":"e%d","kind":"assistant","time":%q,"message":{"id":"m","type":"message","role":"assistant","model":%q,"content":[{"type":"text","text":"answer %d"}],"stop_reason":"end_turn","usage":{"input_tokens":3,"output_tokens":2,"cache_creation_input_tokens":0,"cache_read_input_tokens":0}}}}`+"\n", ts, 2*i+2, 2*i+1, ts, model, i)
	}
	if err := os.WriteFile(filepath.Join(dir, id+".jsonl"), []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestPickerGolden(t *testing.T) {

	h := newHarness(t, 0)
	dir := h.store.Dir()
	base := time.Date(2026, 11, 20, 9, 30, 0, 0, time.UTC)
	writeTestJournal(t, dir, "20261120-093000-aaaaaa", "Go channels explained", "demo-chat", 3, base)
	writeTestJournal(t, dir, "20261121-100000-bbbbbb", "Tax guide outline", "demo-chat", 1, base.Add(24*time.Hour))
	writeTestJournal(t, dir, "20261122-080000-cccccc", "Haiku about \x1b]0;evil\x07 autumn", "other-model", 2, base.Add(47*time.Hour))
	damaged := filepath.Join(dir, "20261119-000000-dddddd.jsonl")
	os.WriteFile(damaged, []byte("not json at all\n"), 0o600)
	os.Chtimes(damaged, base.Add(-time.Hour), base.Add(-time.Hour))

	tm := start(t, h.model(t, nil), 80, 24)
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlS})
	waitFor(t, tm, "Tax guide outline")
	m := quit(t, tm)
	view := m.View()
	if strings.Contains(view, "\x1b]0;") {
		t.Errorf("a title's escape reached the screen")
	}
	for _, want := range []string{"Go channels explained", "6 messages", "other-model", "damaged"} {
		if !strings.Contains(view, want) {
			t.Errorf("picker lacks %q:\n%s", want, view)
		}
	}
	golden.RequireEqual(t, []byte(view))
}

func TestPickerResumesRenamesDeletes(t *testing.T) {

	h := newHarness(t, 0)
	dir := h.store.Dir()
	base := time.Date(2026, 11, 20, 9, 30, 0, 0, time.UTC)
	writeTestJournal(t, dir, "20261120-093000-aaaaaa", "First", "demo-chat", 1, base)
	writeTestJournal(t, dir, "20261121-093000-bbbbbb", "Second", "demo-chat", 2, base.Add(time.Hour))

	tm := start(t, h.model(t, nil), 80, 24)
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlS})
	waitFor(t, tm, "Second")
	// Rename the newest (selected) one.
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("r")})
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlU}) // textinput: delete to the start
	tm.Type("Renamed")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "Renamed")
	// Delete the older one after a confirmation.
	tm.Send(tea.KeyMsg{Type: tea.KeyDown})
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("d")})
	waitFor(t, tm, "y deletes")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("y")})
	waitFor(t, tm, "deleted")
	// Resume the remaining one.
	tm.Send(tea.KeyMsg{Type: tea.KeyUp})
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "answer 1")
	m := quit(t, tm)
	if m.SessionID() != "20261121-093000-bbbbbb" || m.title != "Renamed" || len(m.conv.Entries()) != 4 {
		t.Errorf("resumed %q %q with %d entries", m.SessionID(), m.title, len(m.conv.Entries()))
	}
	if _, err := os.Stat(filepath.Join(dir, "20261120-093000-aaaaaa.jsonl")); !os.IsNotExist(err) {
		t.Errorf("deleted session still on disk: %v", err)
	}
}

// TestResumeFidelity chats through several kinds of turns, then resumes the
// saved session: the screen looks exactly as it did.
func TestResumeFidelity(t *testing.T) {
	h := newHarness(t, 0)
	tm := start(t, h.model(t, nil), 80, 60)
	d := &testDriver{t: t, tm: tm}
	d.send("hello")
	d.wait("stop end_turn")
	d.send("demo:overloaded once")
	d.wait("overloaded_error")
	for range "demo:overloaded once" {
		tm.Send(tea.KeyMsg{Type: tea.KeyBackspace})
	}
	d.send("/max-tokens 20")
	d.send("demo:think a cut reply")
	d.wait("stop max_tokens")
	live := quit(t, tm)

	sess, err := h.store.Latest()
	if err != nil {
		t.Fatal(err)
	}
	resumed := h.model(t, sess)
	resumed, _ = updateModel(resumed, tea.WindowSizeMsg{Width: 80, Height: 60})
	if got, want := resumed.View(), live.View(); got != want {
		t.Errorf("resumed view differs:\n%s\n--- live\n%s", got, want)
	}
	golden.RequireEqual(t, []byte(resumed.View()))
}

// The picker does not delete the session that is open: later saves would
// go nowhere. Renaming it goes through the screen's own writer.
func TestPickerKeepsTheOpenSession(t *testing.T) {
	h := newHarness(t, 0)
	tm := start(t, h.model(t, nil), 80, 24)
	send(tm, "hello")
	waitFor(t, tm, "stop end_turn")
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlS})
	waitFor(t, tm, "1 session")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("d")})
	waitFor(t, tm, "this session is open")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("r")})
	waitFor(t, tm, "new title")
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlU})
	tm.Type("Greetings")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "renamed")
	m := quit(t, tm)
	sess, err := h.store.Load(m.SessionID())
	if err != nil {
		t.Fatalf("the open session is gone: %v", err)
	}
	if sess.Title != "Greetings" || len(sess.Entries) != 2 {
		t.Errorf("title %q, %d entries", sess.Title, len(sess.Entries))
	}
}

// The picker's / filter narrows the list: its results reach the picker.
func TestPickerFilterGolden(t *testing.T) {
	h := newHarness(t, 0)
	dir := h.store.Dir()
	base := time.Date(2026, 11, 20, 9, 30, 0, 0, time.UTC)
	writeTestJournal(t, dir, "20261120-093000-aaaaaa", "Go channels explained", "demo-chat", 3, base)
	writeTestJournal(t, dir, "20261121-100000-bbbbbb", "Tax guide outline", "demo-chat", 1, base.Add(24*time.Hour))
	writeTestJournal(t, dir, "20261122-080000-cccccc", "Haiku about autumn", "other-model", 2, base.Add(47*time.Hour))
	tm := start(t, h.model(t, nil), 80, 24)
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlS})
	waitFor(t, tm, "Tax guide outline")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("/")})
	tm.Type("chan")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "1 session")
	m := quit(t, tm)
	view := m.View()
	if !strings.Contains(view, "Go channels explained") || strings.Contains(view, "Tax guide") || strings.Contains(view, "Haiku") {
		t.Errorf("the filter did not narrow the list:\n%s", view)
	}
	golden.RequireEqual(t, []byte(view))
}

// Enter on a text search's match resumes the session scrolled to the turn
// that matched.
func TestPickerSearchResumesAtTheMatch(t *testing.T) {
	h := newHarness(t, 0)
	dir := h.store.Dir()
	base := time.Date(2026, 11, 20, 9, 30, 0, 0, time.UTC)
	writeTestJournal(t, dir, "20261120-093000-aaaaaa", "Go channels explained", "demo-chat", 30, base)
	writeTestJournal(t, dir, "20261121-100000-bbbbbb", "Tax guide outline", "demo-chat", 1, base.Add(24*time.Hour))
	tm := start(t, h.model(t, nil), 80, 24)
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlS})
	waitFor(t, tm, "Tax guide outline")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("f")})
	tm.Type("question 3 about go")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "1 match in 1 session for")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "resumed")
	m := quit(t, tm)
	view := m.View()
	if m.SessionID() != "20261120-093000-aaaaaa" || !strings.Contains(view, "question 3 about Go channels explained") {
		t.Errorf("resumed %s, view:\n%s", m.SessionID(), view)
	}
}

// A search's hit on another branch of the session that is open makes
// that branch the active one, scrolled to the hit.
func TestPickerHitOnAnotherBranchOfTheOpenSession(t *testing.T) {
	h := newHarness(t, 0)
	w := session.NewWriter(h.store, session.Params{Model: "demo-chat"})
	first, err := w.Append(session.Entry{Kind: session.KindUser, Text: "zebra alpha question"})
	if err != nil {
		t.Fatal(err)
	}
	w.Append(session.Entry{Kind: session.KindUser, Text: "second turn about lemurs"})
	w.AppendAt(session.Entry{Kind: session.KindUser, Text: "yak beta question"}, first.Parent)
	if err := w.SetHead(w.Snapshot().All[1].ID); err != nil { // back on the lemurs
		t.Fatal(err)
	}
	id := w.ID()
	w.Close()
	sess, err := h.store.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	tm := start(t, h.model(t, sess), 80, 24)
	waitFor(t, tm, "second turn about lemurs")
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlS})
	waitFor(t, tm, "1 session")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("f")})
	tm.Type("yak")
	waitFor(t, tm, `for "yak"`)
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "switched to the branch of the hit")
	m := quit(t, tm)
	if view := m.View(); !strings.Contains(view, "yak beta question") || strings.Contains(view, "lemurs") {
		t.Errorf("the hit's branch is not shown:\n%s", view)
	}
}

// Renaming keeps the renamed row selected, even when the new title leaves
// the filter, and does not change which session -c resumes; esc in the
// picker's help closes the help only.
func TestPickerRenameKeepsSelectionAndLatest(t *testing.T) {
	h := newHarness(t, 0)
	dir := h.store.Dir()
	base := time.Date(2026, 11, 20, 9, 30, 0, 0, time.UTC)
	writeTestJournal(t, dir, "20261120-093000-aaaaaa", "First", "demo-chat", 1, base)
	writeTestJournal(t, dir, "20261121-093000-bbbbbb", "Second", "demo-chat", 2, base.Add(time.Hour))
	tm := start(t, h.model(t, nil), 80, 24)
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlS})
	waitFor(t, tm, "Second")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("/")})
	tm.Type("First")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "1 session")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("r")})
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlU})
	tm.Type("Alpha")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "renamed")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("?")})
	waitFor(t, tm, "close help") // the picker's full help
	tm.Send(tea.KeyMsg{Type: tea.KeyEsc})
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter}) // still in the picker: resumes the row selected
	waitFor(t, tm, "resumed")
	m := quit(t, tm)
	if m.SessionID() != "20261120-093000-aaaaaa" || m.title != "Alpha" {
		t.Errorf("enter resumed %s %q, want the renamed session", m.SessionID(), m.title)
	}
	latest, err := h.store.Latest()
	if err != nil || latest.ID != "20261121-093000-bbbbbb" {
		t.Errorf("-c would resume %v (%v), want the session updated last", latest, err)
	}
}

// An image-only session counts its image turns in the picker.
func TestPickerCountsImageTurns(t *testing.T) {
	h := newHarness(t, 0)
	ts := time.Date(2026, 11, 20, 9, 30, 0, 0, time.UTC).Format(time.RFC3339)
	var b strings.Builder
	fmt.Fprintf(&b, `{"v":2,"type":"header","time":%q,"id":"20261120-093000-iiiiii","created":%q,"params":{"model":"demo-chat"}}`+"\n", ts, ts)
	fmt.Fprintf(&b, `{"type":"title","time":%q,"title":"Foxes"}`+"\n", ts)
	for i := 1; i <= 2; i++ {
		parent := ""
		if i > 1 {
			parent = fmt.Sprintf(`"parent":"e%d",`, i-1)
		}
		fmt.Fprintf(&b, `{"type":"entry","time":%q,"entry":{"id":"e%d",%s"kind":"image","time":%q,"image_prompt":"fox %d","images":[{"index":0,"error":"gone"}]}}`+"\n", ts, i, parent, ts, i)
	}
	if err := os.WriteFile(filepath.Join(h.store.Dir(), "20261120-093000-iiiiii.jsonl"), []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	tm := start(t, h.model(t, nil), 80, 24)
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlS})
	waitFor(t, tm, "Foxes")
	m := quit(t, tm)
	if v := m.View(); !strings.Contains(v, "· 2 messages ·") {
		t.Errorf("the image turns are not counted:\n%s", v)
	}
}

// /export writes the session's real creation date; notices such as /help
// are never saved nor exported.
func TestExportDateAndNoNotices(t *testing.T) {
	h := newHarness(t, 0)
	base := time.Date(2026, 11, 20, 9, 30, 0, 0, time.UTC)
	writeTestJournal(t, h.store.Dir(), "20261120-093000-aaaaaa", "Old one", "demo-chat", 1, base)
	sess, err := h.store.Load("20261120-093000-aaaaaa")
	if err != nil {
		t.Fatal(err)
	}
	tm := start(t, h.model(t, sess), 80, 24)
	send(tm, "/help")
	send(tm, "hello")
	waitFor(t, tm, "stop end_turn")
	path := filepath.Join(t.TempDir(), "out.md")
	send(tm, "/export "+path)
	waitFor(t, tm, "exported to")
	quit(t, tm)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "Created 2026-11-20 09:30 UTC") {
		t.Errorf("the export does not give the creation date:\n%s", data)
	}
	if strings.Contains(string(data), "ctrl+c") || strings.Contains(string(data), "commands") {
		t.Errorf("the /help notice was exported:\n%s", data)
	}
	saved, err := h.store.Load(sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range saved.All {
		if e.Kind == session.KindNotice || strings.HasPrefix(e.ID, "n") {
			t.Errorf("a notice was saved: %+v", e)
		}
	}
	if len(saved.Entries) != 4 {
		t.Errorf("saved %d entries, want the 2 before and the new prompt and reply", len(saved.Entries))
	}
}
