// Package tomlfile reads a TOML file that muse knows the shape of (a theme
// file; the settings of a configuration file) into tagged Go structs, with
// github.com/pelletier/go-toml/v2, and says where a problem is and what to
// do about it: "FILE:LINE:COL: unknown key chrome.txt: expected one of
// text, muted, … (did you mean "text"?)".
//
// [Decode] walks the document once with the library's parser, in time
// linear in its size, before the library decodes it: it refuses, at its
// place, more than [Limits.Keys] keys, nesting deeper than [Limits.Depth],
// a key the struct has no field for, and a value that is not a string
// where the field takes text (a type with UnmarshalText, which the
// library would be handed as text and refuse with no place). Only then
// does the library decode it, refusing unknown keys too
// (DisallowUnknownFields): its error for each unknown key scans the file
// from its start, which costs time quadratic in their number (32,000
// unknown tables, 270 KB, took 27 s), so none reaches it. Its other errors
// ([*toml.DecodeError]) carry their place, which [Decode] keeps.
package tomlfile

import (
	"bytes"
	"encoding"
	"errors"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// Error is a problem in a TOML file, at its place when known.
type Error struct {
	Path string // the file, as messages name it
	Line int    // 1-based line, 0 when unknown
	Col  int    // 1-based column, 0 when unknown
	Msg  string // what is wrong and what is expected
}

// Error formats the problem as "FILE:LINE:COL: MSG", leaving out the parts
// that are unknown.
func (e *Error) Error() string {
	switch {
	case e.Line > 0 && e.Col > 0:
		return fmt.Sprintf("%s:%d:%d: %s", e.Path, e.Line, e.Col, e.Msg)
	case e.Line > 0:
		return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, e.Msg)
	}
	return fmt.Sprintf("%s: %s", e.Path, e.Msg)
}

// Limits caps what a file may hold, so that a file that is not what it
// should be costs little to refuse.
type Limits struct {
	// Keys is how many keys the file may hold, counting every table and
	// every part of a dotted key.
	Keys int
	// Depth is how deeply tables and arrays may nest.
	Depth int
	// What names the file in the messages, as in "a theme file is never
	// that big".
	What string
}

// Example is implemented by a field type that takes text, to show what
// text in the error for a value that is not a string, such as `"75" or
// "#5fafff" for a colour`.
type Example interface{ Example() string }

// Places are where the keys of a decoded file are, by their dotted path
// (the first place of a key a file repeats, as in arrays of tables).
type Places map[string]Place

// Place is a key's line and column, 1-based.
type Place struct{ Line, Col int }

// utf8BOM is the byte order mark some editors put at the start of a UTF-8
// file; the library would take it for the start of a key.
const utf8BOM = "\uFEFF"

// Decode reads the TOML document src, from the file path, into v, a
// pointer to a struct whose fields carry `toml:"name"` tags, and returns
// where its keys are. Every problem is an [*Error] at its place.
func Decode(path string, src []byte, v any, lim Limits) (Places, error) {
	src = bytes.TrimPrefix(src, []byte(utf8BOM))
	w := &walker{path: path, lim: lim, places: Places{}}
	for i, c := range src {
		if c == '\n' {
			w.newlines = append(w.newlines, i)
		}
	}
	if err := w.walk(src, reflect.TypeOf(v)); err != nil {
		return nil, err
	}
	dec := toml.NewDecoder(bytes.NewReader(src)).DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return nil, LibraryError(path, err)
	}
	return w.places, nil
}

// LibraryError turns an error of the library, from a document read from
// path, into an [*Error] at its place, its message on one line whatever
// keys it quotes.
func LibraryError(path string, err error) error {
	var missing *toml.StrictMissingError
	if errors.As(err, &missing) && len(missing.Errors) > 0 {
		// The walk refuses unknown keys first; this is a safety net.
		de := missing.Errors[0]
		line, col := de.Position()
		return &Error{Path: path, Line: line, Col: col, Msg: "unknown key " + oneLine(strings.Join(de.Key(), "."))}
	}
	var de *toml.DecodeError
	if !errors.As(err, &de) {
		return &Error{Path: path, Msg: oneLine(strings.TrimPrefix(err.Error(), "toml: "))}
	}
	line, col := de.Position()
	msg := strings.TrimPrefix(de.Error(), "toml: ")
	if k := de.Key(); len(k) > 0 {
		msg = strings.Join(k, ".") + ": " + msg
	}
	return &Error{Path: path, Line: line, Col: col, Msg: oneLine(msg)}
}

