package config

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/BurntSushi/toml"
)

// maxErrors caps how many problems one Load reports.
const maxErrors = 10

// Load reads and checks the configuration file at path. A missing file is an
// empty File and no error. Problems in the file are reported as [*Error]
// values, several joined with [errors.Join] when there are several.
func Load(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return &File{Path: path, Profiles: map[string]*Profile{}}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read config: %w", err)
	}
	return parse(path, data)
}

// parse decodes and checks the text of the file at path.
func parse(path string, data []byte) (*File, error) {
	var raw map[string]any
	if _, err := toml.Decode(string(data), &raw); err != nil {
		var pe toml.ParseError
		if errors.As(err, &pe) {
			return nil, &Error{Path: path, Line: pe.Position.Line, Col: pe.Position.Col, Msg: pe.Message}
		}
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	l := &loader{path: path, dir: filepath.Dir(path), lines: scanLines(string(data))}
	f := l.file(raw)
	if err := l.err(); err != nil {
		return nil, err
	}
	return f, nil
}

// loader turns the decoded TOML into a File, collecting the problems.
type loader struct {
	path  string // the file, for messages
	dir   string // its folder, for input_schema_file
	lines lines
	errs  []*Error
}

// errorf records a problem at the line of the key path.
func (l *loader) errorf(path []string, format string, args ...any) {
	l.errs = append(l.errs, &Error{Path: l.path, Line: l.lines.at(path...), Msg: fmt.Sprintf(format, args...)})
}

// err returns the problems found, in line order, or nil.
func (l *loader) err() error {
	if len(l.errs) == 0 {
		return nil
	}
	slices.SortStableFunc(l.errs, func(a, b *Error) int { return cmp.Compare(a.Line, b.Line) })
	if len(l.errs) == 1 {
		return l.errs[0]
	}
	var errs []error
	for i, e := range l.errs {
		if i == maxErrors {
			errs = append(errs, fmt.Errorf("%s: … and %d more problems", l.path, len(l.errs)-maxErrors))
			break
		}
		errs = append(errs, e)
	}
	return errors.Join(errs...)
}

// file reads the top level: default_profile and the profiles.
func (l *loader) file(raw map[string]any) *File {
	f := &File{Path: l.path, Profiles: map[string]*Profile{}}
	for _, k := range sortedKeys(raw) {
		v := value{l: l, path: []string{k}, name: k, v: raw[k]}
		switch {
		case k == "default_profile":
			f.DefaultProfile, _ = v.str()
		case k == "profiles":
			l.profiles(f, v)
		case credential(k) != "" && !isTable(raw[k]):
			v.credential()
		default:
			hint := suggest(k, []string{"default_profile", "profiles"})
			if _, ok := profileKeys[k]; ok {
				hint = " (profile settings belong in a [profiles.NAME] table)"
			}
			v.unknown(k, "at the top level", hint)
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
		l.errorf([]string{"default_profile"}, "default_profile %s names no profile: %s", quote(d), want)
	}
	return f
}

// profiles reads the [profiles] table.
func (l *loader) profiles(f *File, v value) {
	t, ok := v.v.(map[string]any)
	if !ok {
		v.fail("must be a table of [profiles.NAME] tables, got %s", describe(v.v))
		return
	}
	for _, name := range sortedKeys(t) {
		path := []string{"profiles", name}
		pt, ok := t[name].(map[string]any)
		switch {
		case !ok:
			l.errorf(path, "profile %s must be a table [profiles.%s], got %s", quote(name), tableKey(name), describe(t[name]))
		case strings.TrimSpace(name) == "":
			l.errorf(path, "a profile needs a name: [profiles.NAME]")
		default:
			f.Profiles[name] = l.profile(name, pt)
		}
	}
}

// isTable reports whether v is a TOML table.
func isTable(v any) bool {
	_, ok := v.(map[string]any)
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
// unless it is bare.
func tableKey(k string) string {
	if k == "" {
		return `""`
	}
	for i := 0; i < len(k); i++ {
		if !isBare(k[i]) {
			return fmt.Sprintf("%q", k)
		}
	}
	return k
}
