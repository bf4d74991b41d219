package ui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"

	"muse/ui/conversation"
	"muse/ui/helpview"
	"muse/ui/input"
	"muse/ui/keyaction"
	"muse/ui/selection"
	"muse/ui/slash"
	"muse/ui/welcome"
)

// KeyMap holds every key binding of the chat screen, so help shows them all.
type KeyMap struct {
	Send    key.Binding
	Newline key.Binding
	Cancel  key.Binding
	Quit    key.Binding
	// Exit quits at once on an empty input (ctrl+d, as in shells);
	// Suspend stops muse and gives the terminal to the shell (ctrl+z).
	Exit, Suspend key.Binding
	PageUp        key.Binding
	PageDown      key.Binding
	HalfUp        key.Binding
	HalfDown      key.Binding
	Top           key.Binding
	Bottom        key.Binding
	Help          key.Binding
	Editor        key.Binding
	Thinking      key.Binding
	Copy          key.Binding
	Prev          key.Binding
	Next          key.Binding
	Complete      key.Binding
	Sessions      key.Binding
	New           key.Binding
	Open          key.Binding
	Previews      key.Binding
	// PasteImage attaches the image on the system clipboard.
	PasteImage key.Binding
	// ApproveMode switches tool calls between asking and running unasked
	// for the rest of the session (shift+tab).
	ApproveMode key.Binding
	// Search searches the past prompts (ctrl+r); MenuUp and MenuDown move
	// the mark of the menu under the input.
	Search, MenuUp, MenuDown key.Binding

	// Moving and editing in the input (the textarea's own keys, shown in
	// the help). home/end scroll the conversation; ctrl+a/ctrl+e move in
	// the line.
	LineStart, LineEnd, WordLeft, WordRight, DeleteWord, DeleteToEnd, DeleteToStart key.Binding

	// Select starts selection mode, where the keys of SelectKeys apply.
	Select key.Binding
	SelectKeys
}

// SelectKeys are the keys of selection mode, which moves over the messages
// of the conversation. Each action acts on the selected entry (see
// Model.selectKey): copy it or its code, edit a prompt, regenerate a reply,
// switch to a sibling branch, or fork the session there.
type SelectKeys struct {
	SelUp, SelDown, SelTop, SelBottom, SelCopy, SelCode, SelLeave   key.Binding
	SelEdit, SelRegenerate, SelPrevSibling, SelNextSibling, SelFork key.Binding
	// SelAttach attaches the images of a selected image turn, or the
	// attachments of a selected prompt, to the next prompt.
	SelAttach key.Binding
}

