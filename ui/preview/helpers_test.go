package preview

import (
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/ansi/kitty"
)

// KittyDelete returns the escape sequence that deletes the image id, with
// its placements, and frees its data in the terminal.
func KittyDelete(id uint32) string {
	o := kitty.Options{Action: kitty.Delete, Delete: kitty.DeleteID, DeleteResources: true, ID: int(id), Quite: 2}
	return ansi.KittyGraphics(nil, o.Options()...)
}
