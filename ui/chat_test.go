package ui

import (
	"bytes"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/muesli/termenv"

	"muse/api"
	"muse/api/demo"
	"muse/session"
	"muse/theme"
	"muse/ui/engine"
	"muse/ui/internal/waitfor"
)

func TestMain(m *testing.M) {
	lipgloss.SetColorProfile(termenv.Ascii)
	time.Local = time.UTC // dates in goldens; set before any goroutine reads it
	os.Exit(m.Run())
}

// fixedClock returns a clock that starts at a fixed time and moves only when told.
func fixedClock() func() time.Time {
	t := time.Date(2026, 11, 22, 10, 0, 0, 0, time.UTC)
	return func() time.Time { return t }
}

type harness struct {
	srv   *httptest.Server
	store *session.Store
}

// newHarness is the demo service, pausing delay between streamed words,
// and a session store. A test that needs a turn in flight holds it there
// (newHeldHarness), never by a pace it hopes is slow enough.
func newHarness(t *testing.T, delay time.Duration) *harness {
	t.Helper()
	srv := httptest.NewServer(demo.NewHandler(demo.Options{Delay: delay}))
	t.Cleanup(srv.Close)
	store, err := session.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return &harness{srv: srv, store: store}
}

func (h *harness) model(t *testing.T, sess *session.Session) Model {
	t.Helper()
	return h.modelWith(t, sess, func(*Options) {})
}

// modelWith is model with options changed by set before the screen is made.
func (h *harness) modelWith(t *testing.T, sess *session.Session, set func(*Options)) Model {
	t.Helper()
	th, err := theme.New("dark", true)
	if err != nil {
		t.Fatal(err)
	}
	client := api.New(h.srv.URL, api.WithAccessToken(demo.DefaultToken), api.WithMaxRetries(0))
	var w *session.Writer
	if sess != nil {
		if w, err = h.store.OpenWriter(sess.ID); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { w.Close() })
	}
	opts := Options{
		Config: engine.Config{Client: client, Now: fixedClock()}, Store: h.store, Writer: w, Theme: th, Profile: termenv.Ascii,
		Params: session.Params{Model: "demo-chat", MaxTokens: 1024}, ImageModel: "demo-image",
		Getenv:  func(string) string { return "" }, // no TMUX, no DISPLAY: never the real clipboard
		WorkDir: "/srv/project",
	}
	set(&opts)
	return New(opts)
}

func start(t *testing.T, m Model, w, h int) *teatest.TestModel {
	t.Helper()
	return teatest.NewTestModel(t, testRoot{m}, teatest.WithInitialTermSize(w, h))
}

// testRoot runs the chat screen under teatest, and quits it on testQuitMsg
// the way a quit key would once nothing else is open: the draft in the
// input stays, so tests can look at it (ctrl+c would clear it first).
type testRoot struct{ Model }

// testQuitMsg quits the screen under test; testStopMsg stops the program
// at once, as it is, with whatever is in flight (the test cancels it).
type (
	testQuitMsg struct{}
	testStopMsg struct{}
)

func (r testRoot) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg.(type) {
	case testQuitMsg:
		next, cmd := r.Model.quit()
		return testRoot{next.(Model)}, cmd
	case testStopMsg:
		return r, tea.Quit
	}
	next, cmd := r.Model.Update(msg)
	return testRoot{next.(Model)}, cmd
}

func waitFor(t *testing.T, tm *teatest.TestModel, want string) {
	t.Helper()
	onScreen(t, tm, func(b []byte) bool { return bytes.Contains(b, []byte(want)) })
}

func send(tm *teatest.TestModel, text string) {
	tm.Type(text)
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
}

func quit(t *testing.T, tm *teatest.TestModel) Model {
	t.Helper()
	tm.Send(testQuitMsg{})
	return finalModel(t, tm)
}

// finalModel waits for the program to end and returns the chat screen.
func finalModel(t *testing.T, tm *teatest.TestModel) Model {
	t.Helper()
	return tm.FinalModel(t, teatest.WithFinalTimeout(waitfor.Scaled(waitfor.Limit))).(testRoot).Model
}

