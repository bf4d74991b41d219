package mcp

import (
	"slices"
	"testing"
)

// A variable that a server of another profile names (Options.Named) is
// kept from every server here but one whose own entry names it too; what
// every process needs (PATH) is kept from none.
func TestNamedVarsAreKeptFromOtherServers(t *testing.T) {
	own := Server{Name: "own", Command: "true", Vars: []string{"SPARE_VAR"}}
	other := Server{Name: "other", Command: "true", Vars: []string{"MINE"}}
	m := New([]Server{own, other}, Options{Named: []string{"SPARE_VAR", "PATH"}})
	for _, c := range []struct {
		s         Server
		drop, not []string
	}{
		{own, []string{"MINE"}, []string{"SPARE_VAR", "PATH"}},
		{other, []string{"SPARE_VAR"}, []string{"MINE", "PATH"}},
	} {
		drop := m.dropFor(c.s)
		for _, v := range c.drop {
			if !slices.Contains(drop, v) {
				t.Errorf("%s gets %s: dropped %v", c.s.Name, v, drop)
			}
		}
		for _, v := range c.not {
			if slices.Contains(drop, v) {
				t.Errorf("%s loses %s: dropped %v", c.s.Name, v, drop)
			}
		}
	}
}
