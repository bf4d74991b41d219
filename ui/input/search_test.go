package input

import (
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"muse/session"
	"muse/session/prompts"
	"muse/theme"
)

// withHistory is an input over a prompt history holding texts, sent in
// the sessions named before each (session:text).
func withHistory(t *testing.T, texts ...string) Model {
	t.Helper()
	h, err := prompts.Open(filepath.Join(t.TempDir(), "prompts.jsonl"), 100)
	if err != nil {
		t.Fatal(err)
	}
	for _, st := range texts {
		s, text, _ := strings.Cut(st, ":")
		if err := h.Add(s, text); err != nil {
			t.Fatal(err)
		}
	}
	th, err := theme.New("dark", true)
	if err != nil {
		t.Fatal(err)
	}
	return New(th, testKeys(), h).SetSize(80, 24)
}

// ctrl+r lists the past prompts of every session, newest first, filtered
// by what is typed; ctrl+r again keeps to this session's; enter puts the
// prompt in the input (as put in, not typed); esc gives the draft back.
func TestSearchPastPrompts(t *testing.T) {
	m := withHistory(t, "s1:explain channels", "s2:draw a capybara", "s1:explain goroutines", "s2:explain mutexes")
	_ = m.Remember("s1", " ")() // this session is s1
	m = typeKeys(t, m, "my draft")
	ctrlR := tea.KeyMsg{Type: tea.KeyCtrlR}
	m, _ = m.Update(ctrlR)
	if m.Value() != "" || !strings.Contains(m.View(), "search past prompts") {
		t.Fatalf("search not started: %q\n%s", m.Value(), m.View())
	}
	m = typeKeys(t, m, "expl")
	hint := strings.Join(m.Hint(), "\n")
	if !strings.Contains(hint, "▸ explain mutexes") || !strings.Contains(hint, "explain goroutines") || strings.Contains(hint, "capybara") {
		t.Fatalf("the search lists:\n%s", hint)
	}
	m, _ = m.Update(ctrlR) // this session only
	hint = strings.Join(m.Hint(), "\n")
	if strings.Contains(hint, "mutexes") || !strings.Contains(hint, "▸ explain goroutines") || !strings.Contains(hint, "this session") {
		t.Fatalf("this session's prompts:\n%s", hint)
	}
	m = update(m, keyOf(tea.KeyDown))
	m, ok := m.Enter()
	if !ok || m.Value() != "explain channels" || m.Typed() || len(m.Hint()) != 0 {
		t.Errorf("took %q (%v), typed %v, hint %q", m.Value(), ok, m.Typed(), m.Hint())
	}
	// esc (the screen hides the hint) gives the draft back.
	m = m.Reset()
	m = typeKeys(t, m, "my draft")
	m, _ = m.Update(ctrlR)
	m = typeKeys(t, m, "zzz")
	if hint := strings.Join(m.Hint(), "\n"); !strings.Contains(hint, "no past prompt") {
		t.Errorf("no match says:\n%s", hint)
	}
	m = m.HideHint()
	if m.Value() != "my draft" || !m.Typed() || len(m.Hint()) != 0 {
		t.Errorf("after esc: %q typed %v hint %q", m.Value(), m.Typed(), m.Hint())
	}
}

// ctrl+r's "this session" lists the prompts of the session's journal
// (SetSession), on every branch, with those sent since it opened, newest
// first; another session's are left out.
func TestSearchThisSessionFromItsJournal(t *testing.T) {
	m := withHistory(t, "s2:explain mutexes", "s1:explain sent later")
	m = m.SetSession("s1", []session.Entry{
		{ID: "a", Kind: session.KindUser, Text: "explain channels"},
		{ID: "b", Kind: session.KindAssistant},
		{ID: "c", Kind: session.KindUser, Text: "explain goroutines", Parent: "b"},
		{ID: "d", Kind: session.KindUser, Text: "explain select", Parent: "b"}, // another branch
	})
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyCtrlR})
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyCtrlR})
	hint := strings.Join(m.Hint(), "\n")
	for _, want := range []string{"▸ explain sent later", "explain select", "explain goroutines", "explain channels"} {
		if !strings.Contains(hint, want) {
			t.Errorf("this session's prompts lack %q:\n%s", want, hint)
		}
	}
	if strings.Contains(hint, "mutexes") {
		t.Errorf("another session's prompt is listed:\n%s", hint)
	}
}

// The first prompt of a new session, sent before the session had an id,
// is this session's too.
func TestSearchThisSessionHasItsFirstPrompt(t *testing.T) {
	m := withHistory(t, "s2:explain mutexes")
	m = m.SetSession("", nil)
	if cmd := m.Remember("", "epsilon first"); cmd != nil {
		cmd()
	}
	if cmd := m.Remember("s1", "zeta second"); cmd != nil {
		cmd()
	}
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyCtrlR})
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyCtrlR})
	hint := strings.Join(m.Hint(), "\n")
	for _, want := range []string{"zeta second", "epsilon first"} {
		if !strings.Contains(hint, want) {
			t.Errorf("this session's prompts lack %q:\n%s", want, hint)
		}
	}
	if strings.Contains(hint, "mutexes") {
		t.Errorf("another session's prompt is listed:\n%s", hint)
	}
}
