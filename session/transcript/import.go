package transcript

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"time"

	"muse/session"
)

// maxImport is the largest export Import reads, in bytes.
const maxImport = 1 << 30

// importHint says what Import reads, for its errors about the input.
const importHint = "import reads what muse sessions export --format json writes"

// Import reads a session as Export writes it in format "json" and saves it
// as a new session, with a new id: the same title marked as imported
// ("Title (imported)", see session.ImportedSuffix), settings and entries, in
// order, image entries with the paths of their files. The new session is
// created now; its entries keep their times. It returns the new session,
// as loaded back (Save does not load it).
//
// Anything else is refused, and nothing of it is left: input that is not
// JSON, has trailing data, is not an object of the export's shape (an
// unknown field, a value of the wrong type), or holds an entry without an
// id, with the id of an earlier entry or of a kind muse does not know. The
// error names the line and column of the input where it went wrong.
func Import(s *session.Store, r io.Reader) (*session.Session, error) {
	saved, err := Save(s, r, false)
	if err != nil {
		return nil, err
	}
	return s.Load(saved.ID)
}

// ImportMerge reads an export as Import does. When the store holds the
// session it was exported from (the same id), it merges the export into
// it (see session.Store.MergeImported) and reports merged, with how many
// entries it added; otherwise it saves it as a new session, as Import.
func ImportMerge(s *session.Store, r io.Reader) (sess *session.Session, merged bool, added int, err error) {
	saved, err := Save(s, r, true)
	if err != nil {
		return nil, false, 0, err
	}
	sess, err = s.Load(saved.ID)
	return sess, saved.Merged, saved.Entries, err
}

// Saved is what Save did.
type Saved struct {
	// ID is the session saved or merged into.
	ID string
	// Merged is set when the export was merged into the session it was
	// exported from.
	Merged bool
	// Entries counts the entries saved, or added by the merge.
	Entries int
}

// Save reads an export as Import does, and saves it as a new session as it
// reads it (see session.Import): it holds about an entry of it at a time,
// whatever its size. With merge, an export of a session the store holds
// (the same id) is merged into it instead, as ImportMerge does.
func Save(s *session.Store, r io.Reader, merge bool) (Saved, error) {
	var im *session.Import
	var m *session.Merging
	var ex *session.Imported
	begin := func() error {
		if im != nil || m != nil {
			return nil
		}
		if merge && s.Exists(ex.ID) {
			var err error
			m, err = s.BeginMerge(ex.ID)
			if !errors.Is(err, session.ErrNotFound) {
				return err // merging, or a failure to open it (its lock)
			}
			// Deleted since: saved as a new one.
		}
		var err error
		im, err = s.BeginImport(ex.Params)
		return err
	}
	t := target{
		entry: func(e session.Entry) error {
			if err := begin(); err != nil {
				return err
			}
			if m != nil {
				m.Add(e)
				return nil
			}
			return im.Add(e)
		},
		file: func(hash string, data []byte) error {
			if err := begin(); err != nil {
				return err
			}
			if m != nil {
				m.AddFile(hash, data)
				return nil
			}
			im.AddFile(hash, data)
			return nil
		},
		params: func(p session.Params) {
			if im != nil {
				im.SetParams(p)
			}
		},
		endEntries: func() {
			if m != nil {
				m.EndEntries()
			}
			if im != nil {
				im.EndEntries()
			}
		},
	}
	ex, err := read(r, &t, &ex)
	if err == nil {
		err = begin()
	}
	if err == nil && im != nil && merge && s.Exists(ex.ID) {
		err = fmt.Errorf("import session: its id comes after its entries, so it could not be merged into session %s, which this muse holds (%s; or import it as a new session with --copy)", ex.ID, importHint)
	}
	if err != nil {
		if im != nil {
			im.Abort()
		}
		if m != nil {
			m.Abort()
		}
		return Saved{}, err
	}
	if m != nil {
		added, err := m.Finish(ex.Title, ex.Tree)
		if err != nil {
			return Saved{}, err
		}
		return Saved{ID: ex.ID, Merged: true, Entries: added}, nil
	}
	if err := im.Finish(ex.Title, ex.Tree, ex.Head); err != nil {
		return Saved{}, err
	}
	return Saved{ID: im.ID(), Entries: im.Entries()}, nil
}

// target is what the parser gives what it reads as it reads it: each
// entry, checked, and the bytes of each file; params are the settings,
// should they come after the first entry or file.
type target struct {
	entry      func(session.Entry) error
	file       func(hash string, data []byte) error
	params     func(session.Params)
	endEntries func()
}

