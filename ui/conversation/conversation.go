package conversation

import (
	"fmt"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"muse/session"
	"muse/ui/textfmt"
)

// wheelLines is how far one mouse wheel step scrolls.
const wheelLines = 3

// Model shows the entries in a virtual scroller: View touches only the
// entries on screen, so its cost does not grow with the conversation.
// Finished entries are rendered once per width and cached; the streaming
// entry is re-rendered at most once a frame, and only its unstable tail.
//
// The scroll position is an anchor: the top line shown is line offset of
// entry anchor. In follow mode the view sticks to the bottom instead.
type Model struct {
	keys    KeyMap
	r       *Renderer
	entries []session.Entry
	cache   map[string][]string // rendered lines of finished entries at width
	width   int
	height  int

	anchor, offset int
	follow         bool
	// newLines counts lines that arrived below the view while scrolled up.
	newLines int

	live *liveRender
	// view memoizes View; gen counts changes to the entries.
	view *convMemo
	// selected is the id of the entry selected in selection mode, drawn
	// with a bar down its left side; "" when none is.
	selected string
	// badges tells where each entry of the active branch stands among its
	// siblings: an entry with siblings shows " ‹ 2/3 ›" in its header.
	badges map[string]string
	// notes numbers the screen's own entries (see Note).
	notes int
}

// KeyMap holds the keys that scroll the conversation.
type KeyMap struct {
	PageUp, PageDown, HalfUp, HalfDown, Top, Bottom key.Binding
}

// convMemo is the last View and what it was made from. It is shared by the
// copies of a conversation; gen moves on with every change of the entries.
type convMemo struct {
	gen int
	textfmt.Memo
}

// touch records that the entries changed, so View draws them again.
func (c Model) touch() { c.view.gen++ }

// liveRender is the render state of the streaming entry.
type liveRender struct {
	idx   int
	lines []string
	last  time.Time
	md    map[int]*mdStream // per text block
	// grew counts lines the entry gained while the view was scrolled up.
	grew int
	// rev counts renders, for View's memo.
	rev int
}

// New returns an empty conversation that renders with r, scrolls with keys
// and follows the bottom.
func New(r *Renderer, keys KeyMap) Model {
	return Model{keys: keys, r: r, cache: map[string][]string{}, follow: true, view: &convMemo{}}
}

// SetSize sets the size. A new width re-wraps everything lazily and keeps
// the top entry in place, scaled within itself.
func (c Model) SetSize(width, height int) Model {
	height = max(height, 1)
	if width == c.width && height == c.height {
		return c
	}
	if width != c.width {
		c.touch()
		var oldH int
		if !c.follow && c.anchor < len(c.entries) && c.width > 0 {
			oldH = c.entryHeight(c.anchor)
		}
		c.cache = map[string][]string{}
		c.width = width
		if c.live != nil {
			c.live.md = nil
			c.renderLive()
		}
		if oldH > 0 {
			c.offset = c.offset * c.entryHeight(c.anchor) / oldH
		}
	}
	c.height = height
	if !c.follow && c.atEnd() {
		c = c.CaughtUp()
	}
	return c
}

// Update scrolls on keys and the mouse wheel.
func (c Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		switch {
		case key.Matches(msg, c.keys.PageUp):
			c = c.scroll(-max(c.height-1, 1))
		case key.Matches(msg, c.keys.PageDown):
			c = c.scroll(max(c.height-1, 1))
		case key.Matches(msg, c.keys.HalfUp):
			c = c.scroll(-max(c.height/2, 1))
		case key.Matches(msg, c.keys.HalfDown):
			c = c.scroll(max(c.height/2, 1))
		case key.Matches(msg, c.keys.Top):
			c.follow, c.anchor, c.offset = false, 0, 0
			if c.atEnd() {
				c.follow = true
			}
		case key.Matches(msg, c.keys.Bottom):
			c = c.CaughtUp()
		}
	case tea.MouseMsg:
		if msg.Action == tea.MouseActionPress {
			switch msg.Button {
			case tea.MouseButtonWheelUp:
				c = c.scroll(-wheelLines)
			case tea.MouseButtonWheelDown:
				c = c.scroll(wheelLines)
			}
		}
	}
	return c, nil
}

