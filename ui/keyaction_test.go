package ui

import (
	"maps"
	"slices"
	"testing"

	"muse/ui/keyaction"
)

// The key map binds every action a profile's [keys] table may name, and no
// other.
func TestKeyMapBindsEveryAction(t *testing.T) {
	var k KeyMap
	bound := slices.Sorted(maps.Keys(k.byName()))
	if named := slices.Sorted(slices.Values(keyaction.Names())); !slices.Equal(bound, named) {
		t.Errorf("the key map binds %q, the configuration names %q", bound, named)
	}
}
