// Package keyaction names the actions of the chat screen that a profile's
// [keys] table may rebind. It is the one list of them: the configuration
// loader refuses any other name, and the chat screen's key map binds each.
package keyaction

import "slices"

// The actions, by the names a [keys] table gives them.
const (
	Send          = "send"
	Newline       = "newline"
	Cancel        = "cancel"
	Quit          = "quit"
	Exit          = "exit"
	Suspend       = "suspend"
	PageUp        = "pageup"
	PageDown      = "pagedown"
	HalfUp        = "halfup"
	HalfDown      = "halfdown"
	Top           = "top"
	Bottom        = "bottom"
	Help          = "help"
	Editor        = "editor"
	Thinking      = "thinking"
	Copy          = "copy"
	Prev          = "prev"
	Next          = "next"
	Complete      = "complete"
	Sessions      = "sessions"
	New           = "new"
	Open          = "open"
	Previews      = "previews"
	PasteImage    = "pasteimage"
	LineStart     = "linestart"
	LineEnd       = "lineend"
	WordLeft      = "wordleft"
	WordRight     = "wordright"
	DeleteWord    = "deleteword"
	DeleteToEnd   = "deletetoend"
	DeleteToStart = "deletetostart"
	Select        = "select"
	ApproveMode   = "approvemode"
	// Search searches the past prompts (ctrl+r); MenuUp and MenuDown move
	// the mark of the menu under the input (the / and @ menus, and the
	// search's). The menu takes an item with complete's keys or send's and
	// closes with cancel's.
	Search   = "search"
	MenuUp   = "menuup"
	MenuDown = "menudown"
)

// names are the actions, in the order the help shows them.
var names = []string{
	Send, Newline, Cancel, Quit, Exit, Suspend, PageUp, PageDown, HalfUp, HalfDown,
	Top, Bottom, Help, Editor, Thinking, Copy, Prev, Next,
	Complete, Sessions, New, Open, Previews, PasteImage,
	LineStart, LineEnd, WordLeft, WordRight, DeleteWord, DeleteToEnd, DeleteToStart, Select, ApproveMode,
	Search, MenuUp, MenuDown,
}

// Names returns the actions, in the order the help shows them.
func Names() []string { return slices.Clone(names) }
