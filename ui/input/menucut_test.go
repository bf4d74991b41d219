package input

import (
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// The file menu offers maxMenuFiles at most, and says it is cut only when
// more files match: exactly maxMenuFiles is all of them, and a name no
// mention can hold is not counted as one more.
func TestFileItemsCut(t *testing.T) {
	var files []string
	for i := range maxMenuFiles {
		files = append(files, fmt.Sprintf("f%02d.md", i))
	}
	if items, cut := fileItems(files, "f"); len(items) != maxMenuFiles || cut {
		t.Errorf("%d files: %d items, cut %v", len(files), len(items), cut)
	}
	if items, cut := fileItems(append(files, "f\"name.md"), "f"); len(items) != maxMenuFiles || cut {
		t.Errorf("one more, not mentionable: %d items, cut %v", len(items), cut)
	}
	if items, cut := fileItems(append(files, "f99.md"), "f"); len(items) != maxMenuFiles || !cut {
		t.Errorf("one more: %d items, cut %v", len(items), cut)
	}
}

// ctrl+r offers maxSearchHits prompts at most and says when more match:
// "50+, type to narrow", and a count once the typing narrows them.
func TestSearchSaysMoreMatch(t *testing.T) {
	var texts []string
	for i := range maxSearchHits + 1 {
		texts = append(texts, fmt.Sprintf("s1:prompt %02d", i))
	}
	m := withHistory(t, texts...)
	m, _ = m.Update(tea.KeyMsg{Type: tea.KeyCtrlR})
	m = typeKeys(t, m, "prompt")
	hint := strings.Join(m.Hint(), "\n")
	if !strings.Contains(hint, fmt.Sprintf("1 of %d+, type to narrow", maxSearchHits)) {
		t.Errorf("%d prompts match:\n%s", maxSearchHits+1, hint)
	}
	m = typeKeys(t, m, " 4")
	hint = strings.Join(m.Hint(), "\n")
	if !strings.Contains(hint, "1 of 10 ·") || strings.Contains(hint, "narrow") {
		t.Errorf("10 prompts match:\n%s", hint)
	}
}
