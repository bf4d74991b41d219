package input

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"muse/session"
	"muse/session/prompts"
	"muse/ui/menu"
)

// ctrl+r searches the prompts sent before, as a shell searches its
// history: the input empties (its draft is kept) and what is typed filters
// the prompts of every session and -p, newest first, in the menu under the
// input; ctrl+r again keeps to this session's, and again to all. ↑ ↓ move,
// tab or enter put the prompt in the input to edit or send (as ↑ recall
// does: text put in, not typed), esc gives the draft back. The history is
// read from its published copy, never waiting for its lock (see
// prompts.History.Prompts); the prompts other muses added meanwhile are
// read in a command.

// SearchKey starts a search of the prompt history (ctrl+r), as the help
// lists it.
var SearchKey = key.NewBinding(key.WithKeys("ctrl+r"), key.WithHelp("ctrl+r", "search past prompts"))

// searchPlaceholder is what the input says during a search, before a
// word is typed.
const searchPlaceholder = "search past prompts: type a word · enter takes · esc goes back"

// maxSearchHits is how many prompts the search menu offers.
const maxSearchHits = 50

// searchState is a search under way.
type searchState struct {
	draft    string // the input's text when it started, given back by esc
	thisOnly bool   // this session's prompts only
}

// searchRefreshedMsg ends the refresh of the history a search started.
type searchRefreshedMsg struct{ err error }

// startSearch starts a search, or, during one, switches between this
// session's prompts and all.
func (m Model) startSearch() (Model, tea.Cmd) {
	if m.search != nil {
		s := *m.search
		s.thisOnly = !s.thisOnly
		m.search = &s
		return m.syncSearch(), nil
	}
	m.search = &searchState{draft: m.ed.value()}
	m.ed.setValue("")
	m.foreign, m.given = false, ""
	m.comp, m.hintHidden = completion{}, ""
	m = m.syncSearch().fit()
	h := m.history
	if h == nil {
		return m, nil
	}
	return m, func() tea.Msg { return searchRefreshedMsg{err: h.Refresh()} }
}

// endSearch ends the search: with the draft back in the input, unless
// the prompt taken replaced it.
func (m Model) endSearch(restore bool) Model {
	s := m.search
	m.search = nil
	m = m.closeMenu()
	if restore && s != nil {
		m = m.SetValue(s.draft)
		m.foreign = false // the user's own draft
		if s.draft == "" {
			m.given = ""
		}
	}
	return m.fit()
}

// syncSearch lists the prompts that hold what is typed (case aside),
// newest first, each once, and counts them all: the search reads the
// whole history anyway when few match.
func (m Model) syncSearch() Model {
	q := strings.ToLower(m.ed.value())
	scope := "all sessions"
	if m.search.thisOnly {
		scope = "this session"
	}
	note := "past prompts of " + scope + " · " + m.keys.Search.Help().Key + " " + map[bool]string{true: "all sessions", false: "this session only"}[m.search.thisOnly]
	var items []menu.Item
	seen := map[string]bool{}
	matched := 0 // the prompts that match, those the menu offers and the rest
	add := func(text, detail string) {
		if seen[text] || !strings.Contains(strings.ToLower(text), q) {
			return
		}
		seen[text] = true
		matched++
		if len(items) == maxSearchHits {
			return
		}
		label := strings.ReplaceAll(strings.TrimSpace(text), "\n", " ⏎ ")
		items = append(items, menu.Item{Label: label, Detail: detail, Value: text})
	}
	var es []prompts.Entry
	if m.history != nil {
		es = m.history.Entries()
	}
	// The prompts sent since the session was opened are in the history,
	// newest; those of its journal came before them.
	mine := make(map[string]bool, len(*m.sessionPrompts))
	for _, p := range *m.sessionPrompts {
		mine[p] = true
	}
	for i := len(es) - 1; i >= 0; i-- {
		e := es[i]
		this := e.Session == *m.session && e.Session != "" || mine[e.Text]
		switch {
		case this:
			add(e.Text, "this session")
		case !m.search.thisOnly:
			add(e.Text, e.Time.Local().Format("Jan 2 15:04"))
		}
	}
	if m.search.thisOnly {
		sp := *m.sessionPrompts
		for i := len(sp) - 1; i >= 0; i-- {
			add(sp[i], "this session")
		}
	}
	if len(items) == 0 {
		note = "no past prompt of " + scope + " holds " + m.ed.value() + " · esc goes back"
	}
	m.target = menuTarget{}
	m.menu = m.menu.SetItems(items, note).Matched(matched)
	return m
}

// searchRefreshed lists the prompts again once the history took in those
// other muses added; a history that could not be read again is searched
// as it was, and the status line says why.
func (m Model) searchRefreshed(msg searchRefreshedMsg) (Model, tea.Cmd) {
	var cmd tea.Cmd
	if msg.err != nil {
		cmd = notice("could not read the prompt history again: " + msg.err.Error())
	}
	if m.search != nil {
		m = m.syncSearch()
	}
	return m, cmd
}

// SetSession tells the input the session the screen now shows: its id
// (what prompts sent are remembered under) and its entries, whose prompts,
// on every branch, are this session's for ctrl+r, those sent before it was
// resumed too. A new session has neither.
func (m Model) SetSession(id string, all []session.Entry) Model {
	*m.session = id
	var ps []string
	for _, e := range all {
		if e.Kind == session.KindUser && strings.TrimSpace(e.Text) != "" {
			ps = append(ps, e.Text)
		}
	}
	*m.sessionPrompts = ps
	return m
}

// takeSearch puts the prompt it in the input, ending the search.
func (m Model) takeSearch(it menu.Item) Model {
	m = m.endSearch(false)
	m = m.SetValue(it.Value)
	m.recalled = it.Value
	return m
}
