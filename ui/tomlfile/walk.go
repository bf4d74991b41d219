package tomlfile

import (
	"bytes"
	"encoding"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/pelletier/go-toml/v2/unstable"
)

// walker checks a document against the type it is decoded into.
type walker struct {
	path     string
	src      []byte
	opt      Options
	newlines []int // offsets of the '\n's of the document
	keys     int
	places   *Places
	aot      map[string]int // arrays of tables: items so far, by path
	probs    Problems
	// fatal is a limit passed: the walk stops there.
	fatal *Error
	// undecodable is set by a problem the library would stumble on in a
	// header: the file is not decoded.
	undecodable bool
	// cuts are the lines of the key = value expressions with a value the
	// library would refuse, which it decodes without (see blank); inHeader
	// is set while a header is followed, cut while the current key =
	// value is to be cut, from the line it starts on.
	cuts     [][2]int
	inHeader bool
	cut      bool
	cutFrom  int
	// added are the places first recorded by the current key = value,
	// which a cut marks refused.
	added  []string
	keyBuf []byte
	p      unstable.Parser
}

func newWalker(path string, src []byte, opt Options) *walker {
	w := &walker{path: path, src: src, opt: opt, places: &Places{keys: map[string]Place{}, items: map[string][]Place{}}, aot: map[string]int{}}
	w.probs.Path = path
	w.newlines = make([]int, 0, bytes.Count(src, []byte{'\n'}))
	for i, c := range src {
		if c == '\n' {
			w.newlines = append(w.newlines, i)
		}
	}
	w.p.Reset(src)
	return w
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

// walk checks every expression of the document against the type of v. A
// syntax error is left to the library, which reports it at its place.
func (w *walker) walk(v any) {
	root := reflect.TypeOf(v)
	table := root   // the type of the current table
	var at []string // its path
	depth := 0      // and depth
	for w.fatal == nil && w.p.NextExpression() {
		e := w.p.Expression()
		it := e.Key()
		keyed := it.Next()
		if keyed {
			w.endCut(int(it.Node().Raw.Offset))
		}
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			table, at, depth = w.header(e, root)
		case unstable.KeyValue:
			if keyed {
				w.cutFrom = w.lineStart(int(it.Node().Raw.Offset))
			}
			w.keyValue(e, table, at, depth)
		}
	}
	w.endCut(len(w.src))
	if w.fatal == nil && w.p.Error() != nil {
		w.probs = Problems{Path: w.path}
		w.undecodable, w.cuts = false, nil
	}
}

// lineStart is the offset of the start of the line of the byte at offset.
func (w *walker) lineStart(offset int) int {
	if i := sort.SearchInts(w.newlines, offset); i > 0 {
		return w.newlines[i-1] + 1
	}
	return 0
}

// endCut ends the lines to cut, if any, before the line of the next
// expression, which starts at offset.
func (w *walker) endCut(offset int) {
	if w.cut {
		w.cuts = append(w.cuts, [2]int{w.cutFrom, w.lineStart(offset)})
		w.cut = false
		for _, k := range w.added {
			w.places.keys[k] = Place{Refused: true}
		}
	}
	w.added = w.added[:0]
}

// refuse records that the library would refuse the current expression:
// a header's, or a key = value's, which is then cut.
func (w *walker) refuse() {
	if w.inHeader {
		w.undecodable = true
	} else {
		w.cut = true
	}
}

// blank returns src with the lines of w.cuts blanked, their newlines
// kept, so that the library decodes the rest and its places stay true.
func (w *walker) blank() []byte {
	if len(w.cuts) == 0 {
		return w.src
	}
	out := bytes.Clone(w.src)
	for _, c := range w.cuts {
		for i := c[0]; i < c[1]; i++ {
			if out[i] != '\n' {
				out[i] = ' '
			}
		}
	}
	return out
}

// room counts one more key, at offset, that makes a table or array at
// depth (0 for a key of the table it is in), and reports whether the
// limits allow it; when they do not, the walk stops there.
func (w *walker) room(depth, offset int) bool {
	if w.keys++; w.keys > w.opt.Keys {
		w.stop(offset, "more than %d keys: %s is never that big, check that it is the right one", w.opt.Keys, w.opt.What)
		return false
	}
	return w.shallow(depth, offset)
}

