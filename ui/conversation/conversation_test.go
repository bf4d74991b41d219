package conversation

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"

	"muse/api"
	"muse/session"
	"muse/theme"
)

// testKeys are the scroll keys of muse's default key map.
func testKeys() KeyMap {
	return KeyMap{
		PageUp:   key.NewBinding(key.WithKeys("pgup")),
		PageDown: key.NewBinding(key.WithKeys("pgdown")),
		HalfUp:   key.NewBinding(key.WithKeys("ctrl+u")),
		HalfDown: key.NewBinding(key.WithKeys("ctrl+d")),
		Top:      key.NewBinding(key.WithKeys("home")),
		Bottom:   key.NewBinding(key.WithKeys("end")),
	}
}

func testConversation(t testing.TB, n int) Model {
	th, _ := theme.New("dark", true)
	r := &Renderer{th: th, md: newMarkdown(th.Markdown, termenv.Ascii)}
	c := New(r, testKeys())
	var es []session.Entry
	for i := 0; i < n; i++ {
		es = append(es, session.Entry{ID: fmt.Sprintf("e%d", i), Kind: session.KindUser, Text: fmt.Sprintf("message %d", i)})
	}
	return c.SetEntries(es).SetSize(40, 10)
}

func liveEntry(id, text string) session.Entry {
	return session.Entry{ID: id, Kind: session.KindAssistant, Status: session.StatusStreaming,
		Message: &api.Message{Content: []api.ContentBlock{{Type: api.BlockText, Text: text}}}}
}

func TestScrolledUpStreamDoesNotYank(t *testing.T) {
	c := testConversation(t, 20)
	live := liveEntry("live", "first line\n\n")
	c = c.Add(live)
	now := time.Now()
	c, _ = c.Update(tea.KeyMsg{Type: tea.KeyPgUp})
	if c.follow {
		t.Fatal("still following after page up")
	}
	before := c.View()
	for i := 0; i < 5; i++ {
		now = now.Add(time.Second)
		live.Message.Content[0].Text += fmt.Sprintf("paragraph %d\n\n", i)
		c = c.UpdateLive(live, now)
	}
	after := c.View()
	if !strings.Contains(after, "new lines") {
		t.Errorf("no new-lines notice:\n%s", after)
	}
	beforeLines, afterLines := strings.Split(before, "\n"), strings.Split(after, "\n")
	if strings.Join(beforeLines[:len(beforeLines)-1], "\n") != strings.Join(afterLines[:len(afterLines)-1], "\n") {
		t.Errorf("view moved:\n%s\n---\n%s", before, after)
	}
	c, _ = c.Update(tea.KeyMsg{Type: tea.KeyEnd})
	if v := c.View(); !c.follow || !strings.Contains(v, "paragraph 4") || strings.Contains(v, "new lines") {
		t.Errorf("end did not jump back:\n%s", v)
	}
}

func TestResizeKeepsScrollPosition(t *testing.T) {
	c := testConversation(t, 60)
	for i := 0; i < 5; i++ {
		c, _ = c.Update(tea.KeyMsg{Type: tea.KeyPgUp})
	}
	anchor := c.anchor
	topEntry := c.entries[anchor].Text
	c = c.SetSize(25, 10) // narrower: every entry re-wraps
	if c.anchor != anchor || !strings.Contains(c.View(), topEntry) {
		t.Errorf("after narrowing, anchor %d (was %d), view:\n%s", c.anchor, anchor, c.View())
	}
	c = c.SetSize(70, 12)
	if c.anchor != anchor || !strings.Contains(c.View(), topEntry) {
		t.Errorf("after widening, anchor %d (was %d), view:\n%s", c.anchor, anchor, c.View())
	}
	// At the bottom, a resize stays at the bottom.
	c, _ = c.Update(tea.KeyMsg{Type: tea.KeyEnd})
	c = c.SetSize(30, 8)
	if !c.follow || !strings.Contains(c.View(), "message 59") {
		t.Errorf("bottom lost on resize:\n%s", c.View())
	}
}

func TestViewTouchesOnlyVisibleEntries(t *testing.T) {
	c := testConversation(t, 5000)
	_ = c.View()
	if n := len(c.cache); n > 20 {
		t.Errorf("View rendered %d entries for a 10-line screen", n)
	}
	c, _ = c.Update(tea.KeyMsg{Type: tea.KeyHome})
	_ = c.View()
	if n := len(c.cache); n > 40 {
		t.Errorf("jumping to the top rendered %d entries", n)
	}
}

func TestThinkingStreamsLiveThenFolds(t *testing.T) {
	c := testConversation(t, 0).SetSize(60, 20)
	e := session.Entry{ID: "a", Kind: session.KindAssistant, Status: session.StatusStreaming,
		Message: &api.Message{Content: []api.ContentBlock{{Type: api.BlockThinking, Thinking: "step one\nstep two"}}}}
	c = c.Add(e)
	if v := c.View(); !strings.Contains(v, "step two") {
		t.Errorf("live thinking not shown:\n%s", v)
	}
	e.Message.Content = append(e.Message.Content, api.ContentBlock{Type: api.BlockText, Text: "The answer."})
	c = c.UpdateLive(e, time.Now())
	if v := c.View(); strings.Contains(v, "step two") || !strings.Contains(v, "thinking · 2 lines") {
		t.Errorf("thinking did not fold once its block ended:\n%s", v)
	}
}

// Counts agree in number: one new line, one line of thinking.
func TestCountsAgreeInNumber(t *testing.T) {
	c := testConversation(t, 20)
	c, _ = c.Update(tea.KeyMsg{Type: tea.KeyPgUp})
	c = c.Add(session.Entry{ID: "one", Kind: session.KindNotice, Text: "x"})
	if v := c.View(); !strings.Contains(v, "↓ 2 new lines") {
		t.Errorf("two new lines (a blank one and the notice):\n%s", v)
	}
	c = testConversation(t, 20)
	c, _ = c.Update(tea.KeyMsg{Type: tea.KeyPgUp})
	c.newLines = 1
	if v := c.View(); !strings.Contains(v, "↓ 1 new line ·") {
		t.Errorf("one new line:\n%s", v)
	}
	r := c.r
	e := session.Entry{ID: "t", Kind: session.KindAssistant, Message: &api.Message{Content: []api.ContentBlock{{Type: api.BlockThinking, Thinking: "one thought"}}}}
	if got := r.entry(&e, 60, nil); !strings.Contains(got, "thinking · 1 line") || strings.Contains(got, "1 lines") {
		t.Errorf("thinking of one line: %q", got)
	}
}

func TestDropOpenTableRow(t *testing.T) {
	for in, want := range map[string]string{
		"| a | b |\n|---|---|\n| 1 | 2 |\n| 3":    "| a | b |\n|---|---|\n| 1 | 2 |\n",
		"| a | b |\n|---|---|\n| 1 | 2 |\n|":      "| a | b |\n|---|---|\n| 1 | 2 |\n",
		"| a | b |\n|---|---|\n| 1 | 2 |":         "| a | b |\n|---|---|\n| 1 | 2 |",
		"| a | b |\n|---|---|\n| 1 | 2 |\n":       "| a | b |\n|---|---|\n| 1 | 2 |\n",
		"a sentence that stops in the midd":       "a sentence that stops in the midd",
		"text | with a pipe in the middle of it ": "text | with a pipe in the middle of it ",
	} {
		if got := dropOpenTableRow(in); got != want {
			t.Errorf("dropOpenTableRow(%q) = %q, want %q", in, got, want)
		}
	}
}