// defaultKeyMap returns muse's key bindings.
func defaultKeyMap() KeyMap {
	return KeyMap{
		Send:        key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "send")),
		Newline:     key.NewBinding(key.WithKeys("alt+enter", "ctrl+j"), key.WithHelp("alt+enter/ctrl+j", "newline")),
		Cancel:      key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel reply")),
		Quit:        key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "cancel/clear/quit")),
		Exit:        key.NewBinding(key.WithKeys("ctrl+d"), key.WithHelp("ctrl+d", "quit at once (on an empty input)")),
		Suspend:     key.NewBinding(key.WithKeys("ctrl+z"), key.WithHelp("ctrl+z", "suspend to the shell (fg comes back)")),
		PageUp:      key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup/wheel", "scroll up")),
		PageDown:    key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn/wheel", "scroll down")),
		HalfUp:      key.NewBinding(key.WithKeys("shift+up"), key.WithHelp("shift+↑", "half page up")),
		HalfDown:    key.NewBinding(key.WithKeys("shift+down"), key.WithHelp("shift+↓", "half page down")),
		Top:         key.NewBinding(key.WithKeys("home"), key.WithHelp("home", "top of conversation")),
		Bottom:      key.NewBinding(key.WithKeys("end"), key.WithHelp("end", "bottom, follow new text")),
		Help:        key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Editor:      key.NewBinding(key.WithKeys("ctrl+x"), key.WithHelp("ctrl+x", "edit in $EDITOR")),
		Thinking:    key.NewBinding(key.WithKeys("ctrl+t"), key.WithHelp("ctrl+t", "expand thinking")),
		Copy:        key.NewBinding(key.WithKeys("ctrl+y"), key.WithHelp("ctrl+y", "copy last reply")),
		Prev:        key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "earlier prompt")),
		Next:        key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "later prompt")),
		Complete:    key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "complete /command")),
		Sessions:    key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "sessions")),
		New:         key.NewBinding(key.WithKeys("ctrl+n"), key.WithHelp("ctrl+n", "new session")),
		Open:        key.NewBinding(key.WithKeys("ctrl+o"), key.WithHelp("ctrl+o", "open last image")),
		Previews:    key.NewBinding(key.WithKeys("ctrl+g"), key.WithHelp("ctrl+g", "image previews")),
		PasteImage:  key.NewBinding(key.WithKeys("ctrl+v"), key.WithHelp("ctrl+v", "attach the clipboard's image")),
		ApproveMode: key.NewBinding(key.WithKeys("shift+tab"), key.WithHelp("shift+tab", "approve all tool calls / ask")),
		Search:      input.SearchKey,
		MenuUp:      key.NewBinding(key.WithKeys("up", "ctrl+p"), key.WithHelp("↑/ctrl+p", "menu: mark up")),
		MenuDown:    key.NewBinding(key.WithKeys("down", "ctrl+n"), key.WithHelp("↓/ctrl+n", "menu: mark down")),

		LineStart:     key.NewBinding(key.WithKeys("ctrl+a"), key.WithHelp("ctrl+a", "start of the line")),
		LineEnd:       key.NewBinding(key.WithKeys("ctrl+e"), key.WithHelp("ctrl+e", "end of the line")),
		WordLeft:      key.NewBinding(key.WithKeys("alt+left", "alt+b"), key.WithHelp("alt+←/alt+b", "word left")),
		WordRight:     key.NewBinding(key.WithKeys("alt+right", "alt+f"), key.WithHelp("alt+→/alt+f", "word right")),
		DeleteWord:    key.NewBinding(key.WithKeys("ctrl+w", "alt+backspace"), key.WithHelp("ctrl+w", "delete word before")),
		DeleteToEnd:   key.NewBinding(key.WithKeys("ctrl+k"), key.WithHelp("ctrl+k", "delete to end of line")),
		DeleteToStart: key.NewBinding(key.WithKeys("ctrl+u"), key.WithHelp("ctrl+u", "delete to start of line")),

		Select: key.NewBinding(key.WithKeys("ctrl+up", "alt+up"), key.WithHelp("ctrl+↑/alt+↑", "select a message: copy, edit, branch")),
		SelectKeys: SelectKeys{
			SelUp:     key.NewBinding(key.WithKeys("up", "k", "ctrl+up", "alt+up"), key.WithHelp("↑/k", "earlier")),
			SelDown:   key.NewBinding(key.WithKeys("down", "j", "ctrl+down", "alt+down"), key.WithHelp("↓/j", "later")),
			SelTop:    key.NewBinding(key.WithKeys("home", "g"), key.WithHelp("home/g", "first")),
			SelBottom: key.NewBinding(key.WithKeys("end", "G"), key.WithHelp("end/G", "last")),
			SelCopy:   key.NewBinding(key.WithKeys("y"), key.WithHelp("y", "copy")),
			SelCode:   key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "code blocks")),
			SelLeave:  key.NewBinding(key.WithKeys("esc", "q"), key.WithHelp("esc", "back")),

			SelEdit:        key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "edit")),
			SelRegenerate:  key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "retry")),
			SelPrevSibling: key.NewBinding(key.WithKeys("["), key.WithHelp("[", "previous branch")),
			SelNextSibling: key.NewBinding(key.WithKeys("]"), key.WithHelp("]", "next branch")),
			SelFork:        key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "fork")),
			SelAttach:      key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "attach")),
		},
	}
}

