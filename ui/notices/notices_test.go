package notices

import (
	"fmt"
	"strings"
	"testing"
)

// A notice is kept whole, once however often it is set in a row, the
// newest first, at most Keep of them; "" is not one.
func TestKeep(t *testing.T) {
	m := New().SetSize(30)
	long := "the status line cut this notice at eighty columns, and here it is whole"
	m = m.Update("first").Update("first").Update("").Update(long)
	if m.Len() != 2 {
		t.Fatalf("kept %d", m.Len())
	}
	lines := m.Lines()
	if lines[0] != "· the status line cut this" || !strings.HasPrefix(lines[len(lines)-1], "· first") {
		t.Errorf("lines %q", lines)
	}
	if got := strings.Join(lines, " "); !strings.Contains(strings.Join(strings.Fields(got), " "), "and here it is whole") {
		t.Errorf("the long notice is cut: %q", lines)
	}
	old := m
	for i := range Keep + 3 {
		m = m.Update(fmt.Sprint("n", i))
	}
	if m.Len() != Keep || !strings.Contains(m.Lines()[0], fmt.Sprint("n", Keep+2)) || old.Len() != 2 {
		t.Errorf("kept %d, first %q; the copy before has %d", m.Len(), m.Lines()[0], old.Len())
	}
	if New().View() != "" || !strings.HasPrefix(m.View(), "last notices, newest first:\n") {
		t.Errorf("view %q", m.View())
	}
}

// Text from elsewhere (a server's error, a file name) is sanitized.
func TestSanitized(t *testing.T) {
	m := New().SetSize(80).Update("bad \x1b[31mred\x1b[0m name")
	if l := m.Lines()[0]; strings.Contains(l, "\x1b") {
		t.Errorf("escape kept: %q", l)
	}
}
