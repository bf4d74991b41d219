package config

import (
	"bytes"
	"fmt"
	"sort"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
	"muse/ui/tomlfile"
)

// parseTOML reads a TOML document into a tree whose keys and elements know
// their lines. github.com/pelletier/go-toml/v2 does the reading: its
// unstable.Parser gives the keys in the order written and where they are,
// from which muse builds the tree, and its Unmarshal checks the whole
// document (syntax, keys and tables defined twice, integers out of range,
// impossible dates) and decodes the values. The first problem is returned as
// an [*Error] with its line and column.
//
// muse walks the parser first, in time linear in the size of src, and
// refuses nesting deeper than maxDepth and more than maxKeys keys before
// Unmarshal runs: Unmarshal looks keys up in a list, which takes time
// quadratic in their number.
func parseTOML(path string, src []byte) (*tomlTable, error) {
	src = bytes.TrimPrefix(src, []byte(utf8BOM))
	b := &tomlBuilder{path: path}
	for i, c := range src {
		if c == '\n' {
			b.newlines = append(b.newlines, i)
		}
	}
	root := &tomlTable{line: 1}
	cur := root
	var p unstable.Parser
	p.Reset(src)
	for b.err == nil && !b.lost && p.NextExpression() {
		switch e := p.Expression(); e.Kind {
		case unstable.Table, unstable.ArrayTable:
			cur = b.header(root, e)
		case unstable.KeyValue:
			b.keyValue(cur, e)
		}
	}
	if b.err != nil {
		return nil, b.err
	}
	var values map[string]any
	if err := toml.Unmarshal(src, &values); err != nil {
		return nil, tomlfile.LibraryError(path, err)
	}
	if b.lost || p.Error() != nil {
		// The library accepted what the tree could not hold: a bug of
		// muse's, which FuzzLoadConfig looks for.
		return nil, &Error{Path: path, Line: int(b.line(b.lostAt)), Msg: "muse cannot place this key in its reading of the file (a bug: please report it)"}
	}
	fill(root, values)
	return root, nil
}

// utf8BOM is the byte order mark some editors put at the start of a UTF-8
// file; the library would take it for the start of a key.
const utf8BOM = "\uFEFF"

// tomlBuilder builds the tree of a document from the library's parser,
// before the library has checked the document: it must not fail on one the
// library refuses, and stops there.
type tomlBuilder struct {
	path     string
	newlines []int // offsets of the '\n's of src
	keys     int   // keys and tables in arrays so far
	err      *Error

	// lost is set when the tree cannot hold a key, such as a.b = 1 after
	// a = 1: the document is then one the library refuses, and the walk
	// stops at lostAt.
	lost   bool
	lostAt int
}

// line returns the 1-based line of the byte at offset.
func (b *tomlBuilder) line(offset int) int32 {
	return int32(sort.SearchInts(b.newlines, offset) + 1)
}

// tooDeep records that nesting goes deeper than maxDepth at offset and
// reports whether it does.
func (b *tomlBuilder) tooDeep(depth int32, offset int) bool {
	if depth <= maxDepth {
		return false
	}
	b.fail(offset, "nested more than %d levels deep (tables and arrays inside each other): flatten it", maxDepth)
	return true
}

// room counts one more key or table, at depth, and reports whether it fits;
// when it does not, the problem is recorded at offset.
func (b *tomlBuilder) room(depth int32, offset int) bool {
	if b.tooDeep(depth, offset) {
		return false
	}
	if b.keys++; b.keys > maxKeys {
		b.fail(offset, "more than %d keys: a config file is never that big, check that it is the right one", maxKeys)
		return false
	}
	return true
}

// fail records the first problem, at offset.
func (b *tomlBuilder) fail(offset int, format string, args ...any) {
	if b.err != nil {
		return
	}
	line := b.line(offset)
	col := offset + 1
	if line > 1 {
		col = offset - b.newlines[line-2]
	}
	b.err = &Error{Path: b.path, Line: int(line), Col: col, Msg: fmt.Sprintf(format, args...)}
}

