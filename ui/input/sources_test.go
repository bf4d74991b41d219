package input

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// fakeSources lists fixed sources, counting how often it is asked.
type fakeSources struct {
	list  []Source
	asked *int
}

func (f fakeSources) MentionSources() []Source {
	*f.asked++
	return f.list
}

// The @ menu lists the MCP resources and generated images the screen
// gives (WithSources) after the files, filtered by what is typed; they
// are asked for in the walk's command, once per opening, never in Update;
// taking one writes its mention.
func TestMenuListsSources(t *testing.T) {
	t.Chdir(t.TempDir())
	asked := 0
	src := fakeSources{asked: &asked, list: []Source{
		{Mention: "@ev:file:///notes.md", Label: "ev:file:///notes.md", Detail: "notes · MCP resource"},
		{Mention: "@/data/images/s1/turn-1-image-0-ab.png", Label: "s1/turn-1-image-0-ab.png", Detail: "generated image"},
	}}
	m := sized(t, 80, 24).WithSources(src)
	m, cmd := m.Update(runes("@"))
	if asked != 0 || cmd == nil {
		t.Fatalf("asked %d times in Update, command %v", asked, cmd != nil)
	}
	m = runCmds(m, cmd)
	if asked != 1 {
		t.Fatalf("asked %d times by the command", asked)
	}
	hint := strings.Join(m.Hint(), "\n")
	if !strings.Contains(hint, "ev:file:///notes.md") || !strings.Contains(hint, "MCP resource") || !strings.Contains(hint, "turn-1-image-0-ab.png") {
		t.Fatalf("the menu:\n%s", hint)
	}
	m = typeKeys(t, m, "ev:")
	hint = strings.Join(m.Hint(), "\n")
	if !strings.Contains(hint, "▸ ev:file:///notes.md") || strings.Contains(hint, "turn-1") {
		t.Fatalf("filtered by ev: the menu:\n%s", hint)
	}
	m = update(m, tea.KeyMsg{Type: tea.KeyTab})
	if m.Value() != "@ev:file:///notes.md " {
		t.Errorf("took %q", m.Value())
	}
	if asked != 1 {
		t.Errorf("asked %d times for one opening", asked)
	}
	m = typeKeys(t, sized(t, 80, 24).WithSources(src), "see @image")
	if hint := strings.Join(m.Hint(), "\n"); !strings.Contains(hint, "▸ s1/turn-1-image-0-ab.png") {
		t.Errorf("an image found by its detail: the menu:\n%s", hint)
	}
}
