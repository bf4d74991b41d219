package ui

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/teatest"

	"muse/api/demo"
	"muse/session"
	"muse/ui/input"
)

// Consent: a file leaves the machine only once its chip was on screen and
// enter was pressed again, unless the user attached it by a key or command
// of their own (a typed @, /attach, -a); and a secret file never leaves
// through a mention at all.

// keyBytes is what the private key of these tests holds: no request may
// carry it, unless /attach asked for it.
const keyBytes = "PRIVATE-KEY-4f1c9e"

// recorder is the demo service, keeping the body of every message request.
type recorder struct {
	mu     sync.Mutex
	bodies []string
}

// consentHarness is a harness whose service records its requests, with a
// home folder holding ~/.ssh/id_rsa, and a folder of files to mention:
// notes.md and drop.txt.
func consentHarness(t *testing.T) (*harness, *recorder, string) {
	t.Helper()
	rec := &recorder{}
	service := demo.NewHandler(demo.Options{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if strings.HasSuffix(r.URL.Path, "/messages") {
			rec.mu.Lock()
			rec.bodies = append(rec.bodies, string(body))
			rec.mu.Unlock()
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		service.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	store, err := session.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	t.Setenv("HOME", home)
	for _, v := range []string{"XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME"} {
		t.Setenv(v, "")
	}
	os.MkdirAll(filepath.Join(home, ".ssh"), 0o700)
	if err := os.WriteFile(filepath.Join(home, ".ssh", "id_rsa"), []byte(keyBytes+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "notes.md"), []byte("NOTES-BYTES\n"), 0o600)
	os.WriteFile(filepath.Join(dir, "drop.txt"), []byte("DROP-BYTES\n"), 0o600)
	os.WriteFile(filepath.Join(dir, ".env"), []byte("TOKEN="+keyBytes+"\n"), 0o600)
	return &harness{srv: srv, store: store}, rec, dir
}

// requests returns the bodies of the message requests sent so far.
func (r *recorder) requests() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]string(nil), r.bodies...)
}

// checkNoKey fails t if a request carried the key's bytes.
func (r *recorder) checkNoKey(t *testing.T) {
	t.Helper()
	for i, b := range r.requests() {
		if strings.Contains(b, keyBytes) {
			t.Errorf("request %d carried the private key", i+1)
		}
	}
}

// waitAll waits until the screen has shown each of wants, in one frame or
// in several.
func waitAll(t *testing.T, tm *teatest.TestModel, wants ...string) {
	t.Helper()
	onScreen(t, tm, func(b []byte) bool {
		for _, w := range wants {
			if !bytes.Contains(b, []byte(w)) {
				return false
			}
		}
		return true
	})
}

// paste is a bracketed paste of text.
func paste(text string) tea.KeyMsg {
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(text), Paste: true}
}

// The first leak: a pasted sentence naming files, then a file
// dropped on the terminal. The drop set the input's text again, which lost
// the mark of the paste, and the first enter sent every file named,
// ~/.ssh/id_rsa among them. Now the first enter shows the files as chips
// and leaves the key out; only the second sends.
func TestPastedMentionsThenADropSendNothingUnseen(t *testing.T) {
	h, rec, dir := consentHarness(t)
	tm := start(t, h.model(t, nil), 200, 30)
	tm.Send(paste("please review @~/.ssh/id_rsa and @" + filepath.Join(dir, "notes.md") + " with "))
	tm.Send(paste(filepath.Join(dir, "drop.txt")))
	waitFor(t, tm, "drop.txt is attached at the next enter")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitAll(t, tm, "[2] drop.txt", "not attached: ~/.ssh/id_rsa is in ~/.ssh")
	if n := len(rec.requests()); n != 0 {
		t.Fatalf("the first enter sent %d requests", n)
	}
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "stop end_turn")
	quit(t, tm)
	rec.checkNoKey(t)
	reqs := rec.requests()
	if len(reqs) != 1 || !strings.Contains(reqs[0], "NOTES-BYTES") || !strings.Contains(reqs[0], "DROP-BYTES") {
		t.Errorf("the second enter should send the two files seen: %d requests", len(reqs))
	}
}

