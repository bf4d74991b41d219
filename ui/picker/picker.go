// Package picker is the session picker of the chat screen: it lists the
// saved sessions, filters their titles, searches their text, and resumes,
// renames or deletes one. The root model shows it and acts on its messages.
package picker

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/list"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"muse/session"
	"muse/session/index"
	"muse/theme"
	"muse/ui/keyline"
	"muse/ui/sanitize"
	"muse/ui/textfmt"
)

// pickerKeys are the session picker's own keys.
type pickerKeys struct {
	Resume, Rename, Delete, Search, Back key.Binding
	// Quit (esc) and New (ctrl+n) are Back's two halves when the picker is
	// muse's first screen (muse -r): esc quits, ctrl+n goes to a new session.
	Quit, New key.Binding
}

func newPickerKeys() pickerKeys {
	return pickerKeys{
		Resume: key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "resume")),
		Rename: key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "rename")),
		Delete: key.NewBinding(key.WithKeys("d"), key.WithHelp("d", "delete")),
		Search: key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "search")),
		Back:   key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),
		Quit:   key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "quit")),
		New:    key.NewBinding(key.WithKeys("ctrl+n"), key.WithHelp("ctrl+n", "new session")),
	}
}

// sessionItem is one session in the picker.
type sessionItem struct {
	info  session.Info
	match *index.Hit // set when the item comes from a text search
}

// Title is the session's title.
func (i sessionItem) Title() string { return sanitize.Line(i.info.Title) }

// Description shows the date, message count and model, or the search hit.
func (i sessionItem) Description() string {
	if i.match != nil && i.match.Kind == index.KindTitle {
		return fmt.Sprintf("%s · found in the title", i.match.Time.Local().Format("2006-01-02"))
	}
	if i.match != nil {
		// What it is, then the match: both show at any width.
		turn := fmt.Sprintf("turn %d", i.match.Turn)
		if !i.match.Active {
			turn += " of another branch"
		}
		return fmt.Sprintf("%s · %s · %s, %s", i.match.Label(), markedSnippet(i.match.Snippet), turn, i.match.Time.Local().Format("2006-01-02"))
	}
	return fmt.Sprintf("%s · %s · %s", i.info.UpdatedText("2006-01-02 15:04"), textfmt.Plural(i.info.Messages, "message"), sanitize.Line(i.info.Model))
}

// markedSnippet is a hit's snippet on one line, sanitized, with a few
// runes only before the first match (index.TrimLead), which shows on a
// narrow screen too, and the matches underlined.
func markedSnippet(parts []index.Part) string {
	var b strings.Builder
	for _, p := range index.TrimLead(parts) {
		t := sanitize.Line(p.Text)
		if p.Match {
			t = "\x1b[4m" + t + "\x1b[24m"
		}
		b.WriteString(t)
	}
	return b.String()
}

// FilterValue is what the list's filter matches: the title, id and model.
func (i sessionItem) FilterValue() string {
	return i.info.Title + " " + i.info.ID + " " + i.info.Model
}

// pickerMode is what the picker is doing.
type pickerMode int

const (
	pickBrowse pickerMode = iota
	pickRename
	pickConfirmDelete
	pickSearch
)

// Model lists the saved sessions: enter resumes, r renames, d deletes after
// a confirmation, / filters titles and f searches the text of every
// session as it is typed, from the index.
type Model struct {
	store  *session.Store
	index  *index.Shared
	th     *theme.Theme
	keys   pickerKeys
	list   list.Model
	input  textinput.Model
	mode   pickerMode
	target session.Info
	// open is the id of the session the chat screen has open: it is not
	// deleted from here, and renaming it goes through the screen's writer.
	open string
	// first is set while the picker is muse's first screen (muse -r):
	// esc quits rather than go to a chat nobody asked for (see OpenFirst).
	first  bool
	status string
	width  int
	height int
	// reselect is the id of the session to select again once the list is
	// loaded anew, as after a rename.
	reselect string
	// searchErr is the error of the last search answered, if any.
	searchErr error
	// stopSearch ends the search under way, if any: SQLite is
	// interrupted rather than left to finish what nobody will see.
	stopSearch context.CancelFunc
	// searchSeq numbers the searches typed: the answer of any but the
	// last is dropped.
	searchSeq int
}