func TestStreamedReplyGolden(t *testing.T) {
	h := newHarness(t, 0)
	tm := start(t, h.model(t, nil), 80, 40)
	send(tm, "hello")
	waitFor(t, tm, "stop end_turn")
	m := quit(t, tm)
	golden.RequireEqual(t, []byte(m.View()))

	// The exchange was saved, and reopens as it was.
	sess, err := h.store.Latest()
	if err != nil {
		t.Fatal(err)
	}
	if len(sess.Entries) != 2 || sess.Entries[1].Message.Text() == "" || sess.Title != "hello" {
		t.Fatalf("saved session: %+v", sess)
	}
	resumed := h.model(t, sess)
	resumed, _ = updateModel(resumed, tea.WindowSizeMsg{Width: 80, Height: 40})
	if got, want := resumed.View(), m.View(); got != want {
		t.Errorf("resumed view differs:\n%s\n---\n%s", got, want)
	}
}

func updateModel(m Model, msg tea.Msg) (Model, tea.Cmd) {
	next, cmd := m.Update(msg)
	return next.(Model), cmd
}

func TestCancelKeepsPartial(t *testing.T) {
	h, hd := newHeldHarness(t, "tell me everything") // the reply is in flight until esc
	tm := start(t, h.modelWith(t, nil, shortReplies), 80, 24)
	send(tm, "tell me everything")
	waitFor(t, tm, "Good question; the answer") // the reply's first words
	ht := hd.held(t)
	tm.Send(tea.KeyMsg{Type: tea.KeyEsc})
	waitFor(t, tm, "cancelled")
	ht.cancelled(t)
	m := quit(t, tm)
	entries := m.conv.Entries()
	last := entries[len(entries)-1]
	if last.Status != session.StatusCancelled || !strings.Contains(last.Message.Text(), "## tell me everything") {
		t.Errorf("last entry %+v", last)
	}
	if m.turns.Turn() != nil {
		t.Error("reply still in flight after cancel")
	}
	sess, err := h.store.Latest()
	if err != nil {
		t.Fatal(err)
	}
	if got := sess.Entries[len(sess.Entries)-1]; got.Status != session.StatusCancelled {
		t.Errorf("saved status %q", got.Status)
	}
}

func TestErrorShownAndPromptRestored(t *testing.T) {
	h := newHarness(t, 0)
	tm := start(t, h.model(t, nil), 80, 24)
	send(tm, "demo:overloaded please")
	waitFor(t, tm, "overloaded_error")
	m := quit(t, tm)
	view := m.View()
	for _, want := range []string{"✗ error 529 overloaded_error", "Overloaded", "request req_demo_", "› demo:overloaded please"} {
		if !strings.Contains(view, want) {
			t.Errorf("view lacks %q:\n%s", want, view)
		}
	}
	if m.comp.Input().Value() != "demo:overloaded please" {
		t.Errorf("input %q, want the prompt back", m.comp.Input().Value())
	}
}

func TestHostileReplyIsSanitized(t *testing.T) {
	h := newHarness(t, 0)
	tm := start(t, h.model(t, nil), 80, 40)
	send(tm, "demo:hostile show me")
	waitFor(t, tm, "stop end_turn")
	m := quit(t, tm)
	view := m.View()
	for _, bad := range []string{"\x1b]", "\x1b[2J", "\x07", "\u009b"} {
		if strings.Contains(view, bad) {
			t.Errorf("view contains %q", bad)
		}
	}
}

// testDriver types and waits on a running test model.
type testDriver struct {
	t  *testing.T
	tm *teatest.TestModel
}

func (d *testDriver) send(text string) { send(d.tm, text) }
func (d *testDriver) wait(want string) { waitFor(d.t, d.tm, want) }
func (d *testDriver) key(k tea.KeyMsg) { d.tm.Send(k) }

func visibleWidth(s string) int { return lipgloss.Width(s) }

