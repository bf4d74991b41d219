// Package tomlfile is muse's one reader of TOML files (a theme file, the
// configuration file): it decodes a file into tagged Go structs with
// github.com/pelletier/go-toml/v2, unknown keys refused, and says where
// each problem is and what to do about it: "FILE:LINE:COL: unknown key
// chrome.txt: expected one of text, muted, … (did you mean "text"?)".
//
// [Decode] walks the document once with the library's parser, in time
// linear in its size, before the library decodes it. The walk refuses,
// at its place, more than [Options.Keys] keys and nesting deeper than
// [Options.Depth]; it finds every key the struct has no field for and
// every value of the wrong kind (a string where the field takes a
// number, an integer where it takes text), and it records the place of
// every key and array item ([Places]), for the checks of what the values
// mean that the caller makes once the file is decoded. The library then
// decodes the file, refusing unknown keys too (DisallowUnknownFields):
// its errors ([*toml.DecodeError], [*toml.StrictMissingError]) carry
// their place, which [Decode] keeps. The walk finds the unknown keys
// first because the library's error for each one scans the file from its
// start, in time quadratic in their number (32,000 unknown tables, 270
// KB, took 27 s), and because its message for a value of the wrong kind
// names Go types rather than what to write.
package tomlfile

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/pelletier/go-toml/v2"
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

// Options caps what a file may hold, so that a file that is not what it
// should be costs little to refuse, and words its problems.
type Options struct {
	// Keys is how many keys the file may hold, counting every table,
	// every inline table and every part of a dotted key.
	Keys int
	// Depth is how deeply tables and arrays may nest.
	Depth int
	// What names the file in the messages, as in "a theme file is never
	// that big".
	What string
	// Unknown, when set, words the problem of a key its table does not
	// know; "" keeps the default wording, "unknown key PATH: expected
	// one of …".
	Unknown func(Unknown) string
	// Mismatch, when set, words the problem of a value of the wrong
	// kind; "" keeps the default wording, "PATH: expected a string, got
	// 75".
	Mismatch func(Mismatch) string
}

// Unknown is a key that its table does not know.
type Unknown struct {
	// Path is the key's path, its own name last; the items of an array
	// are numbered from 0.
	Path []string
	// Known are the keys the table knows, nil when the value at the path
	// before it takes no table at all.
	Known []string
	// Table is set when the key holds a table.
	Table bool
	// Want is what the value at the path before the key takes, such as
	// "a string", when it is no table (Known is nil).
	Want string
}

// Mismatch is a value of the wrong kind.
type Mismatch struct {
	// Path is the value's path (see [Unknown.Path]).
	Path []string
	// Want is what the field takes: "a string", "an integer", "a
	// number", "true or false", "a list of strings", "a table", "an
	// array of tables".
	Want string
	// Expect is the field's `expect` tag ("" without one), what the
	// value should be in the caller's words, such as `a duration such as
	// "30s"`; for an array's item, its array's.
	Expect string
	// Example is what the value's type shows as an example ([Example]),
	// or "".
	Example string
	// Item is the 1-based number of the value in its array, 0 when it is
	// no array's item.
	Item int
	// Got is the value as written.
	Got Value
}

// Value is a value as written in the file, for messages.
type Value struct {
	// Kind is "string", "integer", "float", "boolean", "date-time",
	// "array" or "table".
	Kind string
	// Text is the value as written, cut short when long; for a string,
	// its text, escapes resolved.
	Text string
}

// String describes the value with its kind, as in `string "lots"`,
// `integer 3`, `float 1000` (for 1e3), `array`: the scalars as Go would
// print them, strings quoted and cut short.
func (v Value) String() string {
	switch v.Kind {
	case "string":
		return "string " + Quote(v.Text)
	case "integer":
		if n, err := strconv.ParseInt(strings.ReplaceAll(v.Text, "_", ""), 0, 64); err == nil {
			return fmt.Sprintf("integer %d", n)
		}
	case "float":
		if f, err := strconv.ParseFloat(strings.ReplaceAll(v.Text, "_", ""), 64); err == nil {
			return fmt.Sprintf("float %v", f)
		}
	case "array", "table":
		return v.Kind
	}
	return v.Kind + " " + oneLine(v.Text)
}

// Quote quotes s for a message, escaping control characters and invalid
// UTF-8, and cutting it short when it is long.
func Quote(s string) string {
	const max = 60
	n := 0
	for i := range s {
		if n == max {
			return fmt.Sprintf("%q", s[:i]+"…")
		}
		n++
	}
	return fmt.Sprintf("%q", s)
}