// New returns the picker of the sessions of store, listed and searched
// from ix, the index of store.
func New(store *session.Store, ix *index.Shared, th *theme.Theme) Model {
	// Every colour from the theme, so the light theme's contrast holds here
	// too (the list's own greys are too light on white).
	text, muted, subtle, accent := th.Styles.UserText.GetForeground(), th.Styles.Muted.GetForeground(), th.Styles.Subtle.GetForeground(), th.Styles.Accent.GetForeground()
	d := list.NewDefaultDelegate()
	d.Styles.NormalTitle = d.Styles.NormalTitle.Foreground(text)
	d.Styles.NormalDesc = d.Styles.NormalDesc.Foreground(muted)
	d.Styles.DimmedTitle = d.Styles.DimmedTitle.Foreground(muted)
	d.Styles.DimmedDesc = d.Styles.DimmedDesc.Foreground(subtle)
	d.Styles.SelectedTitle = d.Styles.SelectedTitle.Foreground(accent).BorderForeground(accent)
	d.Styles.SelectedDesc = d.Styles.SelectedDesc.Foreground(muted).BorderForeground(accent)
	l := list.New(nil, d, 0, 0)
	l.Title = "sessions"
	l.Styles.Title = th.Styles.HeaderTitle
	l.Styles.StatusBar = l.Styles.StatusBar.Foreground(subtle)
	l.Styles.StatusEmpty = l.Styles.StatusEmpty.Foreground(subtle)
	l.Styles.StatusBarActiveFilter = l.Styles.StatusBarActiveFilter.Foreground(text)
	l.Styles.StatusBarFilterCount = l.Styles.StatusBarFilterCount.Foreground(subtle)
	l.Styles.NoItems = l.Styles.NoItems.Foreground(subtle)
	l.Styles.FilterPrompt = l.Styles.FilterPrompt.Foreground(accent)
	l.Styles.FilterCursor = l.Styles.FilterCursor.Foreground(accent)
	l.Styles.DividerDot = l.Styles.DividerDot.Foreground(subtle)
	l.Styles.ActivePaginationDot = l.Styles.ActivePaginationDot.Foreground(muted)
	l.Styles.InactivePaginationDot = l.Styles.InactivePaginationDot.Foreground(subtle)
	l.Help.Styles.ShortKey, l.Help.Styles.FullKey = th.Styles.Muted, th.Styles.Muted
	l.Help.Styles.ShortDesc, l.Help.Styles.FullDesc = th.Styles.Subtle, th.Styles.Subtle
	l.Help.Styles.ShortSeparator, l.Help.Styles.FullSeparator = th.Styles.Subtle, th.Styles.Subtle
	l.SetStatusBarItemName("session", "sessions")
	l.DisableQuitKeybindings()
	keys := newPickerKeys()
	l.AdditionalShortHelpKeys = func() []key.Binding { return []key.Binding{keys.Resume, keys.Rename, keys.Delete, keys.Search} }
	in := textinput.New()
	in.CharLimit = 200
	return Model{store: store, index: ix, th: th, keys: keys, list: l, input: in}
}

// ListedMsg carries the sessions for the picker, or the hits of the
// search numbered seq.
type ListedMsg struct {
	items []list.Item
	err   error
	query string
	seq   int
	// window is index.Result.Window: more matched than were ranked.
	window int
	// note says what the answer may lack: the index was busy.
	note string
}