// header goes to the table of a [table] or [[array of tables]] header,
// making the tables on its way, and returns it.
func (b *tomlBuilder) header(root *tomlTable, e *unstable.Node) *tomlTable {
	t := root
	for it := e.Key(); it.Next(); {
		k := it.Node()
		name, at := string(k.Data), int(k.Raw.Offset)
		line := b.line(at)
		i := t.find(name)
		switch {
		case !it.IsLast() || e.Kind == unstable.Table:
			if i < 0 {
				if !b.room(t.depth+1, at) {
					return t
				}
				t.add(name, &tomlTable{line: line, depth: t.depth + 1, implicit: !it.IsLast()}, line)
				i = len(t.keys) - 1
			}
			sub := b.table(t.keys[i].val, at)
			if sub == nil {
				return t
			}
			if it.IsLast() && sub.implicit {
				// A table named by a longer header first takes the line of
				// its own header.
				sub.implicit, sub.line, t.keys[i].line = false, line, line
			}
			t = sub
		default: // the last key of [[array of tables]]
			if i < 0 {
				if !b.room(t.depth+1, at) {
					return t
				}
				t.add(name, &tomlArray{depth: t.depth + 1}, line)
				i = len(t.keys) - 1
			}
			arr, ok := t.keys[i].val.(*tomlArray)
			if !ok {
				b.disagree(at)
				return t
			}
			elem := &tomlTable{line: line, depth: arr.depth + 1}
			if !b.room(elem.depth, at) {
				return t
			}
			arr.push(elem, line)
			t = elem
		}
	}
	return t
}

// table returns v as a table to add to: v itself, or the last table of an
// array of tables.
func (b *tomlBuilder) table(v any, at int) *tomlTable {
	switch v := v.(type) {
	case *tomlTable:
		return v
	case *tomlArray:
		if n := len(v.elems); n > 0 {
			if t, ok := v.elems[n-1].val.(*tomlTable); ok {
				return t
			}
		}
	}
	b.disagree(at)
	return nil
}

// disagree records that the tree cannot hold the key at offset at.
func (b *tomlBuilder) disagree(at int) {
	if !b.lost {
		b.lost, b.lostAt = true, at
	}
}

// keyValue adds key = value, whose key may be dotted, to t.
func (b *tomlBuilder) keyValue(t *tomlTable, e *unstable.Node) {
	for it := e.Key(); it.Next(); {
		k := it.Node()
		name, at := string(k.Data), int(k.Raw.Offset)
		line := b.line(at)
		i := t.find(name)
		if it.IsLast() {
			if b.room(t.depth, at) {
				t.add(name, b.value(e.Value(), t.depth+1, at), line)
			}
			return
		}
		if i < 0 {
			if !b.room(t.depth+1, at) {
				return
			}
			t.add(name, &tomlTable{line: line, depth: t.depth + 1}, line)
			i = len(t.keys) - 1
		}
		if t = b.table(t.keys[i].val, at); t == nil {
			return
		}
	}
}

// value builds the value n, at the given depth; at is where n or the key
// before it starts, for messages. Scalars other than dates are left nil,
// for fill to take from the library.
func (b *tomlBuilder) value(n *unstable.Node, depth int32, at int) any {
	switch n.Kind {
	case unstable.Array:
		if b.tooDeep(depth, at) {
			return nil
		}
		a := &tomlArray{depth: depth}
		for it := n.Children(); it.Next(); {
			c := it.Node()
			if o := start(c); o >= 0 {
				at = o
			}
			a.push(b.value(c, depth+1, at), b.line(at))
		}
		return a
	case unstable.InlineTable:
		at = int(n.Raw.Offset)
		if !b.room(depth, at) {
			return nil
		}
		t := &tomlTable{line: b.line(at), depth: depth}
		for it := n.Children(); it.Next(); {
			b.keyValue(t, it.Node())
		}
		return t
	case unstable.LocalDate, unstable.LocalTime, unstable.LocalDateTime, unstable.DateTime:
		return tomlDatetime(n.Data)
	}
	return nil
}

