package picker

import (
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

// searchMsg runs cmd, a batch, and returns the ListedMsg it gives.
func searchMsg(t testing.TB, cmd tea.Cmd) ListedMsg {
	t.Helper()
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		for _, c := range b {
			if c == nil {
				continue
			}
			if m, ok := c().(ListedMsg); ok {
				return m
			}
		}
	}
	if m, ok := msg.(ListedMsg); ok {
		return m
	}
	t.Fatalf("no search in %T", msg)
	return ListedMsg{}
}

// The picker searches as the query is typed, in commands, and drops the
// hits of a query typed over.
func TestSearchAsYouType(t *testing.T) {
	store, err := session.Open(filepath.Join(t.TempDir(), "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range []string{"zebra crossing", "zeal and zest", "apple"} {
		w := session.NewWriter(store, session.Params{})
		w.Append(session.Entry{Kind: session.KindUser, Text: text})
		w.Close()
	}
	th, _ := theme.New("", true)
	p := New(store, index.NewShared(store), th)
	p = p.SetSize(80, 24)
	p, cmd := p.Open("")
	p, _ = p.Update(cmd())
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
	store, err := session.Open(filepath.Join(t.TempDir(), "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	for _, texts := range [][]string{{"zebra crossing", "a zebra again"}, {"zebra stripes"}, {"apple"}} {
		w := session.NewWriter(store, session.Params{})
		for _, text := range texts {
			w.Append(session.Entry{Kind: session.KindUser, Text: text})
		}
		w.Close()
	}
	th, _ := theme.New("", true)
	p := New(store, index.NewShared(store), th)
	p = p.SetSize(80, 24)
	p, cmd := p.Open("")
	p, _ = p.Update(cmd())
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