// listSessions loads every session for the picker, from the index, which
// it first brings up to date with the journals; while another holds the
// index's lock, from the index as it was and the journals that changed
// since (index.ListCurrent).
// seq is the number of the search it answers: the last one.
func listSessions(ix *index.Shared, seq int) tea.Cmd {
	return func() tea.Msg {
		idx, err := ix.Get()
		if err == nil {
			_, err = idx.Sync(nil)
		}
		var infos []session.Info
		note := ""
		switch {
		case index.IsBusy(err):
			note = busyNote + ": the sessions changed since are read from their journals"
			infos, err = idx.ListCurrent()
		case err == nil:
			infos, err = idx.List()
		}
		items := make([]list.Item, 0, len(infos))
		for _, in := range infos {
			items = append(items, sessionItem{info: in})
		}
		return ListedMsg{items: items, err: err, seq: seq, note: note}
	}
}

// busyNote starts the picker's note while another program holds the
// index's lock.
const busyNote = "the index is busy (another program is writing it)"

// sessionsIn counts the sessions items are of.
func sessionsIn(items []list.Item) int {
	seen := map[string]bool{}
	for _, it := range items {
		seen[it.(sessionItem).info.ID] = true
	}
	return len(seen)
}

// searchLimit is the most hits the picker shows, and searchWindow how
// many of the newest matches of a common word it ranks: together, they
// keep a keystroke's search in some milliseconds in years of sessions
// (BenchmarkSearchKeystroke).
const (
	searchLimit  = 50
	searchWindow = 2000
)

// searchSessions finds what was typed in the index, as the search
// numbered seq.
func searchSessions(ctx context.Context, ix *index.Shared, typed string, seq int) tea.Cmd {
	return func() tea.Msg {
		idx, err := ix.Get()
		var res index.Result
		if err == nil {
			// The last word as a prefix too (capy finds capybara), as
			// sessions search does.
			res, err = idx.SearchContext(ctx, index.Query{Text: typed, Limit: searchLimit, RankWindow: searchWindow, PrefixLast: true, Stem: true})
		}
		note := ""
		if err == nil && idx.Stale() {
			note = busyNote + ": searched as it was, the newest changes may be missing"
		}
		hits := res.Hits
		items := make([]list.Item, 0, len(hits))
		for i := range hits {
			h := hits[i]
			items = append(items, sessionItem{info: session.Info{ID: h.Session, Title: h.Title}, match: &h})
		}
		return ListedMsg{items: items, err: err, query: typed, seq: seq, window: res.Window, note: note}
	}
}

// PickedMsg asks the root to resume a session. EntryID, set when the
// session was found by a text search, is the entry that matched: the
// conversation opens scrolled to it.
type PickedMsg struct{ ID, EntryID string }

// DoneMsg asks the root to go back to the chat, or, with Quit, to quit:
// esc on the picker that was muse's first screen.
type DoneMsg struct{ Quit bool }

// ChangedMsg reports a rename or delete.
type ChangedMsg struct {
	What string
	Err  error
}

func renameSession(store *session.Store, id, title string) tea.Cmd {
	return func() tea.Msg {
		return ChangedMsg{What: "renamed", Err: store.Rename(id, title)}
	}
}

func deleteSession(store *session.Store, id string) tea.Cmd {
	return func() tea.Msg {
		return ChangedMsg{What: "deleted", Err: store.Delete(id)}
	}
}

// RenameOpenMsg asks the root to rename the session it has open.
type RenameOpenMsg struct{ Title string }

// SetStatus shows a line of news, such as why a session could not be
// resumed.
func (p Model) SetStatus(s string) Model {
	p.status = s
	return p
}

// Open starts the picker: it loads the list. open is the id of the session
// the chat screen shows, if it was saved.
func (p Model) Open(open string) (Model, tea.Cmd) {
	p.mode, p.status, p.open, p.first = pickBrowse, "loading…", open, false
	p.list.Title = "sessions"
	keys := p.keys
	p.list.AdditionalFullHelpKeys = func() []key.Binding {
		return []key.Binding{keys.Resume, keys.Rename, keys.Delete, keys.Search, keys.Back}
	}
	p.list.ResetFilter()
	return p, listSessions(p.index, p.searchSeq)
}

