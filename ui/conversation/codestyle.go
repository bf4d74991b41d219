package conversation

import (
	"fmt"
	"hash/fnv"
	"reflect"
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/styles"
	"github.com/charmbracelet/glamour/ansi"
	"github.com/muesli/termenv"
)

// glamour hands a style's code colours to Chroma as a style it registers
// under one name, "charm", the first time it renders code, and never
// again: every later theme (a /theme switch from dark to light, say) drew
// its code in the first theme's colours, unreadable on the other
// background. ownCodeStyle registers each theme's code colours under a
// name of their own instead, made from what they are, and names it in the
// style, so glamour looks it up rather than registering.

var codeStylesMu sync.Mutex // guards Chroma's registry against our own writes

// ownCodeStyle returns style with its code colours (CodeBlock.Chroma)
// registered with Chroma under their own name, given as CodeBlock.Theme.
// Without colour (termenv.Ascii) glamour highlights nothing, and the style
// stays as it is; so does one whose colours Chroma refuses.
//
// Chroma's registry is a map without a lock: this is called where the
// screen renders (the event loop), never beside a render.
func ownCodeStyle(style ansi.StyleConfig, profile termenv.Profile) ansi.StyleConfig {
	cs := style.CodeBlock.Chroma
	if cs == nil || profile == termenv.Ascii {
		return style
	}
	entries := chroma.StyleEntries{}
	var key strings.Builder
	v := reflect.ValueOf(cs).Elem()
	for i := range v.NumField() {
		p, ok := v.Field(i).Interface().(ansi.StylePrimitive)
		if !ok {
			continue
		}
		tt, err := chroma.TokenTypeString(v.Type().Field(i).Name)
		if err != nil {
			continue
		}
		e := codeEntry(p)
		entries[tt] = e
		fmt.Fprintf(&key, "%d=%s;", tt, e)
	}
	h := fnv.New64a()
	h.Write([]byte(key.String()))
	name := fmt.Sprintf("muse-%016x", h.Sum64())
	codeStylesMu.Lock()
	defer codeStylesMu.Unlock()
	if _, ok := styles.Registry[name]; !ok {
		s, err := chroma.NewStyle(name, entries)
		if err != nil {
			return style
		}
		styles.Register(s)
	}
	style.CodeBlock.Theme, style.CodeBlock.Chroma = name, nil
	return style
}

// codeEntry is p as a Chroma style entry, as glamour writes it.
func codeEntry(p ansi.StylePrimitive) string {
	var parts []string
	if p.Color != nil {
		parts = append(parts, *p.Color)
	}
	if p.BackgroundColor != nil {
		parts = append(parts, "bg:"+*p.BackgroundColor)
	}
	for _, a := range []struct {
		on   *bool
		word string
	}{{p.Italic, "italic"}, {p.Bold, "bold"}, {p.Underline, "underline"}} {
		if a.on != nil && *a.on {
			parts = append(parts, a.word)
		}
	}
	return strings.Join(parts, " ")
}