// ShortHelp is the one-line help: the keys that matter, each by its first key.
func (k KeyMap) ShortHelp() []key.Binding {
	short := func(b key.Binding, desc string) key.Binding {
		first, _, _ := strings.Cut(b.Help().Key, "/")
		return key.NewBinding(key.WithKeys(b.Keys()...), key.WithHelp(first, desc))
	}
	return []key.Binding{short(k.Send, "send"), short(k.Newline, "newline"), short(k.Select, "select"), short(k.Quit, "clear/quit"), short(k.Help, "help")}
}

// FullHelp is the full keymap shown by ?.
func (k KeyMap) FullHelp() [][]key.Binding {
	// ctrl+c clears a draft before it quits: say so where the input's keys are.
	clear := key.NewBinding(key.WithKeys(k.Quit.Keys()...), key.WithHelp(k.Quit.Help().Key, "clear the input (↑ brings it back)"))
	quit := key.NewBinding(key.WithKeys(k.Quit.Keys()...), key.WithHelp(k.Quit.Help().Key, "cancel a reply; twice on an empty input: quit"))
	return [][]key.Binding{
		{k.Send, k.Newline, input.ContinueKey, k.Complete, k.Prev, k.Next, k.Search, k.MenuUp, k.MenuDown, k.LineStart, k.LineEnd, k.WordLeft, k.WordRight, k.DeleteWord, k.DeleteToStart, k.DeleteToEnd, clear, k.Editor},
		{k.Select, k.Copy, k.Thinking, k.Sessions, k.New, k.Open, k.Previews, k.PasteImage, k.ApproveMode, k.Cancel, quit, k.Exit, k.Suspend, k.Help},
		{k.PageUp, k.PageDown, k.HalfUp, k.HalfDown, k.Top, k.Bottom},
	}
}

// selectKeys are the keys of selection mode.
func (k KeyMap) selectKeys() selection.KeyMap {
	return selection.KeyMap{Up: k.SelUp, Down: k.SelDown, Top: k.SelTop, Bottom: k.SelBottom, Copy: k.SelCopy, Code: k.SelCode,
		Leave: k.SelLeave, Quit: k.Quit, Edit: k.SelEdit, Regenerate: k.SelRegenerate, PrevSibling: k.SelPrevSibling,
		NextSibling: k.SelNextSibling, Fork: k.SelFork, Attach: k.SelAttach,
		PageUp: k.PageUp, PageDown: k.PageDown, HalfUp: k.HalfUp, HalfDown: k.HalfDown}
}

// welcomeKeys are the keys the empty conversation names.
func (k KeyMap) welcomeKeys() welcome.KeyMap {
	return welcome.KeyMap{Send: k.Send, Newline: k.Newline, Help: k.Help, Quit: k.Quit, PasteImage: k.PasteImage,
		Sessions: k.Sessions, New: k.New, Select: k.Select}
}

// helpKeys are the keys that scroll the ? overlay.
func (k KeyMap) helpKeys() helpview.KeyMap {
	return helpview.KeyMap{PageUp: k.PageUp, PageDown: k.PageDown, HalfUp: k.HalfUp, HalfDown: k.HalfDown, Top: k.Top, Bottom: k.Bottom}
}

// inputKeys are the keys the input handles itself.
func (k KeyMap) inputKeys() input.KeyMap {
	return input.KeyMap{Complete: k.Complete, Prev: k.Prev, Next: k.Next, Newline: k.Newline,
		LineStart: k.LineStart, LineEnd: k.LineEnd, WordLeft: k.WordLeft, WordRight: k.WordRight,
		DeleteWord: k.DeleteWord, DeleteToEnd: k.DeleteToEnd, DeleteToStart: k.DeleteToStart, DeleteForward: k.Exit,
		Search: k.Search, MenuUp: k.MenuUp, MenuDown: k.MenuDown}
}

// override rebinds actions by name ("send", "cancel", …), as a profile's
// [keys] table asks. Unknown actions are ignored (the configuration loader
// already refuses them).
func (k *KeyMap) override(keys map[string][]string) {
	byName := k.byName()
	for name, ks := range keys {
		b, ok := byName[name]
		if !ok || len(ks) == 0 {
			continue
		}
		b.SetKeys(ks...)
		b.SetHelp(strings.Join(ks, "/"), b.Help().Desc)
	}
}