// scroll moves the view n lines (up when negative).
func (c Model) scroll(n int) Model {
	if len(c.entries) == 0 || n == 0 {
		return c
	}
	if c.follow {
		if n > 0 {
			return c
		}
		c.anchor, c.offset = c.bottomPosition()
		c.follow = false
	}
	c.offset += n
	for c.offset < 0 && c.anchor > 0 {
		c.anchor--
		c.offset += c.entryHeight(c.anchor)
	}
	if c.offset < 0 {
		c.offset = 0
	}
	for c.anchor < len(c.entries)-1 && c.offset >= c.entryHeight(c.anchor) {
		c.offset -= c.entryHeight(c.anchor)
		c.anchor++
	}
	if c.atEnd() {
		c = c.CaughtUp()
	}
	return c
}

// bottomPosition is the anchor that shows the last screenful.
func (c Model) bottomPosition() (int, int) {
	need := c.height
	for i := len(c.entries) - 1; i >= 0; i-- {
		h := c.entryHeight(i)
		if h >= need {
			return i, h - need
		}
		need -= h
	}
	return 0, 0
}

// atEnd reports whether at most a screenful remains from the anchor down.
func (c Model) atEnd() bool {
	left := -c.offset
	for i := c.anchor; i < len(c.entries); i++ {
		left += c.entryHeight(i)
		if left > c.height {
			return false
		}
	}
	return true
}

// View shows the visible lines. It is memoized on the scroll position, the
// size and the changes of the entries.
func (c Model) View() string {
	rev := -1
	if c.live != nil {
		rev = c.live.rev
	}
	k := textfmt.Key(c.view.gen, rev, c.follow, c.anchor, c.offset, c.width, c.height, c.unseenLines(), len(c.entries), c.selected)
	return c.view.Get(k, c.draw)
}

func (c Model) draw() string {
	out := make([]string, 0, c.height)
	if c.follow {
		// Gather from the bottom up, then show top-aligned.
		var rev []string
		for i := len(c.entries) - 1; i >= 0 && len(rev) < c.height; i-- {
			ls := c.entryLines(i)
			for k := len(ls) - 1; k >= 0 && len(rev) < c.height; k-- {
				rev = append(rev, ls[k])
			}
			if i > 0 && len(rev) < c.height {
				rev = append(rev, "")
			}
		}
		for k := len(rev) - 1; k >= 0; k-- {
			out = append(out, rev[k])
		}
	} else {
		i, k := c.anchor, c.offset
		for len(out) < c.height && i < len(c.entries) {
			if k < c.entryHeight(i) {
				out = append(out, c.lineAt(i, k))
				k++
				continue
			}
			i, k = i+1, 0
		}
	}
	for len(out) < c.height {
		out = append(out, "")
	}
	if n := c.unseenLines(); !c.follow && n > 0 {
		out[len(out)-1] = c.r.th.Styles.NewLines.Render(fmt.Sprintf("↓ %s · end jumps there", textfmt.Plural(n, "new line")))
	}
	return strings.Join(out, "\n")
}

// entryHeight is the entry's lines plus the blank line that separates it from the one above.
func (c Model) entryHeight(i int) int {
	h := len(c.entryLines(i))
	if i > 0 {
		h++
	}
	return h
}

func (c Model) lineAt(i, k int) string {
	if i > 0 {
		if k == 0 {
			return ""
		}
		k--
	}
	return c.entryLines(i)[k]
}

// entryLines returns the rendered lines of entry i, rendering it on first use.
func (c Model) entryLines(i int) []string {
	if c.live != nil && i == c.live.idx {
		return c.live.lines
	}
	e := &c.entries[i]
	if e.ID == c.selected && e.ID != "" {
		return c.selectedLines(e)
	}
	if ls, ok := c.cache[e.ID]; ok {
		return ls
	}
	ls := c.withBadge(e.ID, strings.Split(c.r.entry(e, c.width, nil), "\n"))
	c.cache[e.ID] = ls
	return ls
}

// withBadge adds the entry's place among its siblings to its header, the
// first of its lines, when it has siblings.
func (c Model) withBadge(id string, lines []string) []string {
	if b := c.badges[id]; b != "" && len(lines) > 0 {
		lines[0] += c.r.th.Styles.Muted.Render(b)
	}
	return lines
}

// SetBadges sets what each entry's header shows of its place among its
// siblings, such as " ‹ 2/3 ›", by entry id; the entries whose badge
// changed are drawn again.
func (c Model) SetBadges(b map[string]string) Model {
	changed := false
	for id, badge := range b {
		if c.badges[id] != badge {
			c.forget(id)
			changed = true
		}
	}
	for id, badge := range c.badges {
		if _, ok := b[id]; !ok && badge != "" {
			c.forget(id)
			changed = true
		}
	}
	c.badges = b
	if changed {
		c.touch()
		if c.live != nil {
			c.renderLive()
		}
	}
	return c
}

