package ui

import (
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/textarea"
)

// KeyMap holds every key binding of the chat screen, so help shows them all.
type KeyMap struct {
	Send     key.Binding
	Newline  key.Binding
	Cancel   key.Binding
	Quit     key.Binding
	PageUp   key.Binding
	PageDown key.Binding
	HalfUp   key.Binding
	HalfDown key.Binding
	Top      key.Binding
	Bottom   key.Binding
	Help     key.Binding
	Editor   key.Binding
	Thinking key.Binding
	Copy     key.Binding
	Prev     key.Binding
	Next     key.Binding
	Complete key.Binding
	Sessions key.Binding
	New      key.Binding
	Open     key.Binding
	Previews key.Binding
}

// DefaultKeyMap returns muse's key bindings.
func DefaultKeyMap() KeyMap {
	return KeyMap{
		Send:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "send")),
		Newline:  key.NewBinding(key.WithKeys("alt+enter", "ctrl+j"), key.WithHelp("alt+enter/ctrl+j", "newline")),
		Cancel:   key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "cancel reply")),
		Quit:     key.NewBinding(key.WithKeys("ctrl+c"), key.WithHelp("ctrl+c", "cancel/quit")),
		PageUp:   key.NewBinding(key.WithKeys("pgup"), key.WithHelp("pgup/wheel", "scroll up")),
		PageDown: key.NewBinding(key.WithKeys("pgdown"), key.WithHelp("pgdn/wheel", "scroll down")),
		HalfUp:   key.NewBinding(key.WithKeys("ctrl+u"), key.WithHelp("ctrl+u", "half page up")),
		HalfDown: key.NewBinding(key.WithKeys("ctrl+d"), key.WithHelp("ctrl+d", "half page down")),
		Top:      key.NewBinding(key.WithKeys("home"), key.WithHelp("home", "top of conversation")),
		Bottom:   key.NewBinding(key.WithKeys("end"), key.WithHelp("end", "bottom, follow new text")),
		Help:     key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Editor:   key.NewBinding(key.WithKeys("ctrl+e"), key.WithHelp("ctrl+e", "edit in $EDITOR")),
		Thinking: key.NewBinding(key.WithKeys("ctrl+t"), key.WithHelp("ctrl+t", "expand thinking")),
		Copy:     key.NewBinding(key.WithKeys("ctrl+y"), key.WithHelp("ctrl+y", "copy last reply")),
		Prev:     key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "earlier prompt")),
		Next:     key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "later prompt")),
		Complete: key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "complete /command")),
		Sessions: key.NewBinding(key.WithKeys("ctrl+s"), key.WithHelp("ctrl+s", "sessions")),
		New:      key.NewBinding(key.WithKeys("ctrl+n"), key.WithHelp("ctrl+n", "new session")),
		Open:     key.NewBinding(key.WithKeys("ctrl+o"), key.WithHelp("ctrl+o", "open last image")),
		Previews: key.NewBinding(key.WithKeys("ctrl+g"), key.WithHelp("ctrl+g", "image previews")),
	}
}

// ShortHelp is the one-line help.
func (k KeyMap) ShortHelp() []key.Binding {
	return []key.Binding{k.Send, k.Newline, k.Cancel, k.Quit, k.Help}
}

// FullHelp is the full keymap shown by ?.
func (k KeyMap) FullHelp() [][]key.Binding {
	return [][]key.Binding{
		{k.Send, k.Newline, k.Editor, k.Prev, k.Next, k.Complete, k.Copy, k.Thinking, k.Sessions, k.New},
		{k.Cancel, k.Quit, k.PageUp, k.PageDown, k.HalfUp, k.HalfDown, k.Top, k.Bottom, k.Open, k.Previews, k.Help},
	}
}

// textareaKeys frees the keys the chat screen uses for itself: enter sends,
// ctrl+u/ctrl+d scroll, home/end scroll; the newline keys are the chat's.
func textareaKeys(k KeyMap) textarea.KeyMap {
	km := textarea.DefaultKeyMap
	km.InsertNewline = key.NewBinding(key.WithKeys(k.Newline.Keys()...))
	km.DeleteBeforeCursor = key.NewBinding(key.WithDisabled())
	km.DeleteCharacterForward = key.NewBinding(key.WithKeys("delete"))
	km.LineStart = key.NewBinding(key.WithKeys("ctrl+a"))
	km.LineEnd = key.NewBinding(key.WithDisabled())
	km.TransposeCharacterBackward = key.NewBinding(key.WithDisabled())
	return km
}

// Override rebinds actions by name ("send", "cancel", …), as a profile's
// [keys] table asks. Unknown actions are ignored (the configuration loader
// already refuses them).
func (k *KeyMap) Override(keys map[string][]string) {
	byName := map[string]*key.Binding{
		"send": &k.Send, "newline": &k.Newline, "cancel": &k.Cancel, "quit": &k.Quit,
		"pageup": &k.PageUp, "pagedown": &k.PageDown, "halfup": &k.HalfUp, "halfdown": &k.HalfDown,
		"top": &k.Top, "bottom": &k.Bottom, "help": &k.Help, "editor": &k.Editor, "thinking": &k.Thinking,
		"copy": &k.Copy, "prev": &k.Prev, "next": &k.Next, "complete": &k.Complete,
		"sessions": &k.Sessions, "new": &k.New, "open": &k.Open, "previews": &k.Previews,
	}
	for name, ks := range keys {
		b, ok := byName[name]
		if !ok || len(ks) == 0 {
			continue
		}
		b.SetKeys(ks...)
		b.SetHelp(strings.Join(ks, "/"), b.Help().Desc)
	}
}
