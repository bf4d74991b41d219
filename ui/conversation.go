package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/viewport"
	tea "github.com/charmbracelet/bubbletea"

	"muse/session"
)

// renderKey identifies a cached render: an entry at a width.
type renderKey struct {
	id    string
	width int
}

// conversation shows the entries in a scrollable viewport. Finished entries
// are rendered once per width and cached; only the streaming entry is
// rendered again as it grows.
type conversation struct {
	keys    KeyMap
	r       *renderer
	vp      viewport.Model
	entries []session.Entry
	cache   map[renderKey]string
	width   int
	height  int
	// live is the index of the streaming entry, or -1.
	live int
}

func newConversation(r *renderer, keys KeyMap) conversation {
	vp := viewport.New(0, 0)
	vp.KeyMap = viewport.KeyMap{} // the chat screen routes scroll keys itself
	vp.MouseWheelEnabled = true
	return conversation{keys: keys, r: r, vp: vp, cache: map[renderKey]string{}, live: -1}
}

// SetSize sets the conversation's size and re-wraps at a new width.
func (c conversation) SetSize(width, height int) conversation {
	follow := c.width == 0 || c.vp.AtBottom()
	if width != c.width {
		c.cache = map[renderKey]string{}
	}
	c.width, c.height = width, max(height, 1)
	c.vp.Width, c.vp.Height = width, c.height
	c = c.refresh()
	if follow {
		c = c.bottom()
	}
	return c
}

// Update scrolls on keys and the mouse wheel.
func (c conversation) Update(msg tea.Msg) (conversation, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.KeyMsg:
		switch {
		case key.Matches(msg, c.keys.PageUp):
			c.vp.PageUp()
		case key.Matches(msg, c.keys.PageDown):
			c.vp.PageDown()
		case key.Matches(msg, c.keys.HalfUp):
			c.vp.HalfPageUp()
		case key.Matches(msg, c.keys.HalfDown):
			c.vp.HalfPageDown()
		case key.Matches(msg, c.keys.Top):
			c.vp.GotoTop()
		case key.Matches(msg, c.keys.Bottom):
			c.vp.GotoBottom()
		}
		return c, nil
	case tea.MouseMsg:
		var cmd tea.Cmd
		c.vp, cmd = c.vp.Update(msg)
		return c, cmd
	}
	return c, nil
}

// View shows the visible part of the conversation.
func (c conversation) View() string { return c.vp.View() }

// Entries returns the conversation's entries.
func (c conversation) Entries() []session.Entry { return c.entries }

// SetEntries replaces every entry, as on resume.
func (c conversation) SetEntries(es []session.Entry) conversation {
	c.entries = append([]session.Entry(nil), es...)
	c.live = -1
	c.cache = map[renderKey]string{}
	return c.refresh().bottom()
}

// Add appends an entry and follows it if the view was at the bottom.
func (c conversation) Add(e session.Entry) conversation {
	follow := c.vp.AtBottom()
	c.entries = append(c.entries, e)
	if e.Status == session.StatusStreaming {
		c.live = len(c.entries) - 1
	}
	c = c.refresh()
	if follow {
		c = c.bottom()
	}
	return c
}

// Replace swaps the entry with e's ID for e.
func (c conversation) Replace(e session.Entry) conversation {
	for i := range c.entries {
		if c.entries[i].ID == e.ID {
			follow := c.vp.AtBottom()
			c.entries[i] = e
			delete(c.cache, renderKey{e.ID, c.width})
			if e.Status != session.StatusStreaming && c.live == i {
				c.live = -1
			}
			c = c.refresh()
			if follow {
				c = c.bottom()
			}
			return c
		}
	}
	return c.Add(e)
}

// Rerender drops every cached render, as after a display setting changes.
func (c conversation) Rerender() conversation {
	c.cache = map[renderKey]string{}
	return c.refresh()
}

func (c conversation) bottom() conversation {
	c.vp.GotoBottom()
	return c
}

// refresh rebuilds the viewport's content from cached renders.
func (c conversation) refresh() conversation {
	if c.width <= 0 {
		return c
	}
	parts := make([]string, 0, len(c.entries))
	for i := range c.entries {
		e := &c.entries[i]
		k := renderKey{e.ID, c.width}
		s, ok := c.cache[k]
		if !ok || i == c.live {
			s = c.r.entry(e, c.width)
			if i != c.live {
				c.cache[k] = s
			}
		}
		parts = append(parts, s)
	}
	offset := c.vp.YOffset
	c.vp.SetContent(strings.Join(parts, "\n\n"))
	c.vp.SetYOffset(offset)
	return c
}

// Remove drops the entry with the given ID.
func (c conversation) Remove(id string) conversation {
	for i := range c.entries {
		if c.entries[i].ID == id {
			c.entries = append(c.entries[:i:i], c.entries[i+1:]...)
			if c.live == i {
				c.live = -1
			} else if c.live > i {
				c.live--
			}
			return c.refresh()
		}
	}
	return c
}