// read reads and checks an export, giving what it reads to t as it reads
// it; *ex is the export as read so far, which t may look at.
func read(r io.Reader, t *target, ex **session.Imported) (*session.Imported, error) {
	in := &window{r: r}
	p := &parser{in: in, t: t, ids: map[string]int{}}
	err := p.parseExport(ex)
	switch {
	case in.tooLarge:
		return nil, fmt.Errorf("import session: the input is larger than the %d MiB an export may be", maxImport>>20)
	case in.readErr != nil:
		return nil, fmt.Errorf("import session: read the export: %w", in.readErr)
	case err != nil && p.saveErr != nil:
		return nil, err // a failure to save, which says so
	case err != nil:
		return nil, fmt.Errorf("import session: %w (%s)", err, importHint)
	}
	if e := *ex; e.Tree {
		if p.orphan != nil {
			return nil, fmt.Errorf("import session: %w (%s)", p.orphan, importHint)
		}
		if e.Head != "" && p.ids[e.Head] == 0 {
			return nil, fmt.Errorf("import session: the head %q is not one of the entries (%s)", e.Head, importHint)
		}
	}
	return *ex, nil
}

// inputError is a fault of the input at a byte offset, which its message
// gives as a line and a column.
type inputError struct {
	line, col int
	msg       string
}

func (e *inputError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.line, e.col, e.msg)
}

// knownKinds are the entry kinds Import accepts.
var knownKinds = map[string]bool{
	session.KindUser: true, session.KindAssistant: true, session.KindError: true, session.KindNotice: true, session.KindImage: true, session.KindTool: true,
}

// parser walks an export with a json.Decoder's tokens, as it is read:
// what it keeps of the input is the value being read (an entry, say),
// so that an import takes about the memory of what it keeps, and its
// errors can say at which line and column of the input they are.
type parser struct {
	in  *window
	dec *json.Decoder
	// base is the offset of the input at which dec's offsets are 0 (see
	// resume).
	base int64
	t    *target
	// ids are the entries read, by id: the number of each, from 1.
	ids map[string]int
	// orphan is the first entry whose parent does not come before it:
	// an export of every branch that was edited or cut.
	orphan error
	// saveErr is the error of the target, which stopped the reading.
	saveErr error
}

// at returns an inputError at the byte offset off of the input, which
// must not lie before the window's mark.
func (p *parser) at(off int, format string, args ...any) error {
	line, col := p.in.position(int64(off))
	return &inputError{line: line, col: col, msg: fmt.Sprintf(format, args...)}
}

// off returns the offset in the input of the decoder's position.
func (p *parser) off() int64 { return p.base + p.dec.InputOffset() }

// Where resume goes on: in the entries' array, or in the files' object,
// after a value.
const (
	inEntries = `{"":[0`
	inFiles   = `{"":{"":0`
)

// resume goes on reading the input from the offset off, the end of a value
// read past the decoder (see entry): a new decoder is given state, which
// puts it where off is, after a value in an array or object in the
// session's object, and then the input from off on.
func (p *parser) resume(off int64, state string) error {
	p.in.rewind(off)
	p.dec = json.NewDecoder(io.MultiReader(strings.NewReader(state), p.in))
	p.base = off - int64(len(state))
	for p.dec.InputOffset() < int64(len(state)) {
		if _, err := p.dec.Token(); err != nil {
			return p.syntax(int(off), err)
		}
	}
	return nil
}

// next returns the offset of the next token: past the white space, and
// the one separator, that follow the decoder's position.
func (p *parser) next() int {
	i := p.off()
	sep := false
	for {
		c, ok := p.in.byteAt(i)
		if !ok {
			return int(i)
		}
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		case (c == ',' || c == ':') && !sep:
			sep = true
		default:
			return int(i)
		}
		i++
	}
}

// syntax returns the error for err, which the decoder gave reading the
// token or value that starts at start.
func (p *parser) syntax(start int, err error) error {
	var se *json.SyntaxError
	switch {
	case errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF):
		return p.at(int(p.in.end()), "not valid JSON: unexpected end of JSON input")
	case !errors.As(err, &se):
		return p.at(start, "%v", err)
	case p.base+se.Offset == p.off():
		// A token out of place: the decoder names where it is.
		return p.at(int(p.base+se.Offset), "not valid JSON: %s", se.Error())
	}
	// Within a value, the decoder counts from elsewhere: the value is
	// read again from its start, which the window holds, to find where.
	var v skipValue
	rest := p.in.from(int64(start))
	if err := json.Unmarshal(rest, &v); errors.As(err, &se) {
		if strings.Contains(se.Error(), "unexpected end") {
			return p.at(int(p.in.end()), "not valid JSON: %s", se.Error())
		}
		return p.at(start+int(se.Offset)-1, "not valid JSON: %s", se.Error())
	}
	return p.at(start, "not valid JSON: %s", err.Error())
}

