package config

import (
	"slices"
	"strings"
)

// The TOML parser builds a tree of these types. Every key and array element
// keeps the line it starts on, so that problems found later can be reported
// at the right place without reading the file again.
//
// Values are string, int64, float64, bool, tomlDatetime, *tomlArray and
// *tomlTable.

// tableKind says how a table came to be, which decides what may still be
// added to it (TOML 1.1, section "Table").
type tableKind uint8

const (
	// implicitTable was named as part of a longer [a.b.c] header only; a
	// header of its own may still define it.
	implicitTable tableKind = iota
	// headerTable was defined by its own [header] or [[header]].
	headerTable
	// dottedTable was made by dotted keys such as a.b = 1; only more dotted
	// keys of the same section may add to it.
	dottedTable
	// inlineTable was written { ... }: nothing may be added to it.
	inlineTable
)

// tomlTable is a TOML table with its keys in the order the file gives them.
type tomlTable struct {
	keys    []tomlKey
	index   map[string]int32 // name → position in keys, once there are many
	line    int32            // where the table starts
	depth   int32            // tables and arrays around it
	section int32            // for a dottedTable, the section that made it
	kind    tableKind
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
	elems  []tomlElem
	depth  int32
	tables bool // made by [[header]]s: later ones add to it
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
	t.keys = append(grow(t.keys), tomlKey{name: name, val: val, line: line})
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
	a.elems = append(grow(a.elems), tomlElem{val: val, line: line})
}

// grow makes room for one more element in s, doubling its capacity when it
// is full: append grows large slices by a quarter, which allocates several
// times their final size along the way.
func grow[S ~[]E, E any](s S) S {
	if len(s) < cap(s) {
		return s
	}
	return slices.Grow(s, max(len(s), 1))
}

// get returns the value of the key name, or nil.
func (t *tomlTable) get(name string) any {
	if i := t.find(name); i >= 0 {
		return t.keys[i].val
	}
	return nil
}

// has reports whether the table has the key name.
func (t *tomlTable) has(name string) bool { return t.find(name) >= 0 }

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

// dotted writes a key path as a TOML dotted key, quoting the parts that are
// not bare.
func dotted(segs []string) string {
	q := make([]string, len(segs))
	for i, s := range segs {
		q[i] = tableKey(s)
	}
	return strings.Join(q, ".")
}
