package cli

import (
	"slices"
	"testing"

	"muse/ui"
	cfgfile "muse/ui/cli/config"
)

// The configuration loader accepts exactly the actions the chat screen can
// rebind.
func TestKeyActionsAgree(t *testing.T) {
	loader := slices.Sorted(slices.Values(cfgfile.Actions()))
	if screen := ui.KeyActions(); !slices.Equal(loader, screen) {
		t.Errorf("the loader accepts %v, the screen rebinds %v", loader, screen)
	}
}
