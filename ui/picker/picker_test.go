package picker

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"

	"muse/session"
	"muse/session/index"
	"muse/theme"
)

// The rename and search inputs show their cursor in reverse video, with no
// colour at all too.
func TestInputLineShowsTheCursor(t *testing.T) {
	in := textinput.New()
	in.Prompt = "new title: "
	in.SetValue("abc")
	if got := inputLine(in); got != "new title: abc\x1b[7m \x1b[27m" {
		t.Errorf("at the end: %q", got)
	}
	in.SetCursor(1)
	if got := inputLine(in); !strings.Contains(got, "a\x1b[7mb\x1b[27mc") {
		t.Errorf("in the middle: %q", got)
	}
}

// typed sends the runes of s to the picker, one key each, and returns the
// commands they gave.
func typed(p Model, s string) (Model, []tea.Cmd) {
	var cmds []tea.Cmd
	for _, r := range s {
		var cmd tea.Cmd
		p, cmd = p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
		cmds = append(cmds, cmd)
	}
	return p, cmds
}

// searchMsg runs cmd, a batch, and returns the ListedMsg it gives,
// looking into batches in batches.
func searchMsg(t testing.TB, cmd tea.Cmd) ListedMsg {
	t.Helper()
	var find func(tea.Cmd) (ListedMsg, bool)
	find = func(cmd tea.Cmd) (ListedMsg, bool) {
		switch m := cmd().(type) {
		case ListedMsg:
			return m, true
		case tea.BatchMsg:
			for _, c := range m {
				if c == nil {
					continue
				}
				if l, ok := find(c); ok {
					return l, true
				}
			}
		}
		return ListedMsg{}, false
	}
	if m, ok := find(cmd); ok {
		return m
	}
	t.Fatal("no search in the command")
	return ListedMsg{}
}

// The picker searches as the query is typed, in commands, and drops the
// hits of a query typed over.
func TestSearchAsYouType(t *testing.T) {
	p := pickerOf(t, []string{"zebra crossing"}, []string{"zeal and zest"}, []string{"apple"})
	if n := len(p.list.Items()); n != 3 {
		t.Fatalf("listed %d sessions", n)
	}
	p, _ = p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'f'}})
	p, cmds := typed(p, "ze*")
	first, last := searchMsg(t, cmds[1]), searchMsg(t, cmds[2]) // "ze", "ze*"
	p, _ = p.Update(last)
	if n := len(p.list.Items()); n != 2 {
		t.Fatalf("ze* found %d sessions, want 2", n)
	}
	p, _ = p.Update(first) // "ze" arrives late: dropped
	if n := len(p.list.Items()); n != 2 || !strings.Contains(p.status, `"ze*"`) {
		t.Fatalf("a late answer replaced the hits: %d items, status %q", len(p.list.Items()), p.status)
	}
	p, cmds = typed(p, `"`)
	p, _ = p.Update(searchMsg(t, cmds[0]))
	if !strings.Contains(p.status, "quote is not closed") || len(p.list.Items()) != 2 {
		t.Fatalf("a bad query: status %q, %d items", p.status, len(p.list.Items()))
	}
}

// A search's hits are counted as matches, and the sessions they are in
// as sessions.
func TestSearchCountsMatchesAndSessions(t *testing.T) {
	p := pickerOf(t, []string{"zebra crossing", "a zebra again"}, []string{"zebra stripes"}, []string{"apple"})
	if view := p.View(); !strings.Contains(view, "3 sessions") {
		t.Fatalf("the list does not count 3 sessions:\n%s", view)
	}
	p, _ = p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'f'}})
	p, cmds := typed(p, "zebra")
	p, _ = p.Update(searchMsg(t, cmds[len(cmds)-1]))
	view := p.View()
	if !strings.Contains(p.status, `3 matches in 2 sessions for "zebra"`) {
		t.Errorf("status %q", p.status)
	}
	if !strings.Contains(view, "3 matches") || strings.Contains(view, "3 sessions") {
		t.Errorf("the hits are not counted as matches:\n%s", view)
	}
}

