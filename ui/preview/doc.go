// Package preview draws images in the terminal, for the previews of
// generated images.
//
// Two ways are offered. HalfBlocks draws an image as text: each cell is an
// upper half block '▀' whose foreground is the upper pixel and whose
// background is the lower one, in 24-bit or 256 colours; any terminal with
// colour shows it, and it is ordinary text to a renderer. The kitty graphics
// protocol draws the real image in terminals that have it (kitty, ghostty):
// KittyTransmitImage (or KittyTransmit, from PNG data) sends the image once,
// scaled down to what its cells can show, outside the normal screen updates,
// and KittyPlaceholder is the text that marks where it shows, so the screen
// stays text for the renderer there too. Both are written with
// github.com/charmbracelet/x/ansi/kitty: its encoder and its Unicode
// placeholder and diacritics. Detect asks the terminal, before the program
// starts, whether it can do the latter (and, for the screen, whether it has
// synchronized output), in one round trip.
package preview