// OpenFirst starts the picker as muse's first screen (muse -r alone): no
// chat is behind it, so esc quits muse, with no session made, and ctrl+n
// goes to a new session instead; both say so in its help.
func (p Model) OpenFirst() (Model, tea.Cmd) {
	p, cmd := p.Open("")
	p.first = true
	p.list.Title = "resume a session"
	keys := p.keys
	p.list.AdditionalFullHelpKeys = func() []key.Binding {
		return []key.Binding{keys.Resume, keys.Rename, keys.Delete, keys.Search, keys.Quit, keys.New}
	}
	return p, cmd
}

// Leave leaves the picker as esc does on its list, whatever it shows (a
// rename, a search, a question): back to the chat, or, on muse's first
// screen (muse -r), out of muse. It is the screen's quit key (ctrl+c),
// which a user presses to get out.
func (p Model) Leave() (Model, tea.Cmd) {
	if p.stopSearch != nil {
		p.stopSearch() // nobody will see its answer
		p.stopSearch = nil
	}
	p.searchSeq++ // an answer on its way is dropped
	p.mode = pickBrowse
	p.input.Blur()
	quit := p.first
	return p, func() tea.Msg { return DoneMsg{Quit: quit} }
}

// SetSize sets the picker's size.
func (p Model) SetSize(width, height int) Model {
	p.width, p.height = width, height
	p.list.SetSize(width, max(height-2, 3))
	p.input.Width = max(width-20, 10)
	return p
}

// Update handles keys and the picker's messages.
func (p Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case ListedMsg:
		if msg.seq != p.searchSeq {
			return p, nil // the answer to a query typed over since
		}
		if p.status == "loading…" || p.status == "searching…" {
			p.status = ""
		}
		p.searchErr = msg.err
		if msg.err != nil && index.IsSyntax(msg.err) {
			p.status = msg.err.Error()
			return p, nil // the hits of the last query that could be read stay
		} else if msg.err != nil {
			p.status = "could not list sessions: " + msg.err.Error()
		} else if msg.query != "" {
			best := ""
			if msg.window != 0 {
				best = fmt.Sprintf(" (the best of the newest %d)", msg.window)
			}
			p.status = fmt.Sprintf("%s in %s for %q%s · esc shows all", textfmt.Plural(len(msg.items), "match"),
				textfmt.Plural(sessionsIn(msg.items), "session"), msg.query, best)
		}
		if msg.note != "" && msg.err == nil {
			p.status = strings.TrimPrefix(p.status+" · "+msg.note, " · ")
		}
		if p.first && msg.err == nil && msg.query == "" && len(msg.items) == 0 {
			p.status = "no session saved yet: ctrl+n starts one, esc quits"
		}
		// The list counts its rows: hits, when they are a search's.
		if msg.query != "" {
			p.list.SetStatusBarItemName("match", "matches")
		} else {
			p.list.SetStatusBarItemName("session", "sessions")
		}
		_ = p.list.SetItems(msg.items) // the filter, if any, runs here, not in a command
		p.refilter()
		if msg.query != "" {
			p.list.Select(0) // the best hit, whatever row was chosen before
		}
		if p.reselect != "" {
			if !p.selectID(p.reselect) && p.list.FilterState() != list.Unfiltered {
				// The new title no longer matches the filter: show all.
				p.list.ResetFilter()
				p.selectID(p.reselect)
			}
			p.reselect = ""
		}
		return p, nil
	case list.FilterMatchesMsg:
		// The list filters in commands, whose answers can arrive out of
		// order: the picker filters at once instead (see refilter).
		return p, nil
	case ChangedMsg:
		if msg.Err != nil {
			p.status = msg.Err.Error()
			return p, nil
		}
		p.status = msg.What
		if item, ok := p.list.SelectedItem().(sessionItem); ok {
			p.reselect = item.info.ID
		}
		return p, listSessions(p.index, p.searchSeq)
	case tea.KeyMsg:
		return p.key(msg)
	}
	var cmd tea.Cmd
	p.list, cmd = p.list.Update(msg)
	return p, cmd
}