// The second leak: text back from $EDITOR naming files attached
// and sent them on one enter, with no chip shown. Now it is text the user
// did not type: its files wait as chips, and the key is left out.
func TestEditorTextNamingFilesWaitsToBeSeen(t *testing.T) {
	h, rec, dir := consentHarness(t)
	tm := start(t, h.model(t, nil), 200, 30)
	tm.Send(editedMsg{target: editPrompt, text: "summarize @~/.ssh/id_rsa and @" + filepath.Join(dir, "notes.md")})
	waitFor(t, tm, "summarize @~/.ssh/id_rsa")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitAll(t, tm, "[1] notes.md", "not attached: ~/.ssh/id_rsa")
	if n := len(rec.requests()); n != 0 {
		t.Fatalf("the first enter sent %d requests", n)
	}
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "stop end_turn")
	quit(t, tm)
	rec.checkNoKey(t)
	if reqs := rec.requests(); len(reqs) != 1 || !strings.Contains(reqs[0], "NOTES-BYTES") {
		t.Errorf("the second enter should send notes.md: %d requests", len(reqs))
	}
}

// A secret file is never attached through a mention, even one typed: the
// prompt waits with a notice that says why and what to do, and the next
// enter sends its text alone.
func TestTypedMentionOfASecretIsNotAttached(t *testing.T) {
	h, rec, dir := consentHarness(t)
	tm := start(t, h.model(t, nil), 200, 30)
	send(tm, "what are @~/.ssh/id_rsa and @"+filepath.Join(dir, ".env"))
	waitFor(t, tm, "/attach it to send it")
	if n := len(rec.requests()); n != 0 {
		t.Fatalf("the first enter sent %d requests", n)
	}
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "stop end_turn")
	quit(t, tm)
	rec.checkNoKey(t)
	if u := lastPrompt(t, h); len(u.Attachments) != 0 || !strings.Contains(u.Text, "@~/.ssh/id_rsa") {
		t.Errorf("the prompt should go as text alone: %+v", u)
	}
}

// /attach is the user's own command: it attaches a secret file, and says
// what it is.
func TestAttachCommandOfASecretWarns(t *testing.T) {
	h, rec, _ := consentHarness(t)
	tm := start(t, h.model(t, nil), 200, 30)
	send(tm, "/attach ~/.ssh/id_rsa")
	waitAll(t, tm, "[1] id_rsa", "warning: id_rsa is in ~/.ssh, where keys and credentials are kept")
	send(tm, "is this safe?")
	waitFor(t, tm, "stop end_turn")
	quit(t, tm)
	if reqs := rec.requests(); len(reqs) != 1 || !strings.Contains(reqs[0], keyBytes) {
		t.Errorf("/attach should send the file it named: %d requests", len(reqs))
	}
}

// A burst of keys without bracketed paste (tmux send-keys, dictation)
// comes as runes cut at the spaces. Its paths are text, not files dropped
// on the terminal, and the first enter sends it.
func TestBurstOfKeysKeepsPathsAsText(t *testing.T) {
	h, rec, dir := consentHarness(t)
	tm := start(t, h.model(t, nil), 200, 30)
	notes := filepath.Join(dir, "notes.md")
	for i, word := range []string{"compare", notes, "with", "~/.ssh/id_rsa"} {
		if i > 0 {
			tm.Send(tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}})
		}
		tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(word)})
	}
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "stop end_turn")
	m := quit(t, tm)
	u := lastPrompt(t, h)
	if want := "compare " + notes + " with ~/.ssh/id_rsa"; u.Text != want || len(u.Attachments) != 0 {
		t.Errorf("sent %q with %d attachments, want %q as text", u.Text, len(u.Attachments), want)
	}
	if m.comp.Pending().Len() != 0 {
		t.Errorf("%d attachments wait", m.comp.Pending().Len())
	}
	rec.checkNoKey(t)
	for _, b := range rec.requests() {
		if strings.Contains(b, "NOTES-BYTES") {
			t.Error("a path in a burst of keys sent its file")
		}
	}
}

// withAttachment seeds a session of one prompt, sent with notes.md, and
// its reply.
func withAttachment(t *testing.T, h *harness) *session.Session {
	return seedTree(t, h, func(w *session.Writer) {
		a, err := w.SaveAttachment(session.Attachment{Name: "notes.md", Kind: session.AttachText, MediaType: "text/plain"}, []byte("NOTES-BYTES\n"))
		if err != nil {
			t.Fatal(err)
		}
		mustAppend(t, w, session.Entry{Kind: session.KindUser, Text: "read this", Attachments: []session.Attachment{a}}, textReply("read"))
	})
}