// shallow reports whether a table or array at depth is within the
// limits; when it is not, the walk stops at offset.
func (w *walker) shallow(depth, offset int) bool {
	if depth > w.opt.Depth && w.fatal == nil {
		w.stop(offset, "nested more than %d levels deep (tables and arrays inside each other): flatten it", w.opt.Depth)
	}
	return w.fatal == nil
}

// stop records the limit passed at offset.
func (w *walker) stop(offset int, format string, args ...any) {
	at := w.place(offset)
	w.fatal = &Error{Path: w.path, Line: at.Line, Col: at.Col, Msg: fmt.Sprintf(format, args...)}
}

// record keeps the place of path, at offset; a header's own table takes
// the place of its header even when a longer header named it first.
func (w *walker) record(path []string, offset int, header bool) {
	// The key is built in a buffer, and a string made only for a new one.
	w.keyBuf = w.keyBuf[:0]
	for i, p := range path {
		if i > 0 {
			w.keyBuf = append(w.keyBuf, 0)
		}
		w.keyBuf = append(w.keyBuf, p...)
	}
	if _, seen := w.places.keys[string(w.keyBuf)]; seen {
		if header {
			w.places.keys[string(w.keyBuf)] = w.place(offset)
		}
		return
	}
	k := string(w.keyBuf)
	w.places.keys[k] = w.place(offset)
	if !w.inHeader {
		w.added = append(w.added, k)
	}
}

// Depth: a table or array is as deep as its path is long (the root is 0;
// [a.b] is 2, the items of a = [[1]] are 2 and 3); the path is kept only
// where the type is known, so that anything below an unknown key or an
// interface costs no paths, and depth counts what the path would be.

// header follows a [table] or [[array of tables]] header from the root,
// and returns the type, the path and the depth of the table it opens: for
// an array of tables, its new item's.
func (w *walker) header(e *unstable.Node, root reflect.Type) (reflect.Type, []string, int) {
	w.inHeader = true
	defer func() { w.inHeader = false }()
	t := root
	var path []string
	depth, offset := 0, 0
	for it := e.Key(); it.Next(); {
		k := it.Node()
		name, last := string(k.Data), it.IsLast()
		offset = int(k.Raw.Offset)
		depth++
		if last && e.Kind == unstable.ArrayTable {
			depth++ // the array and its item
		}
		if !w.room(depth, offset) {
			return nil, nil, 0
		}
		if t == nil {
			continue
		}
		f, known, ok := child(t, k.Data)
		if !ok {
			w.unknown(offset, path, k.Data, known, true, t)
			t = nil
			continue
		}
		path = append(path, name)
		if t = f.t; t == nil {
			continue
		}
		w.record(path, offset, last)
		switch {
		case last && e.Kind == unstable.Table && arrayOfTables(t):
			// [x] for an array of tables, which takes [[x]].
			w.mismatch(offset, Mismatch{Path: path, Want: takes(t), Expect: f.expect, Got: Value{Kind: "table"}})
			return nil, path, depth
		case last && e.Kind == unstable.ArrayTable && !arrayOfTables(t) && deref(t).Kind() != reflect.Interface:
			// [[x]] for what is no array of tables.
			w.mismatch(offset, Mismatch{Path: path, Want: takes(t), Expect: f.expect, Got: Value{Kind: "array"}})
			return nil, path, depth
		}
		if arrayOfTables(t) {
			// Through an array of tables: to its last item, or to a new
			// one for the last key of [[header]].
			k := placeKey(path)
			if last && e.Kind == unstable.ArrayTable {
				w.aot[k]++
			} else {
				depth++
			}
			path = append(path, strconv.Itoa(max(w.aot[k]-1, 0)))
			w.record(path, offset, last)
			t = deref(t).Elem()
		}
	}
	if t != nil && e.Kind == unstable.Table {
		if want := wants(t, unstable.InlineTable); want != "" {
			w.mismatch(offset, Mismatch{Path: path, Want: want, Got: Value{Kind: "table"}})
			return nil, path, depth
		}
	}
	return t, path, depth
}