// token reads the next token.
func (p *parser) token() (json.Token, int, error) {
	start := p.next()
	tok, err := p.dec.Token()
	if err != nil {
		return nil, start, p.syntax(start, err)
	}
	return tok, start, nil
}

// skipValue reads a JSON value and keeps nothing of it.
type skipValue struct{}

func (*skipValue) UnmarshalJSON([]byte) error { return nil }

// value reads the next value and returns it, with the offset it starts at.
func (p *parser) value() (raw []byte, start int, err error) {
	start = p.next()
	var v json.RawMessage
	if err := p.dec.Decode(&v); err != nil {
		return nil, start, p.syntax(start, err)
	}
	return v, int(p.off()) - len(v), nil
}

// describe names the kind of the JSON value that starts at off.
func (p *parser) describe(off int) string {
	c, ok := p.in.byteAt(int64(off))
	switch {
	case !ok:
		return "nothing"
	case c == '{':
		return "an object"
	case c == '[':
		return "an array"
	case c == '"':
		return "a string"
	case c == 't' || c == 'f':
		return "a boolean"
	case c == 'n':
		return "null"
	default:
		return "a number"
	}
}

// parseExport reads the whole input of Import, setting *out to the export
// as soon as it begins.
func (p *parser) parseExport(out **session.Imported) error {
	in := p.in
	p.dec = json.NewDecoder(in)
	start := p.next()
	if _, ok := in.byteAt(int64(start)); !ok {
		if in.tooLarge || in.readErr != nil {
			return p.at(start, "the input could not be read")
		}
		return errors.New("the input is empty")
	}
	if c, _ := in.byteAt(int64(start)); c != '{' {
		// Not an object: a value of another kind, or no JSON at all.
		if _, _, err := p.value(); err != nil {
			return err
		}
		return p.at(start, "the input is %s, not an object holding a session", p.describe(start))
	}
	if _, _, err := p.token(); err != nil {
		return err
	}
	ex := &session.Imported{}
	*out = ex
	seen := make(map[string]bool)
	for {
		in.mark(p.off()) // what came before is read
		if !p.dec.More() {
			break
		}
		tok, keyAt, err := p.token()
		if err != nil {
			return err
		}
		key, _ := tok.(string)
		if seen[key] {
			return p.at(keyAt, "the field %q appears twice", key)
		}
		seen[key] = true
		switch key {
		case "id":
			err = p.decode(&ex.ID, "the session's id")
		case "title":
			err = p.decode(&ex.Title, "the title")
		case "created", "updated":
			var t time.Time
			err = p.decode(&t, fmt.Sprintf("the %q time", key))
		case "params":
			err = p.decode(&ex.Params, "the settings")
			if err == nil {
				if cerr := ex.Params.Check(); cerr != nil {
					err = p.at(keyAt, "the settings: %v", cerr)
				} else {
					p.t.params(ex.Params)
				}
			}
		case "entries":
			err = p.entries()
		case "head":
			err = p.decode(&ex.Head, "the head")
			ex.Tree = true
		case "files":
			err = p.files()
		case "forked_from":
			var f session.Fork
			err = p.decode(&f, "where the session was forked from")
		default:
			// The value is read first: a syntax error in it is that.
			if _, _, err := p.value(); err != nil {
				return err
			}
			return p.at(keyAt, "unknown field %q in the session", key)
		}
		if err != nil {
			return err
		}
	}
	if _, _, err := p.token(); err != nil { // '}'
		return err
	}
	if err := p.end(); err != nil {
		return err
	}
	if !seen["id"] {
		return p.at(start, "the object has no \"id\": it is not a session")
	}
	return nil
}

// end checks that nothing but white space follows the session's object.
func (p *parser) end() error {
	for at := p.off(); ; at++ {
		c, ok := p.in.byteAt(at)
		switch {
		case !ok:
			return nil
		case c != ' ' && c != '\t' && c != '\n' && c != '\r':
			return p.at(int(at), "not valid JSON: invalid character %s after top-level value", quoteChar(c))
		}
	}
}

// quoteChar quotes the byte c as encoding/json's errors do.
func quoteChar(c byte) string {
	if c == '\'' {
		return `'\''`
	}
	if c == '"' {
		return `'"'`
	}
	q := strconv.Quote(string(rune(c)))
	return "'" + q[1:len(q)-1] + "'"
}