// oneLine escapes the control characters and invalid UTF-8 in s, which the
// library's messages repeat from the keys they name, as Go would in a
// quoted string.
func oneLine(s string) string {
	var b strings.Builder
	for i, r := range s {
		switch {
		case r == utf8.RuneError:
			if _, n := utf8.DecodeRuneInString(s[i:]); n == 1 {
				fmt.Fprintf(&b, `\x%02x`, s[i])
				continue
			}
			b.WriteRune(r)
		case r < ' ' || 0x7f <= r && r < 0xa0:
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// walker checks a document against the type it is decoded into.
type walker struct {
	path     string
	lim      Limits
	newlines []int // offsets of the '\n's of the document
	keys     int
	places   Places
	p        unstable.Parser
}

// place is the line and column of the byte at offset.
func (w *walker) place(offset int) Place {
	line := sort.SearchInts(w.newlines, offset)
	col := offset + 1
	if line > 0 {
		col = offset - w.newlines[line-1]
	}
	return Place{Line: line + 1, Col: col}
}

// fail is the problem msg at the byte at offset.
func (w *walker) fail(offset int, format string, args ...any) error {
	at := w.place(offset)
	return &Error{Path: w.path, Line: at.Line, Col: at.Col, Msg: fmt.Sprintf(format, args...)}
}

// walk checks every expression of src against root, the type of the value
// decoded into. It leaves the document's syntax to the decoder.
func (w *walker) walk(src []byte, root reflect.Type) error {
	w.p.Reset(src)
	table := root   // the type of the current table
	var at []string // its path
	for w.p.NextExpression() {
		e := w.p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			t, path, err := w.follow(e, root, nil, e.Kind == unstable.ArrayTable)
			if err != nil {
				return err
			}
			table, at = t, path
		case unstable.KeyValue:
			if err := w.keyValue(e, table, at); err != nil {
				return err
			}
		}
	}
	return nil
}

// keyValue checks key = value in the table of type t at path.
func (w *walker) keyValue(e *unstable.Node, t reflect.Type, path []string) error {
	ft, path, err := w.follow(e, t, path, false)
	if err != nil {
		return err
	}
	return w.value(e.Value(), ft, path)
}

// follow follows the keys of e (a header, or the key of key = value) from
// the table of type t at path, and returns the type and path they lead
// to; for the header of an array of tables, the type of its elements.
func (w *walker) follow(e *unstable.Node, t reflect.Type, path []string, array bool) (reflect.Type, []string, error) {
	path = append([]string(nil), path...)
	for it := e.Key(); it.Next(); {
		k := it.Node()
		name, offset := string(k.Data), int(k.Raw.Offset)
		w.keys++
		switch {
		case w.keys > w.lim.Keys:
			return nil, nil, w.fail(offset, "more than %d keys: %s is never that big, check that it is the right one", w.lim.Keys, w.lim.What)
		case len(path) >= w.lim.Depth:
			return nil, nil, w.fail(offset, "nested more than %d levels deep (tables and arrays inside each other): flatten it", w.lim.Depth)
		}
		ct, known, ok := child(tableOf(t), name)
		if !ok {
			return nil, nil, w.fail(offset, "%s", unknown(append(path, name), known))
		}
		path = append(path, name)
		if _, seen := w.places[strings.Join(path, ".")]; !seen {
			w.places[strings.Join(path, ".")] = w.place(offset)
		}
		t = ct
	}
	if array {
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			t = t.Elem()
		}
	}
	return t, path, nil
}

// value checks the value n of the key at path, of type t.
func (w *walker) value(n *unstable.Node, t reflect.Type, path []string) error {
	if t == nil {
		return nil // anything goes below an interface
	}
	if takesText(t) && n.Kind != unstable.String {
		hint := ""
		if ex, ok := reflect.New(deref(t)).Interface().(Example); ok {
			hint = ", such as " + ex.Example()
		}
		offset := start(n)
		return w.fail(offset, "%s: expected a string%s, got %s", strings.Join(path, "."), hint, oneLine(string(w.raw(n))))
	}
	switch n.Kind {
	case unstable.InlineTable:
		if len(path) >= w.lim.Depth {
			return w.fail(start(n), "nested more than %d levels deep (tables and arrays inside each other): flatten it", w.lim.Depth)
		}
		for it := n.Children(); it.Next(); {
			if err := w.keyValue(it.Node(), t, path); err != nil {
				return err
			}
		}
	case unstable.Array:
		if len(path) >= w.lim.Depth {
			return w.fail(start(n), "nested more than %d levels deep (tables and arrays inside each other): flatten it", w.lim.Depth)
		}
		et := t
		if dt := deref(t); dt.Kind() == reflect.Slice || dt.Kind() == reflect.Array {
			et = dt.Elem()
		}
		for it := n.Children(); it.Next(); {
			if err := w.value(it.Node(), et, append(path, "[]")); err != nil {
				return err
			}
		}
	}
	return nil
}

// raw is the text of the value n as written, cut short when long.
func (w *walker) raw(n *unstable.Node) []byte {
	if n.Raw.Length == 0 {
		return nil
	}
	b := w.p.Raw(n.Raw)
	if len(b) > 60 {
		b = append(b[:60:60], "…"...)
	}
	return b
}

// start returns the offset where the value n starts: the parser keeps no
// range for an array, whose start is then taken from its first element.
func start(n *unstable.Node) int {
	for n != nil {
		if n.Raw.Length > 0 {
			return int(n.Raw.Offset)
		}
		n = n.Child()
	}
	return 0
}

// unknown says what is wrong with the last key of path, which the table
// it is in does not know; known are the keys it knows, nil for a value
// that is no table.
func unknown(path []string, known []string) string {
	name := strings.Join(path, ".")
	if known == nil {
		return fmt.Sprintf("unknown key %s: %s takes no table", oneLine(name), oneLine(strings.Join(path[:len(path)-1], ".")))
	}
	return fmt.Sprintf("unknown key %s: expected one of %s%s", oneLine(name), strings.Join(known, ", "), Suggest(path[len(path)-1], known))
}

var textUnmarshaler = reflect.TypeOf((*encoding.TextUnmarshaler)(nil)).Elem()

// takesText reports whether a value of type t is read from text.
func takesText(t reflect.Type) bool {
	dt := deref(t)
	return dt.Kind() != reflect.String && reflect.PointerTo(dt).Implements(textUnmarshaler)
}

// deref is t without its pointers.
func deref(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// tableOf is the type of the table a value of type t is: the element of
// an array of tables, t itself otherwise; nil for an interface.
func tableOf(t reflect.Type) reflect.Type {
	if t == nil {
		return nil
	}
	t = deref(t)
	if t.Kind() == reflect.Slice || t.Kind() == reflect.Array {
		t = deref(t.Elem())
	}
	return t
}

// child returns the type of the key name in a table of type t (nil for
// anything, below an interface), or false and the keys t knows (nil when t
// is not a table).
func child(t reflect.Type, name string) (reflect.Type, []string, bool) {
	if t == nil || t.Kind() == reflect.Interface {
		return nil, nil, true
	}
	switch t.Kind() {
	case reflect.Map:
		return t.Elem(), nil, true
	case reflect.Struct:
		if takesText(t) {
			return nil, nil, false
		}
		var known []string
		if f, ok := field(t, name, &known); ok {
			return f, nil, true
		}
		return nil, known, false
	}
	return nil, nil, false
}

// field finds the field of the struct t for the key name, looking into
// embedded structs as the library does, and lists the keys in known.
func field(t reflect.Type, name string, known *[]string) (reflect.Type, bool) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		if f.Anonymous && tag == "" && deref(f.Type).Kind() == reflect.Struct {
			if ft, ok := field(deref(f.Type), name, known); ok {
				return ft, true
			}
			continue
		}
		if !f.IsExported() || tag == "-" {
			continue
		}
		key := tag
		if key == "" {
			key = f.Name
		}
		*known = append(*known, key)
		if key == name || tag == "" && strings.EqualFold(key, name) {
			return f.Type, true
		}
	}
	return nil, false
}