// An HTML error page is named as -p names it: status and type (the type
// told from the status), then the page's summary.
func TestHTMLErrorNamedAsOnTheCommandLine(t *testing.T) {
	h := newHarness(t, 0)
	tm := start(t, h.model(t, nil), 80, 24)
	send(tm, "demo:html please")
	waitFor(t, tm, "the prompt is back")
	m := quit(t, tm)
	es := m.conv.Entries()
	e := es[len(es)-1]
	if e.Kind != session.KindError || e.Error == nil {
		t.Fatalf("last entry %+v", e)
	}
	cli := (&api.APIError{Status: e.Error.Status, Type: e.Error.Type, Message: e.Error.Message}).Error()
	name, msg, _ := strings.Cut(cli, ": ")
	view := m.View()
	if !strings.Contains(view, "✗ error "+name) || name != "502 bad_gateway" {
		t.Errorf("the screen does not name the error %q as -p does:\n%s", name, view)
	}
	if !strings.Contains(strings.Join(strings.Fields(view), " "), strings.Join(strings.Fields(msg), " ")) || strings.Contains(view, "<html") {
		t.Errorf("the summary %q is not shown:\n%s", msg, view)
	}
}

// The status bar: a cancel leaves no "stop end_turn" of the reply before;
// a failure shows until the next turn starts. The screen is wide enough
// for the failure beside the tokens of both turns: the esc may come before
// muse has read any of the second reply, which is then not kept and counts
// nothing, or after, when its tokens count too and make a longer line (at
// 80 columns the failure was cut short then).
func TestStatusBarForgetsTheLastTurn(t *testing.T) {
	h, hd := newHeldHarness(t, "take your time") // the second reply is in flight until esc
	tm := start(t, h.model(t, nil), 100, 24)
	status := func(m Model) string {
		lines := strings.Split(m.View(), "\n")
		return lines[len(lines)-2]
	}
	send(tm, "hello")
	waitFor(t, tm, "stop end_turn")
	send(tm, "take your time")
	ht := hd.held(t)
	tm.Send(tea.KeyMsg{Type: tea.KeyEsc})
	waitFor(t, tm, "cancelled")
	ht.cancelled(t)
	send(tm, "demo:overloaded now")
	waitFor(t, tm, "the prompt is back")
	tm.Send(testStopMsg{})
	m := finalModel(t, tm)
	m.status = m.status.Note("") // as after the next key
	// "✗ failed: 529 …", or "✗ 529 …" where the line is short of room (the
	// cancelled reply, when saved, makes its tokens "out N+").
	if s := status(m); !strings.Contains(s, "✗ failed: 529 overloaded_error") && !strings.Contains(s, "✗ 529 overloaded_error") {
		t.Errorf("status after a failure: %q", s)
	}
	if m.lastStop != "" {
		t.Errorf("status keeps stop %q after the cancel", m.lastStop)
	}
	// The next turn starts: the failure is old news.
	m, _ = updateModel(m, tea.KeyMsg{Type: tea.KeyEnter})
	if m.turns.Turn() == nil {
		t.Fatal("enter started nothing")
	}
	t.Cleanup(m.turns.Turn().Cancel)
	if m.status.LastErr() != "" || strings.Contains(status(m), "failed") {
		t.Errorf("the old failure shows while the next turn runs: %q", status(m))
	}
}

// The screen learns the id of the session its first prompt created from
// the engine's reports, never by asking the writer (which a turn may hold
// while it writes); the program is stopped as it is, so no message of
// closing the session brings the id instead.
func TestSessionIDArrivesWithTheTurn(t *testing.T) {
	h := newHarness(t, 0)
	m := h.model(t, nil)
	if m.sessID != "" {
		t.Fatalf("a new session has the id %q", m.sessID)
	}
	tm := start(t, m, 80, 24)
	send(tm, "hello")
	waitFor(t, tm, "stop end_turn")
	tm.Send(testStopMsg{})
	final := finalModel(t, tm)
	t.Cleanup(func() { final.writer.Close() })
	sess, err := h.store.Latest()
	if err != nil {
		t.Fatal(err)
	}
	if final.sessID != sess.ID {
		t.Errorf("the screen has the id %q, the store %q", final.sessID, sess.ID)
	}
}