// keyValue checks key = value, whose key may be dotted, in the table of
// type t (nil when anything goes) at path and depth.
func (w *walker) keyValue(e *unstable.Node, t reflect.Type, path []string, depth int) {
	path = path[:len(path):len(path)]
	val := e.Value()
	var f field
	offset := 0
	for it := e.Key(); it.Next(); {
		k := it.Node()
		offset = int(k.Raw.Offset)
		if !it.IsLast() {
			depth++ // a table
		}
		if !w.room(depth, offset) {
			return
		}
		if it.IsLast() {
			depth++ // what the value would be
		}
		if t == nil {
			continue
		}
		var known []string
		var ok bool
		if f, known, ok = child(t, k.Data); !ok {
			w.unknown(offset, path, k.Data, known, !it.IsLast() || val.Kind == unstable.InlineTable, t)
			t = nil
			continue
		}
		path = append(path, string(k.Data))
		w.record(path, offset, false)
		t = f.t
	}
	w.value(val, t, path, depth, offset, 0, f.expect)
}

// value checks the value n at path and depth, of type t (nil when
// anything goes); at is where its key starts, item its 1-based number in
// its array (0 when it is no item) and expect its field's expect tag.
func (w *walker) value(n *unstable.Node, t reflect.Type, path []string, depth, at, item int, expect string) {
	offset := start(n, at)
	if t != nil {
		if want := wants(t, n.Kind); want != "" {
			m := Mismatch{Path: path, Want: want, Expect: expect, Item: item, Got: w.describe(n)}
			if ex, ok := reflect.New(deref(t)).Interface().(Example); ok {
				m.Example = ex.Example()
			}
			w.mismatch(offset, m)
			t = nil // and on, for the limits
		}
	}
	switch n.Kind {
	case unstable.InlineTable:
		if !w.room(depth, offset) { // a table counts as a key
			return
		}
		if t != nil && deref(t).Kind() == reflect.Interface {
			t = nil
		}
		for it := n.Children(); w.fatal == nil && it.Next(); {
			w.keyValue(it.Node(), t, path, depth)
		}
	case unstable.Array:
		if !w.shallow(depth, at) { // at its key: the parser keeps no place for an array
			return
		}
		var et reflect.Type
		if t != nil {
			if dt := deref(t); dt.Kind() == reflect.Slice || dt.Kind() == reflect.Array {
				et = dt.Elem()
			}
		}
		// The items' places are kept in a list for the array; a path is
		// made only for an item to check further.
		var items []Place
		i := 0
		for it := n.Children(); w.fatal == nil && it.Next(); i++ {
			c := it.Node()
			cat := start(c, at)
			nested := c.Kind == unstable.Array || c.Kind == unstable.InlineTable
			switch {
			case et == nil && nested:
				w.value(c, nil, nil, depth+1, cat, i+1, expect)
			case et != nil:
				items = append(items, w.place(cat))
				if nested || wants(et, c.Kind) != "" {
					ip := append(path[:len(path):len(path)], strconv.Itoa(i))
					w.value(c, et, ip, depth+1, cat, i+1, expect)
				}
			}
		}
		if k := placeKey(path); et != nil && w.places.items[k] == nil {
			w.places.items[k] = items
		}
	}
}

// unknown records the unknown key name at offset, in the table at path,
// of type parent, that knows the keys known (nil for a value that is no
// table); table is set when the key holds a table.
func (w *walker) unknown(offset int, path []string, name []byte, known []string, table bool, parent reflect.Type) {
	if known == nil {
		w.refuse() // a value that is no table: the library would refuse it
	}
	at := w.place(offset)
	if !w.probs.Wants(at.Line) {
		return
	}
	u := Unknown{Path: append(path[:len(path):len(path)], string(name)), Known: known, Table: table}
	if known == nil {
		u.Want = takes(parent)
	}
	msg := ""
	if w.opt.Unknown != nil {
		msg = w.opt.Unknown(u)
	}
	if msg == "" {
		msg = unknownMsg(u)
	}
	w.probs.Add(&Error{Path: w.path, Line: at.Line, Col: at.Col, Msg: msg})
}