func (p Model) key(msg tea.KeyMsg) (Model, tea.Cmd) {
	if p.mode == pickBrowse && !p.list.SettingFilter() && msg.Type == tea.KeyRunes && len(msg.Runes) > 1 {
		return p.burst(msg)
	}
	if p.mode == pickBrowse && !strings.Contains(p.status, "for \"") {
		p.status = ""
	}
	if p.mode == pickSearch && p.refused(msg) {
		return p, nil
	}
	switch p.mode {
	case pickSearch:
		switch msg.Type {
		case tea.KeyEsc:
			// Leave the search: every session again.
			p.mode = pickBrowse
			p.input.SetValue("")
			return p, p.search()
		case tea.KeyUp, tea.KeyDown, tea.KeyPgUp, tea.KeyPgDown:
			// The hits, while the query stays open.
			var cmd tea.Cmd
			p.list, cmd = p.list.Update(msg)
			return p, cmd
		case tea.KeyEnter:
			if index.IsSyntax(p.searchErr) {
				return p, nil // the query stays to be fixed
			}
			p.mode = pickBrowse
			if p.status == "searching…" {
				return p, nil // the hits of what was typed are on their way: enter again opens one
			}
			if item, ok := p.list.SelectedItem().(sessionItem); ok && item.match != nil {
				return p, pick(item)
			}
			return p, nil
		}
	}
	switch p.mode {
	case pickRename, pickSearch:
		switch msg.Type {
		case tea.KeyEsc:
			p.mode = pickBrowse
			return p, nil
		case tea.KeyEnter:
			text := strings.TrimSpace(p.input.Value())
			mode := p.mode
			p.mode = pickBrowse
			if text == "" {
				return p, nil
			}
			if mode == pickRename && p.target.ID == p.open && p.open != "" {
				return p, func() tea.Msg { return RenameOpenMsg{Title: text} }
			}
			if mode == pickRename {
				return p, renameSession(p.store, p.target.ID, text)
			}
			return p, nil // the hits of what was typed show already
		}
		var cmd tea.Cmd
		before := p.input.Value()
		p.input, cmd = p.input.Update(msg)
		if p.mode == pickSearch && p.input.Value() != before {
			return p, tea.Batch(cmd, p.search())
		}
		return p, cmd
	case pickConfirmDelete:
		p.mode = pickBrowse
		if msg.String() == "y" {
			return p, deleteSession(p.store, p.target.ID)
		}
		p.status = "kept"
		return p, nil
	}
	if p.list.SettingFilter() {
		before := p.list.FilterValue()
		p.list, _ = p.list.Update(msg) // its command only filters: done below
		if p.list.FilterValue() != before {
			p.refilter()
		}
		return p, nil
	}
	item, ok := p.list.SelectedItem().(sessionItem)
	switch {
	case key.Matches(msg, p.keys.Back) && p.list.Help.ShowAll:
		p.list.Help.ShowAll = false // esc closes the help, and only the help
		p.list.SetSize(p.list.Width(), p.list.Height())
		return p, nil
	case key.Matches(msg, p.keys.Back):
		if p.list.FilterState() != list.Unfiltered {
			p.list.ResetFilter()
			return p, nil
		}
		if strings.Contains(p.status, "for \"") {
			p.status = ""
			p.searchSeq++ // a search still on its way is dropped
			return p, listSessions(p.index, p.searchSeq)
		}
		quit := p.first
		return p, func() tea.Msg { return DoneMsg{Quit: quit} }
	case p.first && key.Matches(msg, p.keys.New):
		return p, func() tea.Msg { return DoneMsg{} }
	case key.Matches(msg, p.keys.Resume) && ok:
		return p, pick(item)
	case key.Matches(msg, p.keys.Rename) && ok:
		p.mode, p.target = pickRename, item.info
		p.input.SetValue(item.info.Title)
		p.input.Prompt = "new title: "
		p.input.CursorEnd()
		return p, p.input.Focus()
	case key.Matches(msg, p.keys.Delete) && ok && item.info.ID == p.open && p.open != "":
		p.status = "this session is open: ctrl+n starts a new one, then it can be deleted"
		return p, nil
	case key.Matches(msg, p.keys.Delete) && ok:
		p.mode, p.target = pickConfirmDelete, item.info
		return p, nil
	case key.Matches(msg, p.keys.Search):
		p.mode = pickSearch
		p.input.SetValue("")
		p.input.Prompt = "search all text: "
		return p, p.input.Focus()
	}
	var cmd tea.Cmd
	p.list, cmd = p.list.Update(msg)
	return p, cmd
}