// decode reads the next value into v, strictly: a field v does not have is
// an error. what names the value in errors.
func (p *parser) decode(v any, what string) error {
	raw, start, err := p.value()
	if err != nil {
		return err
	}
	return p.decodeAt(raw, start, v, what)
}

// decodeAt decodes sub, the value of the input at the offset start, into
// v, strictly.
func (p *parser) decodeAt(sub []byte, start int, v any, what string) error {
	dec := json.NewDecoder(bytes.NewReader(sub))
	dec.DisallowUnknownFields()
	err := dec.Decode(v)
	if err == nil {
		return nil
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) {
		if te.Field == "" {
			return p.at(start, "%s is a JSON %s, want %s", what, te.Value, te.Type)
		}
		off := 0
		if i, ok := findValue(sub, strings.Split(te.Field, ".")); ok {
			off = i
		}
		return p.at(start+off, "%s: field %q is a JSON %s, want %s", what, te.Field, te.Value, te.Type)
	}
	const unknown = `json: unknown field "`
	if msg := err.Error(); strings.HasPrefix(msg, unknown) {
		var name string
		if json.Unmarshal([]byte(msg[len(unknown)-1:]), &name) == nil {
			off := 0
			if i, ok := findKey(sub, name, false); ok {
				off = i
			}
			return p.at(start+off, "%s: unknown field %q", what, name)
		}
	}
	return p.at(start, "%s: %v", what, err)
}

// findKey returns the offset in b, a valid JSON value, of the first object
// key equal to name; with top set, only of a key of b itself.
func findKey(b []byte, name string, top bool) (int, bool) {
	at, found := 0, false
	walkKeys(b, func(path []string, key, _ int) bool {
		if path[len(path)-1] == name && (!top || len(path) == 1) {
			at, found = key, true
		}
		return found
	})
	return at, found
}

// findValue returns the offset in b, a valid JSON value, of the first value
// whose path, the keys of the objects that hold it, is path.
func findValue(b []byte, path []string) (int, bool) {
	at, found := 0, false
	walkKeys(b, func(p []string, _, value int) bool {
		if slices.Equal(p, path) {
			at, found = value, true
		}
		return found
	})
	return at, found
}

// walkKeys calls visit for each object key of b, a valid JSON value, in
// order, with the path of the value it names (the keys of the objects that
// hold it, its own last; arrays add nothing), the offset of the key and that
// of its value, until visit returns true.
func walkKeys(b []byte, visit func(path []string, key, value int) bool) {
	dec := json.NewDecoder(bytes.NewReader(b))
	type frame struct {
		object bool
		key    bool   // the next token is a key
		name   string // the key of the value being read
	}
	var stack []frame
	var path []string
	done := func() { // a value ended
		if n := len(stack); n > 0 && stack[n-1].object {
			stack[n-1].key = true
		}
	}
	for {
		before := int(dec.InputOffset())
		tok, err := dec.Token()
		if err != nil {
			return
		}
		if n := len(stack); n > 0 && stack[n-1].key {
			stack[n-1].key = false
			stack[n-1].name, _ = tok.(string)
			path = path[:0]
			for _, f := range stack {
				if f.object {
					path = append(path, f.name)
				}
			}
			key := before + bytes.IndexByte(b[before:], '"')
			value := int(dec.InputOffset())
			for value < len(b) && bytes.IndexByte([]byte(" \t\n\r:"), b[value]) >= 0 {
				value++
			}
			if visit(path, key, value) {
				return
			}
			continue
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, frame{object: true, key: true})
		case json.Delim('['):
			stack = append(stack, frame{})
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
			done()
		default:
			done()
		}
	}
}

// entries reads the array of entries, one at a time, and gives each to
// the target as it is read.
func (p *parser) entries() error {
	tok, start, err := p.token()
	if err != nil {
		return err
	}
	if tok == nil { // null
		p.t.endEntries()
		return nil
	}
	if tok != json.Delim('[') {
		return p.at(start, "\"entries\" is %s, want an array of entries", p.describe(start))
	}
	for n := 1; ; n++ {
		p.in.mark(p.off()) // the entries before are saved
		if !p.dec.More() {
			break
		}
		e, raw, from, err := p.entry(n)
		if err != nil {
			return err
		}
		fieldAt := func(name string) int {
			if i, ok := findKey(raw, name, true); ok {
				return from + i
			}
			return from
		}
		switch {
		case e.ID == "":
			return p.at(fieldAt("id"), "entry %d has no id", n)
		case p.ids[e.ID] != 0:
			return p.at(fieldAt("id"), "entry %d has the id %q of entry %d; each entry needs its own", n, e.ID, p.ids[e.ID])
		case !knownKinds[e.Kind]:
			return p.at(fieldAt("kind"), "entry %d is of kind %q, which this muse does not know (it knows user, assistant, error, notice, image and tool)", n, e.Kind)
		}
		if e.Parent != "" && p.ids[e.Parent] == 0 && p.orphan == nil {
			p.orphan = fmt.Errorf("entry %q follows %q, which does not come before it", e.ID, e.Parent)
		}
		p.ids[e.ID] = n
		raw = nil
		p.in.mark(p.off()) // the entry's bytes are let go before it is saved
		if err := p.t.entry(e); err != nil {
			p.saveErr = err
			return err
		}
	}
	if _, _, err := p.token(); err != nil { // ']'
		return err
	}
	p.t.endEntries()
	return nil
}

