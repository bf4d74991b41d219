package keyaction

import "testing"

func TestNames(t *testing.T) {
	a := Names()
	if len(a) != 36 || a[0] != "send" || a[len(a)-1] != "menudown" {
		t.Errorf("Names() = %q", a)
	}
	a[0] = "changed"
	if Names()[0] != "send" {
		t.Error("Names shares its slice")
	}
	seen := map[string]bool{}
	for _, n := range Names() {
		if seen[n] {
			t.Errorf("%q is listed twice", n)
		}
		seen[n] = true
	}
}