// mismatch records the value of the wrong kind at offset.
func (w *walker) mismatch(offset int, m Mismatch) {
	w.refuse()
	at := w.place(offset)
	if !w.probs.Wants(at.Line) {
		return
	}
	msg := ""
	if w.opt.Mismatch != nil {
		msg = w.opt.Mismatch(m)
	}
	if msg == "" {
		hint := ""
		if m.Example != "" {
			hint = ", such as " + m.Example
		}
		got := m.Got.Text
		switch {
		case m.Got.Kind == "string":
			got = Quote(got)
		case got == "":
			got = m.Got.Kind
		}
		msg = fmt.Sprintf("%s: expected %s%s, got %s", oneLine(strings.Join(m.Path, ".")), m.Want, hint, oneLine(got))
	}
	w.probs.Add(&Error{Path: w.path, Line: at.Line, Col: at.Col, Msg: msg})
}

// describe is the value n as written.
func (w *walker) describe(n *unstable.Node) Value {
	v := Value{Kind: kindName(n.Kind)}
	switch {
	case n.Kind == unstable.String:
		v.Text = string(n.Data)
	case n.Raw.Length > 0:
		b := w.p.Raw(n.Raw)
		if len(b) > 60 {
			b = append(b[:60:60], "…"...)
		}
		v.Text = string(b)
	}
	return v
}

// kindName names the kind of a value node, for messages.
func kindName(k unstable.Kind) string {
	switch k {
	case unstable.String:
		return "string"
	case unstable.Integer:
		return "integer"
	case unstable.Float:
		return "float"
	case unstable.Bool:
		return "boolean"
	case unstable.Array:
		return "array"
	case unstable.InlineTable:
		return "table"
	}
	return "date-time"
}

// start returns the offset where the value n starts, or at when it is not
// known: the parser keeps no range for an array, whose start is then
// taken from its first element.
func start(n *unstable.Node, at int) int {
	for ; n != nil; n = n.Child() {
		if n.Raw.Length > 0 {
			return int(n.Raw.Offset)
		}
	}
	return at
}

// unknownMsg is the default wording of an unknown key.
func unknownMsg(u Unknown) string {
	name := strings.Join(u.Path, ".")
	if u.Known == nil {
		return fmt.Sprintf("unknown key %s: %s takes no table", oneLine(name), oneLine(strings.Join(u.Path[:len(u.Path)-1], ".")))
	}
	return fmt.Sprintf("unknown key %s: expected one of %s%s", oneLine(name), strings.Join(u.Known, ", "), Suggest(u.Path[len(u.Path)-1], u.Known))
}

var textUnmarshaler = reflect.TypeOf((*encoding.TextUnmarshaler)(nil)).Elem()

// takesText reports whether a value of type t is read from text.
func takesText(t reflect.Type) bool {
	dt := deref(t)
	return dt.Kind() != reflect.String && reflect.PointerTo(dt).Implements(textUnmarshaler)
}

// wants returns what a field of type t takes (see takes), when a value of
// kind k is not that, or "".
func wants(t reflect.Type, k unstable.Kind) string {
	dt := deref(t)
	var ok bool
	switch {
	case takesText(dt):
		ok = k == unstable.String || k >= unstable.LocalDate // dates are the library's to check
	case dt.Kind() == reflect.Interface:
		ok = true
	case dt.Kind() == reflect.String:
		ok = k == unstable.String
	case dt.Kind() >= reflect.Int && dt.Kind() <= reflect.Uint64:
		ok = k == unstable.Integer
	case dt.Kind() == reflect.Float32 || dt.Kind() == reflect.Float64:
		ok = k == unstable.Integer || k == unstable.Float
	case dt.Kind() == reflect.Bool:
		ok = k == unstable.Bool
	case dt.Kind() == reflect.Struct || dt.Kind() == reflect.Map:
		ok = k == unstable.InlineTable
	case dt.Kind() == reflect.Slice || dt.Kind() == reflect.Array:
		ok = k == unstable.Array
	default:
		ok = true // the library's to check
	}
	if ok {
		return ""
	}
	return takes(dt)
}