// refused reports whether msg, typed into the search, is refused, and
// says why in the status: a NUL byte (ctrl+@), which the input would drop
// without a word, and text that would make the query longer than the
// input holds, which it would cut. The query stays as it was.
func (p *Model) refused(msg tea.KeyMsg) bool {
	if msg.Type == tea.KeyCtrlAt || msg.Type == tea.KeyRunes && slices.Contains(msg.Runes, 0) {
		p.status = "a NUL byte (ctrl+@) cannot be searched for: it was not typed"
		return true
	}
	if msg.Type != tea.KeyRunes {
		return false
	}
	if n := utf8.RuneCountInString(p.input.Value()) + len(msg.Runes); n > p.input.CharLimit {
		p.status = fmt.Sprintf("a search holds at most %d characters, and this would make %d: it was not typed; search for a few words of it", p.input.CharLimit, n)
		return true
	}
	return false
}

// searchHelp is the help line while a search is typed.
const searchHelp = "↑/↓ choose • enter open • esc all sessions • ctrl+u clear"

// pick asks the root to open item, on its hit's entry if it is one.
func pick(item sessionItem) tea.Cmd {
	picked := PickedMsg{ID: item.info.ID}
	if item.match != nil {
		picked.EntryID = item.match.Entry
	}
	return func() tea.Msg { return picked }
}

// burst handles keys that arrived together as one message, as a fast
// typist, a slow link or a paste sends them (the chat's input marks them
// as pasted text): when the first opens the text search or the filter,
// the rest is typed into it, so that "f" and a query typed at once search
// for the query; any other burst is dropped, so that pasted text never
// acts as the list's keys (d then y would delete a session).
func (p Model) burst(msg tea.KeyMsg) (Model, tea.Cmd) {
	first := tea.KeyMsg{Type: tea.KeyRunes, Runes: msg.Runes[:1], Alt: msg.Alt}
	q, cmd := p.key(first)
	if q.mode != pickSearch && !q.list.SettingFilter() {
		p.status = "keys that came at once were not taken: type them one at a time"
		return p, nil
	}
	rest := msg
	rest.Runes = msg.Runes[1:]
	if q.mode == pickSearch {
		rest.Paste = false // typed, not pasted: the input takes it either way
	}
	q, cmd2 := q.Update(rest)
	return q, tea.Batch(cmd, cmd2)
}

// search starts a search of what is typed, numbered anew so that the
// answers of the searches before it are dropped; an empty query lists
// every session again.
func (p *Model) search() tea.Cmd {
	p.searchSeq++
	if p.stopSearch != nil {
		p.stopSearch() // typed over: its answer would be dropped
		p.stopSearch = nil
	}
	text := strings.TrimSpace(p.input.Value())
	if text == "" {
		p.status = ""
		return listSessions(p.index, p.searchSeq)
	}
	p.status = "searching…"
	ctx, stop := context.WithCancel(context.Background())
	p.stopSearch = stop
	return searchSessions(ctx, p.index, text, p.searchSeq)
}

