package input

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// The file menu offers maxMenuFiles at most, and counts all that match:
// exactly maxMenuFiles is all of them, and a name no mention can hold is
// not counted as one more.
func TestFileItemsCount(t *testing.T) {
	var files []string
	for i := range maxMenuFiles {
		files = append(files, fmt.Sprintf("f%02d.md", i))
	}
	count := func(files []string) (int, int) {
		items, n := fileItems(files, "f")
		return len(mentionItems(ranked{}, items, "f")), n
	}
	if items, n := count(files); items != maxMenuFiles || n != maxMenuFiles {
		t.Errorf("%d files: %d items, %d matched", len(files), items, n)
	}
	if items, n := count(append(files, "f\"name.md")); items != maxMenuFiles || n != maxMenuFiles {
		t.Errorf("one more, not mentionable: %d items, %d matched", items, n)
	}
	if items, n := count(append(files, "f99.md", "g.md")); items != maxMenuFiles || n != maxMenuFiles+1 {
		t.Errorf("one more: %d items, %d matched", items, n)
	}
	// Cut at maxMenuFiles in all, the best kept: a file whose name starts
	// with what is typed is never lost to one whose path merely holds it.
	items, _ := fileItems(append([]string{"docs/xf.md", "a/f/b.md"}, files...), "f")
	if flat := mentionItems(ranked{}, items, "f"); len(flat) != maxMenuFiles || flat[0].Label != "f00.md" || len(items[2]) != 0 {
		t.Errorf("cut: %d items, first %q, %d that hold f", len(flat), flat[0].Label, len(items[2]))
	}
}

// The @ menu counts what matches, files and sources (MCP resources,
// images) alike: 60 files and a resource listed as 50 and 1 say "1 of 51
// shown · 61 match"; a few files and a resource, all shown, need no
// count; typing narrows the count.
func TestFileMenuCountsSources(t *testing.T) {
	dir := t.TempDir()
	t.Chdir(dir)
	mk := func(n int) {
		for i := range n {
			if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("n%02d.md", i)), nil, 0o600); err != nil {
				t.Fatal(err)
			}
		}
	}
	asked := 0
	src := fakeSources{asked: &asked, list: []Source{{Mention: "@muse-demo:demo://readme", Label: "muse-demo:demo://readme", Detail: "MCP resource"}}}
	open := func() string {
		m := sized(t, 80, 24).WithSources(src)
		m, cmd := m.Update(runes("@"))
		return strings.Join(runCmds(m, cmd).Hint(), "\n")
	}
	mk(3)
	if hint := open(); !strings.Contains(hint, "muse-demo:demo://readme") || strings.Contains(hint, " of ") || strings.Contains(hint, "match") {
		t.Errorf("3 files and a resource:\n%s", hint)
	}
	mk(60)
	if hint := open(); !strings.Contains(hint, "1 of 51 shown · 61 match, type to narrow") {
		t.Errorf("60 files and a resource:\n%s", hint)
	}
	m := sized(t, 80, 24).WithSources(src)
	m, cmd := m.Update(runes("@"))
	m = typeKeys(t, runCmds(m, cmd), "n1")
	if hint := strings.Join(m.Hint(), "\n"); !strings.Contains(hint, "1 of 10 ·") || strings.Contains(hint, "match") {
		t.Errorf("n1 typed:\n%s", hint)
	}
}

// ctrl+r offers maxSearchHits prompts at most and says how many match
// when more do, and a count once the typing narrows them.
func TestSearchSaysMoreMatch(t *testing.T) {
	var texts []string
	for i := range maxSearchHits + 1 {
		texts = append(texts, fmt.Sprintf("s1:prompt %02d", i))
	}
	m := withHistory(t, texts...)
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyCtrlR})
	m = typeKeys(t, m, "prompt")
	hint := strings.Join(m.Hint(), "\n")
	if !strings.Contains(hint, fmt.Sprintf("1 of %d shown · %d match, type to narrow", maxSearchHits, maxSearchHits+1)) {
		t.Errorf("%d prompts match:\n%s", maxSearchHits+1, hint)
	}
	m = typeKeys(t, m, " 4")
	hint = strings.Join(m.Hint(), "\n")
	if !strings.Contains(hint, "1 of 10 ·") || strings.Contains(hint, "narrow") {
		t.Errorf("10 prompts match:\n%s", hint)
	}
}
