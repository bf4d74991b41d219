package menu

import (
	"fmt"
	"strings"
	"testing"
)

// A list cut short says so: "N+" and a hint to type more, never a count
// that passes for all there are; a list that is all there is counts its
// items, and setting the items again forgets the cut.
func TestCutSaysMoreMatch(t *testing.T) {
	var items []Item
	for i := range 50 {
		items = append(items, Item{Label: fmt.Sprintf("f%d", i), Value: fmt.Sprint(i)})
	}
	m := New(DefaultKeyMap()).SetSize(80, 6)
	foot := func(m Model) string { l := m.Lines(); return l[len(l)-1] }
	if got := foot(m.SetItems(items, "")); !strings.Contains(got, "1 of 50 ·") {
		t.Errorf("all there are: %q", got)
	}
	cut := m.SetItems(items, "").Cut()
	if got := foot(cut); !strings.Contains(got, "1 of 50+, type to narrow") {
		t.Errorf("cut: %q", got)
	}
	if got := foot(cut.SetItems(items[:3], "")); strings.Contains(got, "+") || strings.Contains(got, "of") {
		t.Errorf("set again, still cut: %q", got)
	}
	// Cut with fewer items than rows still says more match.
	if got := foot(m.SetItems(items[:2], "a note").Cut()); !strings.Contains(got, "1 of 2+, type to narrow · a note") {
		t.Errorf("short and cut: %q", got)
	}
}