// selectID selects the session id among the rows shown, if it is there.
func (p *Model) selectID(id string) bool {
	for i, it := range p.list.VisibleItems() {
		if it.(sessionItem).info.ID == id {
			p.list.Select(i)
			return true
		}
	}
	return false
}

// refilter filters the list at once by the text of its filter, keeping the
// filter's state (being typed, or applied).
func (p *Model) refilter() {
	state := p.list.FilterState()
	if state == list.Unfiltered {
		return
	}
	value := p.list.FilterValue()
	if value == "" && state == list.Filtering {
		return // everything shows while the filter is empty
	}
	p.list.SetFilterText(value)
	if state == list.Filtering {
		p.list.SetFilterState(list.Filtering)
	}
}

// inputLine draws a one-line input with its cursor in reverse video, which
// shows with NO_COLOR too (lipgloss then drops every style).
func inputLine(in textinput.Model) string {
	value := []rune(sanitize.Line(in.Value()))
	pos := min(max(in.Position(), 0), len(value))
	at, after := " ", ""
	if pos < len(value) {
		at, after = string(value[pos]), string(value[pos+1:])
	}
	return in.Prompt + string(value[:pos]) + "\x1b[7m" + at + "\x1b[27m" + after
}

// shortHelp is the list's key line fitted to the width: ↑ and ↓ as one
// key, then keys dropped from the middle, so that the last (? more) stays.
func (p Model) shortHelp() []key.Binding {
	keys := p.list.ShortHelp()
	var out []key.Binding
	for _, b := range keys {
		switch {
		case b.Help() == p.list.KeyMap.CursorDown.Help():
			continue
		case b.Help() == p.list.KeyMap.CursorUp.Help():
			b = key.NewBinding(key.WithKeys(append(b.Keys(), p.list.KeyMap.CursorDown.Keys()...)...), key.WithHelp("↑↓", "move"))
		}
		out = append(out, b)
	}
	if p.first && len(out) > 0 && p.list.FilterState() == list.Unfiltered {
		// What leaves the first screen, next to moving: kept when narrow.
		// While a filter is typed or applied, esc ends the filter, as the
		// list's own help says, and quits nothing.
		out = slices.DeleteFunc(out, func(b key.Binding) bool { return b.Help() == p.keys.Resume.Help() })
		out = slices.Insert(out, 1, p.keys.Resume, p.keys.Quit, p.keys.New)
	}
	return keyline.Fit(p.list.Help, out, max(p.width-2, 1))
}

// View draws the list and, below it, the prompt or status line.
func (p Model) View() string {
	st := p.th.Styles
	var bottom string
	switch p.mode {
	case pickRename:
		bottom = inputLine(p.input)
	case pickSearch:
		// What the search found, or why the query cannot be read, as it
		// is typed.
		bottom = inputLine(p.input)
		if p.status != "" {
			bottom += "  " + st.Muted.Render(sanitize.Line(p.status))
		}
	case pickConfirmDelete:
		bottom = st.Warning.Render(fmt.Sprintf("delete %q (%s)? y deletes, any other key keeps it", sanitize.Line(p.target.Title), p.target.ID))
	default:
		bottom = st.Muted.Render(sanitize.Line(p.status))
	}
	view := p.list.View()
	// With ? the list shows its full help, which already names every key:
	// the short line would repeat it, in place of the help's last line.
	if i := strings.LastIndexByte(view, '\n'); i >= 0 && (p.mode == pickSearch || !p.list.Help.ShowAll) {
		if p.mode == pickSearch {
			// The list's help names its own keys, which the query takes now.
			view = view[:i+1] + "  " + st.Muted.Render(textfmt.Truncate(searchHelp, max(p.width-2, 1), "…"))
		} else {
			view = view[:i+1] + "  " + p.list.Help.ShortHelpView(p.shortHelp())
		}
	}
	return view + "\n\n" + lipgloss.NewStyle().MaxWidth(max(p.width, 1)).Render(bottom)
}