// selectedLines renders the selected entry two columns narrower, behind a
// bar that shows without colour too.
func (c Model) selectedLines(e *session.Entry) []string {
	key := e.ID + "\x00selected"
	if ls, ok := c.cache[key]; ok {
		return ls
	}
	bar := c.r.th.Styles.Selected.Render("▌") + " "
	ls := c.withBadge(e.ID, strings.Split(c.r.entry(e, max(c.width-2, 12), nil), "\n"))
	for k, l := range ls {
		ls[k] = bar + l
	}
	c.cache[key] = ls
	return ls
}

// forget drops the renders of entry id.
func (c Model) forget(id string) {
	delete(c.cache, id)
	delete(c.cache, id+"\x00selected")
}

// Selected is the id of the entry drawn as selected, "" when none is.
func (c Model) Selected() string { return c.selected }

// Height is the number of lines View shows.
func (c Model) Height() int { return c.height }

// LiveRenders counts the renders of the streaming entry, 0 when none
// streams: tests and benchmarks check that only what changes is rendered.
func (c Model) LiveRenders() int {
	if c.live == nil {
		return 0
	}
	return c.live.rev
}

// Select draws the entry id as selected ("" selects none).
func (c Model) Select(id string) Model {
	if id != c.selected {
		c.touch()
		delete(c.cache, c.selected+"\x00selected")
		c.selected = id
	}
	return c
}

// Reveal scrolls as little as it can to show entry i whole, or its top
// when it is taller than the screen.
func (c Model) Reveal(i int) Model {
	if i < 0 || i >= len(c.entries) || c.width <= 0 {
		return c
	}
	if c.follow {
		c.anchor, c.offset = c.bottomPosition()
		c.follow = false
	}
	sep := 0
	if i > 0 {
		sep = 1 // the blank line above the entry
	}
	if i < c.anchor || (i == c.anchor && c.offset > sep) {
		c.anchor, c.offset = i, sep
		if c.atEnd() {
			c = c.CaughtUp()
		}
		return c
	}
	start := -c.offset
	for k := c.anchor; k < i; k++ {
		start += c.entryHeight(k)
	}
	start += sep
	h := len(c.entryLines(i))
	switch {
	case start >= 0 && start+h <= c.height:
		return c // already in view
	case h <= c.height:
		return c.scroll(start + h - c.height)
	default:
		return c.scroll(start)
	}
}

// Entries returns the conversation's entries.
func (c Model) Entries() []session.Entry { return c.entries }

// Has reports whether the conversation shows the entry id.
func (c Model) Has(id string) bool { return c.index(id) >= 0 }

// Index is where the entry id stands, or -1.
func (c Model) Index(id string) int { return c.index(id) }

// RevealID scrolls to show the entry id, as Reveal does, when it is shown.
func (c Model) RevealID(id string) Model {
	if id == "" {
		return c
	}
	return c.Reveal(c.index(id))
}

// index is where the entry id stands, or -1; the search starts at the end,
// where the entries that change are.
func (c Model) index(id string) int {
	for i := len(c.entries) - 1; i >= 0; i-- {
		if c.entries[i].ID == id {
			return i
		}
	}
	return -1
}

// Truncate drops the entries from i on, as when an edited prompt or a
// regenerated reply starts a new branch there.
func (c Model) Truncate(i int) Model {
	i = max(i, 0)
	if i >= len(c.entries) {
		return c
	}
	c.touch()
	for _, e := range c.entries[i:] {
		c.forget(e.ID)
	}
	c.entries = c.entries[:i:i]
	if c.live != nil && c.live.idx >= i {
		c.live = nil
	}
	if c.anchor >= len(c.entries) {
		c.anchor, c.offset = max(len(c.entries)-1, 0), 0
	}
	if c.atEnd() {
		c = c.CaughtUp()
	}
	return c
}

// SetEntries replaces every entry, as on resume or /clear.
func (c Model) SetEntries(es []session.Entry) Model {
	c.touch()
	c.entries = append([]session.Entry(nil), es...)
	c.live, c.selected = nil, ""
	c.cache = map[string][]string{}
	c.follow, c.newLines, c.anchor, c.offset = true, 0, 0, 0
	return c
}

// Note appends an entry of the screen's own, such as a notice, written at
// at: it gets an id no session entry has ("n1", "n2"…), and is never saved.
func (c Model) Note(e session.Entry, at time.Time) Model {
	c.notes++
	e.ID = fmt.Sprintf("n%d", c.notes)
	e.Time = at.UTC()
	return c.Add(e)
}