// start returns the offset where the value n starts, or -1 when it is not
// known: the parser keeps no range for an array, whose start is then taken
// from its first element.
func start(n *unstable.Node) int {
	for i := 0; n != nil && i <= maxDepth; i++ {
		if n.Raw.Length > 0 {
			return int(n.Raw.Offset)
		}
		n = n.Child()
	}
	return -1
}

// fill puts the values the library decoded, m, at the scalars of t, which
// has the same shape.
func fill(t *tomlTable, m map[string]any) {
	for i := range t.keys {
		t.keys[i].val = filled(t.keys[i].val, m[t.keys[i].name])
	}
}

// filled returns v with the library's value lib at its scalars.
func filled(v, lib any) any {
	switch v := v.(type) {
	case *tomlTable:
		m, _ := lib.(map[string]any)
		fill(v, m)
		return v
	case *tomlArray:
		l, _ := lib.([]any)
		for i := range v.elems {
			var e any
			if i < len(l) {
				e = l[i]
			}
			v.elems[i].val = filled(v.elems[i].val, e)
		}
		return v
	case tomlDatetime:
		return v
	}
	return lib
}

// The tree: every key and array element keeps the line it starts on, so
// that problems found later can be reported at the right place. Values are
// string, int64, float64, bool, tomlDatetime, *tomlArray and *tomlTable.

// tomlTable is a TOML table with its keys in the order the file gives them.
type tomlTable struct {
	keys     []tomlKey
	index    map[string]int32 // name → position in keys, once there are many
	line     int32            // where the table starts
	depth    int32            // tables and arrays around it
	implicit bool             // named only by a longer [a.b.c] header so far
}

// tomlKey is one key of a table.
type tomlKey struct {
	name string
	val  any
	line int32
}

// tomlArray is a TOML array: a static one written [ ... ], or an array of
// tables made by [[header]]s.
type tomlArray struct {
	elems []tomlElem
	depth int32
}

// tomlElem is one element of an array.
type tomlElem struct {
	val  any
	line int32 // where it starts
}

// tomlDatetime is a date, time or date-time, as written.
type tomlDatetime string

// indexAfter is the number of keys from which a table keeps an index, so that
// finding a key stays cheap in tables with many keys.
const indexAfter = 8

// find returns the position of the key name, or -1.
func (t *tomlTable) find(name string) int {
	if t.index != nil {
		if i, ok := t.index[name]; ok {
			return int(i)
		}
		return -1
	}
	for i := range t.keys {
		if t.keys[i].name == name {
			return i
		}
	}
	return -1
}

// add appends a key that is not in the table yet.
func (t *tomlTable) add(name string, val any, line int32) {
	t.keys = append(t.keys, tomlKey{name: name, val: val, line: line})
	switch n := len(t.keys); {
	case n > indexAfter && t.index == nil:
		t.index = make(map[string]int32, 2*n)
		for i, k := range t.keys {
			t.index[k.name] = int32(i)
		}
	case t.index != nil:
		t.index[name] = int32(n - 1)
	}
}

// has reports whether the table has the key name.
func (t *tomlTable) has(name string) bool { return t.find(name) >= 0 }

// values returns the elements' values, each passed through f when it is not
// nil.
func (a *tomlArray) values(f func(any) any) []any {
	vals := make([]any, len(a.elems))
	for i, e := range a.elems {
		vals[i] = e.val
		if f != nil {
			vals[i] = f(e.val)
		}
	}
	return vals
}

// push appends an element that starts at line.
func (a *tomlArray) push(val any, line int32) {
	a.elems = append(a.elems, tomlElem{val: val, line: line})
}

// plain returns v as plain Go values, as encoding/json writes them: tables
// become map[string]any, arrays []any and dates their text.
func plain(v any) any {
	switch v := v.(type) {
	case *tomlTable:
		m := make(map[string]any, len(v.keys))
		for _, k := range v.keys {
			m[k.name] = plain(k.val)
		}
		return m
	case *tomlArray:
		return v.values(plain)
	case tomlDatetime:
		return string(v)
	}
	return v
}