// takes says what a field of type t takes: "a string", "an integer", "a
// number", "true or false", "a table", "a list of strings", "an array of
// tables" or "an array".
func takes(t reflect.Type) string {
	dt := deref(t)
	switch {
	case takesText(dt), dt.Kind() == reflect.String:
		return "a string"
	case dt.Kind() >= reflect.Int && dt.Kind() <= reflect.Uint64:
		return "an integer"
	case dt.Kind() == reflect.Float32 || dt.Kind() == reflect.Float64:
		return "a number"
	case dt.Kind() == reflect.Bool:
		return "true or false"
	case dt.Kind() == reflect.Struct || dt.Kind() == reflect.Map:
		return "a table"
	case arrayOfTables(dt):
		return "an array of tables"
	case (dt.Kind() == reflect.Slice || dt.Kind() == reflect.Array) && deref(dt.Elem()).Kind() == reflect.String:
		return "a list of strings"
	}
	return "an array"
}

// arrayOfTables reports whether t is a slice of tables.
func arrayOfTables(t reflect.Type) bool {
	dt := deref(t)
	if dt.Kind() != reflect.Slice && dt.Kind() != reflect.Array {
		return false
	}
	et := deref(dt.Elem())
	return (et.Kind() == reflect.Struct || et.Kind() == reflect.Map) && !takesText(et)
}

// deref is t without its pointers.
func deref(t reflect.Type) reflect.Type {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

// field is the type of a key's value and its field's expect tag.
type field struct {
	t      reflect.Type // nil for anything
	expect string
}

// child returns the field of the key name in a table of type t, or false
// and the keys t knows (nil when t is not a table). Below an interface,
// anything goes.
func child(t reflect.Type, name []byte) (field, []string, bool) {
	if t == nil {
		return field{}, nil, true
	}
	t = deref(t)
	switch t.Kind() {
	case reflect.Interface:
		return field{}, nil, true
	case reflect.Map:
		et := t.Elem()
		if deref(et).Kind() == reflect.Interface {
			et = nil
		}
		return field{t: et}, nil, true
	case reflect.Struct:
		if takesText(t) {
			return field{}, nil, false
		}
		fs := fieldsOf(t)
		if f, ok := fs.byKey[string(name)]; ok {
			return f, nil, true
		}
		if len(fs.folded) > 0 {
			if f, ok := fs.folded[strings.ToLower(string(name))]; ok {
				return f, nil, true
			}
		}
		return field{}, fs.known, false
	}
	return field{}, nil, false
}

// fields are the keys of a struct type, as the library reads them.
type fields struct {
	byKey  map[string]field
	folded map[string]field // untagged fields, by their lower-case name
	known  []string         // in the order of the fields
}

// structFields caches fields by struct type: finding a key costs a map
// look-up, not a walk over the struct's tags.
var structFields sync.Map // reflect.Type → *fields

// fieldsOf returns the fields of the struct type t.
func fieldsOf(t reflect.Type) *fields {
	if fs, ok := structFields.Load(t); ok {
		return fs.(*fields)
	}
	fs := &fields{byKey: map[string]field{}, folded: map[string]field{}}
	fs.add(t)
	structFields.Store(t, fs)
	return fs
}

// add adds the fields of the struct t, looking into embedded structs as
// the library does.
func (fs *fields) add(t reflect.Type) {
	for i := range t.NumField() {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("toml"), ",")
		if f.Anonymous && tag == "" && deref(f.Type).Kind() == reflect.Struct {
			fs.add(deref(f.Type))
			continue
		}
		if !f.IsExported() || tag == "-" {
			continue
		}
		ft := f.Type
		if deref(ft).Kind() == reflect.Interface {
			ft = nil
		}
		fd := field{t: ft, expect: f.Tag.Get("expect")}
		if tag == "" {
			fs.known = append(fs.known, f.Name)
			fs.byKey[f.Name] = fd
			fs.folded[strings.ToLower(f.Name)] = fd
			continue
		}
		fs.known = append(fs.known, tag)
		fs.byKey[tag] = fd
	}
}

// Keys lists the keys of a table of the struct type t, in the order of its
// fields, as the walk knows them.
func Keys(t reflect.Type) []string {
	return slices.Clone(fieldsOf(deref(t)).known)
}