// Add appends an entry. A streaming entry becomes the live one.
func (c Model) Add(e session.Entry) Model {
	c.touch()
	c.entries = append(c.entries, e)
	i := len(c.entries) - 1
	if e.Status == session.StatusStreaming && e.Kind == session.KindAssistant {
		c.live = &liveRender{idx: i}
		c.renderLive()
	}
	if !c.follow && c.width > 0 {
		c.newLines += c.entryHeight(i)
	}
	return c
}

// LiveDue reports whether a frame, every, has passed since the streaming
// entry was last rendered: renders are throttled to one a frame.
func (c Model) LiveDue(now time.Time, every time.Duration) bool {
	return c.live != nil && now.Sub(c.live.last) >= every
}

// UpdateLive shows the streaming entry's new state, rendering its tail.
func (c Model) UpdateLive(e session.Entry, now time.Time) Model {
	if c.live == nil {
		return c
	}
	c.entries[c.live.idx] = e
	c.live.last = now
	c.renderLive()
	return c
}

// renderLive renders the streaming entry, reusing the rendered stable
// prefix of each text block.
func (c Model) renderLive() {
	l := c.live
	if c.width <= 0 {
		return
	}
	if l.md == nil {
		l.md = map[int]*mdStream{}
	}
	before := len(l.lines)
	text := func(i int, s string, width int) []string {
		st, ok := l.md[i]
		if !ok {
			st = &mdStream{live: true}
			l.md[i] = st
		}
		return st.lines(c.r.md, s, width)
	}
	l.lines = c.withBadge(c.entries[l.idx].ID, c.r.assistant(&c.entries[l.idx], max(c.width-BodyIndent, 10), text))
	l.rev++
	if !c.follow && before > 0 && len(l.lines) > before {
		l.grew += len(l.lines) - before
	}
}

// CaughtUp follows the bottom again and forgets the count of new lines.
func (c Model) CaughtUp() Model {
	c.follow, c.newLines = true, 0
	if c.live != nil {
		c.live.grew = 0
	}
	return c
}

// Finish replaces the live entry with its final state, rendered in full.
func (c Model) Finish(e session.Entry) Model {
	c.touch()
	if c.live == nil {
		return c.Replace(e)
	}
	i := c.live.idx
	before := c.entryHeight(i)
	c.newLines += c.live.grew
	c.entries[i] = e
	if c.live.md != nil && c.width > 0 {
		// The stable chunks render like the whole text (see safeCut): keep
		// them, and render only what is left, instead of everything again.
		c.renderLive()
		c.forget(e.ID)
		c.cache[e.ID] = c.live.lines
	} else {
		c.forget(e.ID)
	}
	c.live = nil
	if !c.follow {
		c.newLines += max(c.entryHeight(i)-before, 0)
	}
	return c
}

// Replace swaps the entry with e's ID for e.
func (c Model) Replace(e session.Entry) Model {
	c.touch()
	i := c.index(e.ID)
	if i < 0 {
		return c.Add(e)
	}
	c.entries[i] = e
	c.forget(e.ID)
	return c
}

// Remove drops the entry with the given ID.
func (c Model) Remove(id string) Model {
	c.touch()
	i := c.index(id)
	if i < 0 {
		return c
	}
	c.entries = append(c.entries[:i:i], c.entries[i+1:]...)
	c.forget(id)
	if c.live != nil {
		if c.live.idx == i {
			c.live = nil
		} else if c.live.idx > i {
			c.live.idx--
		}
	}
	if c.anchor >= len(c.entries) {
		c.anchor, c.offset = max(len(c.entries)-1, 0), 0
	}
	return c
}

// Rerender drops every cached render, as after a display setting changes.
func (c Model) Rerender() Model {
	c.touch()
	c.cache = map[string][]string{}
	if c.live != nil {
		c.live.md = nil
		c.renderLive()
	}
	return c
}

// unseenLines is how many lines arrived below the view while scrolled up.
func (c Model) unseenLines() int {
	n := c.newLines
	if c.live != nil {
		n += c.live.grew
	}
	return n
}

// Restart makes an existing entry live again, as when /continue extends it.
func (c Model) Restart(e session.Entry) Model {
	i := c.index(e.ID)
	c = c.Replace(e)
	if i >= 0 {
		c.live = &liveRender{idx: i}
		c.renderLive()
	}
	return c
}