// Example is implemented by a field type that takes text, to show what
// text in the error for a value that is not a string, such as `"75" or
// "#5fafff" for a colour`.
type Example interface{ Example() string }

// Places are where the keys and array items of a decoded file are: the
// first place of each path (a key a file repeats, as in arrays of tables,
// is numbered: see [Unknown.Path]).
type Places struct {
	keys  map[string]Place
	items map[string][]Place // the items of an array of values, by its path
}

// Place is a key's or a value's line and column, 1-based; zero when
// unknown.
type Place struct {
	Line, Col int
	// Refused is set, with no line, for a key that the file has but that
	// was not decoded: its value is of the wrong kind, a problem
	// reported already.
	Refused bool
}

// At is the place of the key or array item at path, such as
// At("profiles", "work", "tools", "0", "name"); the zero Place when the
// file does not have it.
func (p *Places) At(path ...string) Place {
	if p == nil {
		return Place{}
	}
	if at, ok := p.keys[placeKey(path)]; ok {
		return at
	}
	if n := len(path); n > 0 {
		if i, err := strconv.Atoi(path[n-1]); err == nil && i >= 0 {
			if items := p.items[placeKey(path[:n-1])]; i < len(items) {
				return items[i]
			}
		}
	}
	return Place{}
}

// Has reports whether the file sets the key at path, to a value that was
// decoded (not refused).
func (p *Places) Has(path ...string) bool {
	if p == nil {
		return false
	}
	at, ok := p.keys[placeKey(path)]
	return ok && !at.Refused
}

// Refused reports whether the file has the key at path but its value was
// refused (see [Place.Refused]).
func (p *Places) Refused(path ...string) bool { return p.At(path...).Refused }

// placeKey joins a path: NUL, which no key of a real file holds, keeps
// the keys apart.
func placeKey(path []string) string { return strings.Join(path, "\x00") }

// utf8BOM is the byte order mark some editors put at the start of a UTF-8
// file; the library would take it for the start of a key.
const utf8BOM = "\uFEFF"

// Decode reads the TOML document src, from the file path, into v, a
// pointer to a struct whose fields carry `toml:"name"` tags, and returns
// where its keys are and the problems found, in the order of the file.
//
// Places is nil when v could not be decoded. With unknown keys and values
// of the wrong kind, v holds the rest of the file and places is not nil:
// the caller can check what v holds and report all the file's problems
// at once.
func Decode(path string, src []byte, v any, opt Options) (*Places, *Problems) {
	src = bytes.TrimPrefix(src, []byte(utf8BOM))
	w := newWalker(path, src, opt)
	w.walk(v)
	switch {
	case w.fatal != nil:
		probs := &Problems{Path: path}
		probs.Add(w.fatal)
		return nil, probs
	case w.undecodable:
		return nil, &w.probs
	}
	// The library decodes the file without the key = value lines whose
	// values it would refuse, so that the caller can check the rest, and
	// refuses unknown keys when the walk found none (then it found
	// nothing, and this is a safety net).
	dec := toml.NewDecoder(bytes.NewReader(w.blank()))
	if w.probs.Len() == 0 {
		dec = dec.DisallowUnknownFields()
	}
	if err := dec.Decode(v); err != nil {
		// Another problem, such as a key defined twice.
		w.probs.Add(LibraryError(path, err))
		return nil, &w.probs
	}
	if w.probs.Len() == 0 {
		return w.places, nil
	}
	return w.places, &w.probs
}

// LibraryError turns an error of the library, from a document read from
// path, into an [*Error] at its place, its message on one line whatever
// keys it quotes.
func LibraryError(path string, err error) *Error {
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
	if bareWord(msg) {
		msg += `: text is written in quotes, as in model = "name"; true, false and numbers are not`
	}
	if k := de.Key(); len(k) > 0 {
		msg = strings.Join(k, ".") + ": " + msg
	}
	return &Error{Path: path, Line: line, Col: col, Msg: oneLine(msg)}
}

// bareWord reports whether msg, a library error, says a value starts with
// a letter: a word left unquoted, such as default_profile = work (true
// and false, inf and nan are values, and never get here).
func bareWord(msg string) bool {
	const before, after = "unexpected character U+", " at start of value"
	i := strings.Index(msg, before)
	if i < 0 || !strings.HasSuffix(msg, after) {
		return false
	}
	hex, _, _ := strings.Cut(msg[i+len(before):], " ")
	r, err := strconv.ParseUint(hex, 16, 32)
	return err == nil && unicode.IsLetter(rune(r))
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