// pickerOf returns a picker at 80x24 of sessions of the prompts given, one
// slice a session, listed.
func pickerOf(t *testing.T, sessions ...[]string) Model {
	t.Helper()
	store, err := session.Open(filepath.Join(t.TempDir(), "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	for _, prompts := range sessions {
		w := session.NewWriter(store, session.Params{})
		for _, text := range prompts {
			w.Append(session.Entry{Kind: session.KindUser, Text: text})
		}
		w.Close()
	}
	th, _ := theme.New("", true)
	p := New(store, index.NewShared(store), th).SetSize(80, 24)
	p, cmd := p.Open("")
	p, _ = p.Update(cmd())
	return p
}

// threeSessions is a picker of three sessions, listed, at 80x24.
func threeSessions(t *testing.T) Model {
	t.Helper()
	return pickerOf(t, []string{"capybara hot spring"}, []string{"a long introduction before it, on and on and on, then the capybara again"}, []string{"apple"})
}

// "f" and a query that arrive as one message search for the query; the
// arrows move through the hits while it is typed; enter opens the one
// chosen on its entry; esc leaves the search for every session.
func TestSearchKeys(t *testing.T) {
	p := threeSessions(t)
	// As the chat's input hands a burst on: marked as pasted.
	p, cmd := p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("fcapy"), Paste: true})
	if p.mode != pickSearch || p.input.Value() != "capy" {
		t.Fatalf("after a burst of f and capy: mode %v, query %q", p.mode, p.input.Value())
	}
	p, _ = p.Update(searchMsg(t, cmd))
	if n := len(p.list.Items()); n != 2 {
		t.Fatalf("capy found %d hits, want 2 (as a prefix)", n)
	}
	p, _ = p.Update(tea.KeyMsg{Type: tea.KeyDown})
	if p.mode != pickSearch || p.list.Index() != 1 {
		t.Fatalf("down: mode %v, row %d", p.mode, p.list.Index())
	}
	chosen := p.list.SelectedItem().(sessionItem)
	p, cmd = p.Update(tea.KeyMsg{Type: tea.KeyEnter})
	picked, ok := cmd().(PickedMsg)
	if !ok || picked.ID != chosen.info.ID || picked.EntryID != chosen.match.Entry {
		t.Fatalf("enter gave %+v, want the second hit %+v", picked, chosen.match)
	}
	// Enter before the hits of what was typed arrive only closes the
	// input: the hits shown are of a query typed over.
	p, _ = p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'f'}})
	p, _ = typed(p, "apple")
	if p, cmd = p.Update(tea.KeyMsg{Type: tea.KeyEnter}); cmd != nil || p.mode != pickBrowse {
		t.Fatalf("enter while searching: mode %v, a command %v", p.mode, cmd != nil)
	}
	// A query that cannot be read stays open on enter; esc lists all.
	p, _ = p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'f'}})
	p, cmds := typed(p, `"capy`)
	p, _ = p.Update(searchMsg(t, cmds[len(cmds)-1]))
	p, _ = p.Update(tea.KeyMsg{Type: tea.KeyEnter})
	if p.mode != pickSearch || !strings.Contains(p.View(), "quote is not closed") {
		t.Fatalf("enter on a bad query: mode %v\n%s", p.mode, p.View())
	}
	p, cmd = p.Update(tea.KeyMsg{Type: tea.KeyEsc})
	p, _ = p.Update(cmd())
	if p.mode != pickBrowse || len(p.list.Items()) != 3 {
		t.Fatalf("esc: mode %v, %d rows, want every session", p.mode, len(p.list.Items()))
	}
}

// A hit's snippet keeps a few words before its match, which it marks, so
// that the match shows on a narrow screen.
func TestMarkedSnippet(t *testing.T) {
	got := markedSnippet([]index.Part{{Text: "…"}, {Text: "a long introduction before it, then the "}, {Text: "capybara", Match: true}, {Text: " again"}})
	if want := "…then the \x1b[4mcapybara\x1b[24m again"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}

// A burst of keys that does not open the search or the filter, as pasted
// text, is dropped: "dy" never deletes a session.
func TestBurstNeverActsAsListKeys(t *testing.T) {
	p := threeSessions(t)
	p, cmd := p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("dy"), Paste: true})
	if cmd != nil || p.mode != pickBrowse || !strings.Contains(p.status, "one at a time") {
		t.Fatalf("dy: mode %v, status %q, a command %v", p.mode, p.status, cmd != nil)
	}
	p, _ = p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("/app"), Paste: true})
	if !p.list.SettingFilter() || p.list.FilterValue() != "app" {
		t.Fatalf("/app: filtering %v, filter %q", p.list.SettingFilter(), p.list.FilterValue())
	}
}

// The hits never shrink as a word is typed on: "capybara" finds
// "capybaras" as "capybar" did.
func TestTypingOnNeverLosesHits(t *testing.T) {
	p := pickerOf(t, []string{"a capybara"}, []string{"what do capybaras eat"})
	p, _ = p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'f'}})
	for _, q := range []string{"capybar", "a"} {
		var cmds []tea.Cmd
		p, cmds = typed(p, q)
		p, _ = p.Update(searchMsg(t, cmds[len(cmds)-1]))
		if n := len(p.list.Items()); n != 2 {
			t.Errorf("%q: %d hits, want 2", p.input.Value(), n)
		}
	}
}

// A search typed over is stopped, not left to finish: its answer, which
// is dropped anyway, is the context's error.
func TestTypedOverSearchIsStopped(t *testing.T) {
	p := threeSessions(t)
	p, _ = p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'f'}})
	p, cmds := typed(p, "capy")
	if m := searchMsg(t, cmds[0]); !errors.Is(m.err, context.Canceled) {
		t.Errorf("the search of %q typed over gave %v", "c", m.err)
	}
	if m := searchMsg(t, cmds[len(cmds)-1]); m.err != nil || len(m.items) == 0 {
		t.Errorf("the last search: %d hits, %v", len(m.items), m.err)
	}
}