// e on a prompt sent with files shows them as chips, by their own names,
// to be sent with the edit or removed: removed, the edit goes without
// them. They were sent again unseen, and could not be removed.
func TestEditingAPromptShowsItsFiles(t *testing.T) {
	h, rec, _ := consentHarness(t)
	m := sized(t, h, withAttachment(t, h), 100, 30)
	m = press(m, selectKey, upKey)
	m = run(t, m, runes("e"))
	if !m.comp.Editing().Active() || m.comp.Pending().Len() != 1 || m.comp.Pending().Files()[0].Name != "notes.md" {
		t.Fatalf("editing: %v, pending %+v", m.comp.Editing().Active(), m.comp.Pending())
	}
	if !strings.Contains(m.View(), "[1] notes.md") {
		t.Errorf("the prompt's file should show as a chip:\n%s", m.View())
	}
	m.comp, _ = m.comp.Detach(1)
	tm := start(t, m, 100, 30)
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "stop end_turn")
	quit(t, tm)
	if u := lastPrompt(t, h); len(u.Attachments) != 0 {
		t.Errorf("the edit should go without the file removed: %+v", u.Attachments)
	}
	for _, b := range rec.requests() {
		if strings.Contains(b, "NOTES-BYTES") {
			t.Error("the edit sent the file removed")
		}
	}
}

// esc leaves the edit: the draft comes back with its own chips.
func TestLeavingAnEditGivesBackTheDraftsFiles(t *testing.T) {
	h, _, _ := consentHarness(t)
	m := sized(t, h, withAttachment(t, h), 100, 30)
	draft := attachText(t, "draft.txt", "draft\n")
	m.comp = m.comp.SetPending(m.comp.Pending().Append([]session.File{draft}))
	m = press(m, selectKey, upKey)
	m = run(t, m, runes("e"))
	if m.comp.Pending().Len() != 1 || m.comp.Pending().Files()[0].Name != "notes.md" {
		t.Fatalf("pending while editing %+v", m.comp.Pending())
	}
	m = press(m, escKey)
	if m.comp.Editing().Active() || m.comp.Pending().Len() != 1 || m.comp.Pending().Files()[0].Name != "draft.txt" {
		t.Errorf("after esc: editing %v, pending %+v", m.comp.Editing().Active(), m.comp.Pending())
	}
}

// a on a prompt attaches its files again by their own names, not the
// names they are stored under.
func TestAttachingAPromptsFilesKeepsTheirNames(t *testing.T) {
	h, _, _ := consentHarness(t)
	m := sized(t, h, withAttachment(t, h), 100, 30)
	m = press(m, selectKey, upKey)
	m = run(t, m, runes("a"))
	if m.comp.Pending().Len() != 1 || m.comp.Pending().Files()[0].Name != "notes.md" || string(m.comp.Pending().Files()[0].Data) != "NOTES-BYTES\n" {
		t.Fatalf("pending %+v", m.comp.Pending())
	}
	if strings.Contains(m.status.Notice(), "warning") {
		t.Errorf("a file muse stored is no secret: %q", m.status.Notice())
	}
}

// Text the user did not type whose mentions name no file (an email's
// @someone) is sent on the first enter: there is nothing to see first.
func TestPastedTextNamingNoFileSendsAtOnce(t *testing.T) {
	h, rec, _ := consentHarness(t)
	tm := start(t, h.model(t, nil), 200, 30)
	tm.Send(paste("ask @someone about the plan"))
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "stop end_turn")
	quit(t, tm)
	if reqs := rec.requests(); len(reqs) != 1 || !strings.Contains(reqs[0], "ask @someone about the plan") {
		t.Errorf("the first enter should send the text: %d requests", len(reqs))
	}
}

// A file dropped on the terminal that is a secret stays a path, in text,
// and the status line says why and what to do.
func TestDroppedSecretStaysText(t *testing.T) {
	h, _, _ := consentHarness(t)
	m := h.model(t, nil)
	m, _ = updateModel(m, tea.WindowSizeMsg{Width: 200, Height: 24})
	key := filepath.Join(os.Getenv("HOME"), ".ssh", "id_rsa")
	m.comp = m.comp.SetInput(m.comp.Input().SetValue("look at " + key))
	m, _ = updateModel(m, input.PathPastedMsg{Text: key, Path: key, Secret: "in ~/.ssh, where keys and credentials are kept"})
	if got := m.comp.Input().Value(); got != "look at "+key {
		t.Errorf("input %q: a secret's path must not become a mention", got)
	}
	if !strings.Contains(m.status.Notice(), "it stays text · /attach it to send the file") {
		t.Errorf("notice %q", m.status.Notice())
	}
}
