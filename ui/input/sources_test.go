package input

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
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
// gives (WithSources) with the files, filtered by what is typed; they
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

// With many files, the @ menu still shows the generated images and MCP
// resources on its first rows: with nothing typed they come first (their
// names are hard to type); a letter typed brings the files whose names
// start with it first, an image whose name merely holds it after them,
// and an image's own file name counts as its name, ahead of files that
// merely hold it. Before, they came after the 50 files, reachable only by
// ↑ or typing.
func TestMenuOrdersSourcesFirst(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	for i := range 60 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("n%02d.md", i)), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	asked := 0
	src := fakeSources{asked: &asked, list: []Source{
		{Mention: "@muse-demo:demo://readme", Label: "muse-demo:demo://readme", Detail: "MCP resource"},
		{Mention: "@/data/images/s1/turn-1-image-0-ab.png", Label: "s1/turn-1-image-0-ab.png", Detail: "generated image"},
	}}
	menuAfter := func(typed string) []string {
		m := sized(t, 80, 24).WithSources(src)
		m, cmd := m.Update(runes("@"))
		return typeKeys(t, runCmds(m, cmd), typed).Hint()
	}
	rows := menuAfter("")
	if len(rows) < 3 || !strings.Contains(rows[0], "▸ muse-demo:demo://readme") || !strings.Contains(rows[1], "s1/turn-1-image-0-ab.png") || !strings.Contains(rows[2], "n00.md") {
		t.Errorf("@ alone:\n%s", strings.Join(rows, "\n"))
	}
	rows = menuAfter("n")
	if i := slices.IndexFunc(rows, func(r string) bool { return strings.Contains(r, "turn-1-image") }); len(rows) < 2 || !strings.Contains(rows[0], "▸ n00.md") || (i >= 0 && i < 6) {
		t.Errorf("@n: the files named n… first, the image holding n after them:\n%s", strings.Join(rows, "\n"))
	}
	// The image marked, a letter typed marks the best match afresh: the
	// mark does not follow the image down the list.
	m := sized(t, 80, 24).WithSources(src)
	m, cmd := m.Update(runes("@"))
	m = update(runCmds(m, cmd), tea.KeyMsg{Type: tea.KeyDown})
	if rows = m.Hint(); !strings.Contains(rows[1], "▸ s1/turn-1-image-0-ab.png") {
		t.Fatalf("↓:\n%s", strings.Join(rows, "\n"))
	}
	if rows = typeKeys(t, m, "n").Hint(); !strings.Contains(rows[0], "▸ n00.md") {
		t.Errorf("↓ then n: the mark stays on the image:\n%s", strings.Join(rows, "\n"))
	}
	if rows = menuAfter("turn"); len(rows) == 0 || !strings.Contains(rows[0], "▸ s1/turn-1-image-0-ab.png") {
		t.Errorf("@turn: the image by its file name:\n%s", strings.Join(rows, "\n"))
	}
	if rows = menuAfter("read"); len(rows) == 0 || !strings.Contains(rows[0], "▸ muse-demo:demo://readme") {
		t.Errorf("@read: the resource by its last part:\n%s", strings.Join(rows, "\n"))
	}
}
