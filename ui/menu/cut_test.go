package menu

import (
	"fmt"
	"strings"
	"testing"
)

// A list shorter than what matches says so: how many are shown, how many
// match, and a hint to type more, never a count that passes for all there
// are; a list that is all there is counts its items, and setting the items
// again forgets the count.
func TestMatchedSaysMoreMatch(t *testing.T) {
	var items []Item
	for i := range 50 {
		items = append(items, Item{Label: fmt.Sprintf("f%d", i), Value: fmt.Sprint(i)})
	}
	m := New(DefaultKeyMap()).SetSize(80, 6)
	foot := func(m Model) string { l := m.Lines(); return l[len(l)-1] }
	if got := foot(m.SetItems(items, "")); !strings.Contains(got, "1 of 50 ·") || strings.Contains(got, "match") {
		t.Errorf("all there are: %q", got)
	}
	if got := foot(m.SetItems(items, "").Matched(50)); !strings.Contains(got, "1 of 50 ·") || strings.Contains(got, "match") {
		t.Errorf("matched as many as listed: %q", got)
	}
	cut := m.SetItems(items, "").Matched(312)
	if got := foot(cut); !strings.Contains(got, "1 of 50 shown · 312 match, type to narrow") {
		t.Errorf("312 match: %q", got)
	}
	if got := foot(cut.SetItems(items[:3], "")); strings.Contains(got, "match") || strings.Contains(got, "of") {
		t.Errorf("set again, still counting 312: %q", got)
	}
	// Fewer items than rows, more matching: still said.
	if got := foot(m.SetItems(items[:2], "a note").Matched(3)); !strings.Contains(got, "1 of 2 shown · 3 match, type to narrow · a note") {
		t.Errorf("short, and more match: %q", got)
	}
	// Fewer said to match than listed: the items are all there are.
	if got := foot(m.SetItems(items, "").Matched(7)); !strings.Contains(got, "1 of 50 ·") || strings.Contains(got, "match") {
		t.Errorf("matched fewer than listed: %q", got)
	}
	// Nothing listed, a note: only esc does anything.
	if got := foot(m.SetItems(nil, "no file here matches zzz")); got != "  no file here matches zzz · esc" {
		t.Errorf("nothing listed: %q", got)
	}
}
