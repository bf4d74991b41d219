package config

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"
)

// maxErrors caps how many problems one Load reports.
const maxErrors = 10

// Load reads and checks the configuration file at path. A missing file is an
// empty File and no error; [LoadExisting] is for a file that must be there.
// Problems in the file are reported as [*Error] values, several joined with
// [errors.Join], one a line, when there are several. A file larger than
// [MaxConfigSize] or nested deeper than [MaxDepth] is refused.
func Load(path string) (*File, error) {
	f, err := LoadExisting(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &File{Path: path, Profiles: map[string]*Profile{}}, nil
	}
	return f, err
}

// LoadExisting is [Load] for a file named on purpose, such as with --config:
// a missing file is an error that wraps [fs.ErrNotExist].
func LoadExisting(path string) (*File, error) {
	data, err := readFile(path, "config", MaxConfigSize)
	if err != nil {
		return nil, err
	}
	return parse(path, data)
}

// parse decodes and checks the text of the file at path.
func parse(path string, data []byte) (*File, error) {
	root, err := parseTOML(path, data)
	if err != nil {
		return nil, err
	}
	l := &loader{path: path, dir: filepath.Dir(path), cutoff: -1}
	f := l.file(root)
	if err := l.err(); err != nil {
		return nil, err
	}
	return f, nil
}

// loader turns the parsed TOML into a File, collecting the problems.
type loader struct {
	path    string // the file, for messages
	dir     string // its folder, for input_schema_file
	profile string // the profile being read, for messages

	// errs holds the problems with the lowest lines; more counts those left
	// out. Once errs has been cut down, problems after line cutoff are only
	// counted, so that a file full of mistakes costs no more than a good one.
	errs   []*Error
	more   int
	cutoff int
}

// wants reports whether a problem at line would be kept.
func (l *loader) wants(line int) bool {
	if l.cutoff >= 0 && line > l.cutoff {
		l.more++
		return false
	}
	return true
}

// errorf records a problem at line.
func (l *loader) errorf(line int, format string, args ...any) {
	if !l.wants(line) {
		return
	}
	l.errs = append(l.errs, &Error{Path: l.path, Line: line, Msg: fmt.Sprintf(format, args...)})
	if len(l.errs) >= 4*maxErrors {
		l.sortErrs()
		l.more += len(l.errs) - maxErrors
		l.errs = l.errs[:maxErrors:maxErrors]
		l.cutoff = l.errs[maxErrors-1].Line
	}
}

func (l *loader) sortErrs() { sortErrors(l.errs) }

// sortErrors sorts problems by line and column, keeping the order of those
// at the same place.
func sortErrors(errs []*Error) {
	slices.SortStableFunc(errs, func(a, b *Error) int {
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Col, b.Col))
	})
}

// err returns the problems found, in line order, or nil.
func (l *loader) err() error {
	if len(l.errs) == 0 {
		return nil
	}
	l.sortErrs()
	if len(l.errs) == 1 {
		return l.errs[0]
	}
	more := l.more
	if len(l.errs) > maxErrors {
		more += len(l.errs) - maxErrors
		l.errs = l.errs[:maxErrors]
	}
	errs := make([]error, 0, len(l.errs)+1)
	for _, e := range l.errs {
		errs = append(errs, e)
	}
	if more > 0 {
		errs = append(errs, fmt.Errorf("%s: … and %d more problems", l.path, more))
	}
	return errors.Join(errs...)
}

// file reads the top level: default_profile and the profiles.
func (l *loader) file(root *tomlTable) *File {
	f := &File{Path: l.path, Profiles: map[string]*Profile{}}
	top := value{l: l, line: 1, name: "the file", v: root}
	for _, k := range root.keys {
		v := top.child(root, k.name)
		switch {
		case k.name == "default_profile":
			f.DefaultProfile, _ = v.str()
		case k.name == "profiles":
			l.profiles(f, v)
		case credential(k.name) != "" && !isTable(k.val):
			v.credential()
		default:
			if !l.wants(v.line) {
				continue
			}
			hint := suggest(k.name, []string{"default_profile", "profiles"})
			if _, ok := profileKeys[k.name]; ok {
				hint = " (profile settings belong in a [profiles.NAME] table)"
			}
			v.unknown(k.name, "at the top level", hint)
		}
	}
	if d := f.DefaultProfile; d != "" && f.Profiles[d] == nil {
		names := f.Names()
		for i, n := range names {
			names[i] = quote(n)
		}
		want := "add a [profiles." + tableKey(d) + "] table"
		if len(names) > 0 {
			want = "expected one of " + strings.Join(names, ", ")
		}
		top.child(root, "default_profile").fail("%s names no profile: %s", quote(d), want)
	}
	return f
}

// profiles reads the [profiles] table.
func (l *loader) profiles(f *File, v value) {
	t, ok := v.v.(*tomlTable)
	if !ok {
		v.fail("must be a table of [profiles.NAME] tables, got %s", describe(v.v))
		return
	}
	for _, k := range t.keys {
		pv := v.child(t, k.name)
		pt, ok := k.val.(*tomlTable)
		switch {
		case !ok:
			l.errorf(pv.line, "profile %s must be a table [profiles.%s], got %s", quote(k.name), tableKey(k.name), describe(k.val))
		case strings.TrimSpace(k.name) == "":
			l.errorf(pv.line, "a profile needs a name: [profiles.NAME]")
		default:
			f.Profiles[k.name] = l.readProfile(k.name, pv.line, pt)
		}
	}
}

// isTable reports whether v is a TOML table.
func isTable(v any) bool {
	_, ok := v.(*tomlTable)
	return ok
}

// sortedKeys returns the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// tableKey writes a key as it would appear in a table header, quoting it
// unless it is bare, and shortening it when it is long.
func tableKey(k string) string {
	if k == "" {
		return `""`
	}
	for i := 0; i < len(k); i++ {
		if !isBare(k[i]) {
			return quote(k)
		}
	}
	if len(k) > 60 {
		return quote(k)
	}
	return k
}

func isBare(c byte) bool {
	return c == '_' || c == '-' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}