// entry reads the nth entry of the entries' array, and returns it with its
// JSON and the offset of that. The entry's extent is found first (see
// scan), so that one too large for a record is refused before it is held
// whole, and one that is not is decoded from the input as read, its long
// strings copied once: the decoder reads on from its end. An entry that
// scan cannot delimit, or that is not valid JSON, is read by the decoder,
// which says what is wrong with it.
func (p *parser) entry(n int) (e session.Entry, raw []byte, from int, err error) {
	what := fmt.Sprintf("entry %d", n)
	from = p.next()
	x, ok := p.scan(int64(from))
	if x.tooLarge {
		return e, nil, from, p.at(from, "%s is larger than the %d MiB a record of a session may hold: shorten its text, or take it out of the export", what, maxEntry>>20)
	}
	if ok {
		raw = p.in.slice(x.start, x.end)
		ok = json.Valid(raw)
	}
	if !ok {
		if raw, from, err = p.value(); err != nil {
			return e, nil, from, err
		}
		if raw[0] != '{' {
			return e, nil, from, p.at(from, "%s is %s, want an object", what, p.describe(from))
		}
		return e, raw, from, p.decodeAt(raw, from, &e, what)
	}
	if len(x.big) == 0 {
		err = p.decodeAt(raw, from, &e, what)
	} else if !decodeLong(raw, x, &e) {
		err = p.decodeAt(raw, from, &e, what) // to say what is wrong
	}
	if err != nil {
		return e, nil, from, err
	}
	return e, raw, from, p.resume(x.end, inEntries)
}

// decodeLong decodes raw, an entry of extent x with long strings, into e,
// reporting whether it could: the fields are checked strictly without the
// long strings (a json.Decoder copies what it reads, and grows its buffer
// to hold it), and json.Unmarshal then reads raw as it is.
func decodeLong(raw []byte, x extent, e *session.Entry) bool {
	dec := json.NewDecoder(bytes.NewReader(shrunk(raw, x)))
	dec.DisallowUnknownFields()
	var probe session.Entry
	if dec.Decode(&probe) != nil {
		return false
	}
	*e = session.Entry{}
	return json.Unmarshal(raw, e) == nil
}

// files reads the object of the attachments' and images' bytes, by hash,
// one file at a time, and gives each to the target as it is read.
func (p *parser) files() error {
	const what = "the attachments' files"
	tok, start, err := p.token()
	if err != nil {
		return err
	}
	if tok == nil { // null
		return nil
	}
	if tok != json.Delim('{') {
		return p.at(start, "%s is %s, want an object", what, p.describe(start))
	}
	for {
		p.in.mark(p.off()) // the files before are stored
		if !p.dec.More() {
			break
		}
		tok, _, err := p.token()
		if err != nil {
			return err
		}
		hash, _ := tok.(string)
		data, err := p.file(fmt.Sprintf("%s: %q", what, hash))
		if err != nil {
			return err
		}
		if err := p.t.file(hash, data); err != nil {
			p.saveErr = err
			return err
		}
	}
	_, _, err = p.token() // '}'
	return err
}

// file reads the bytes of a file, the next value of the files' object.
// As entry does an entry, it finds where the value ends first, refusing
// one larger than any file muse stores before it holds it whole, and
// decodes it from the input as read; a value that is not a string of
// base64 goes to the decoder, which says what is wrong.
func (p *parser) file(what string) ([]byte, error) {
	start := p.next()
	x, ok := p.scanString(int64(start))
	if x.tooLarge {
		return nil, p.at(start, "%s is larger than the %d MiB muse keeps of a file: take it out of the export", what, maxFile>>20)
	}
	var data []byte
	if ok && json.Unmarshal(p.in.slice(x.start, x.end), &data) == nil {
		return data, p.resume(x.end, inFiles)
	}
	data = nil
	err := p.decode(&data, what)
	return data, err
}