// byName maps each action (see keyaction) to its binding.
func (k *KeyMap) byName() map[string]*key.Binding {
	return map[string]*key.Binding{
		keyaction.Send: &k.Send, keyaction.Newline: &k.Newline, keyaction.Cancel: &k.Cancel, keyaction.Quit: &k.Quit,
		keyaction.Exit: &k.Exit, keyaction.Suspend: &k.Suspend, keyaction.DeleteToStart: &k.DeleteToStart,
		keyaction.PageUp: &k.PageUp, keyaction.PageDown: &k.PageDown, keyaction.HalfUp: &k.HalfUp, keyaction.HalfDown: &k.HalfDown,
		keyaction.Top: &k.Top, keyaction.Bottom: &k.Bottom, keyaction.Help: &k.Help, keyaction.Editor: &k.Editor, keyaction.Thinking: &k.Thinking,
		keyaction.Copy: &k.Copy, keyaction.Prev: &k.Prev, keyaction.Next: &k.Next, keyaction.Complete: &k.Complete,
		keyaction.Sessions: &k.Sessions, keyaction.New: &k.New, keyaction.Open: &k.Open, keyaction.Previews: &k.Previews, keyaction.PasteImage: &k.PasteImage,
		keyaction.LineStart: &k.LineStart, keyaction.LineEnd: &k.LineEnd, keyaction.WordLeft: &k.WordLeft, keyaction.WordRight: &k.WordRight,
		keyaction.DeleteWord: &k.DeleteWord, keyaction.DeleteToEnd: &k.DeleteToEnd, keyaction.Select: &k.Select,
		keyaction.ApproveMode: &k.ApproveMode, keyaction.Search: &k.Search, keyaction.MenuUp: &k.MenuUp, keyaction.MenuDown: &k.MenuDown,
	}
}

// scrollKeys are the keys that scroll the conversation.
func (k KeyMap) scrollKeys() conversation.KeyMap {
	return conversation.KeyMap{PageUp: k.PageUp, PageDown: k.PageDown, HalfUp: k.HalfUp, HalfDown: k.HalfDown, Top: k.Top, Bottom: k.Bottom}
}

// helpText lists every key and slash command, one a line, for /help.
func (k KeyMap) helpText() string {
	var b strings.Builder
	b.WriteString("keys\n")
	for _, group := range k.FullHelp() {
		for _, kb := range group {
			if kb.Enabled() {
				fmt.Fprintf(&b, "  %-18s %s\n", kb.Help().Key, kb.Help().Desc)
			}
		}
	}
	b.WriteString("selection mode (" + k.Select.Help().Key + ")\n")
	for _, kb := range []key.Binding{k.SelUp, k.SelDown, k.SelTop, k.SelBottom} {
		fmt.Fprintf(&b, "  %-18s %s message\n", kb.Help().Key, kb.Help().Desc)
	}
	fmt.Fprintf(&b, "  %-18s %s\n", k.SelCopy.Help().Key, "copy the message as markdown")
	fmt.Fprintf(&b, "  %-18s %s\n", k.SelCode.Help().Key, "copy its code blocks, one a press")
	fmt.Fprintf(&b, "  %-18s %s\n", k.SelEdit.Help().Key, "edit the prompt: enter sends it as a new branch, esc keeps the draft")
	fmt.Fprintf(&b, "  %-18s %s\n", k.SelRegenerate.Help().Key, "regenerate the reply as a new branch")
	fmt.Fprintf(&b, "  %-18s %s\n", k.SelPrevSibling.Help().Key+" "+k.SelNextSibling.Help().Key, "switch to the previous or next branch (‹ 2/3 ›)")
	fmt.Fprintf(&b, "  %-18s %s\n", k.SelFork.Help().Key, "fork the session at the message into a new one")
	fmt.Fprintf(&b, "  %-18s %s\n", k.SelLeave.Help().Key, "back to the input")
	b.WriteString(helpview.MouseHelp + "\n")
	b.WriteString("commands\n")
	for _, l := range slash.HelpLines() {
		b.WriteString("  " + l + "\n")
	}
	return strings.TrimRight(b.String(), "\n")
}
