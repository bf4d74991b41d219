package config

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"muse/ui/tomlfile"
)

// maxErrors caps how many problems one Load reports.
const maxErrors = tomlfile.MaxProblems

// Load reads and checks the configuration file at path. A missing file is an
// empty File and no error; [LoadExisting] is for a file that must be there.
// Problems in the file are reported as [*Error] values, several joined with
// [errors.Join], one a line, when there are several. A file larger than
// maxConfigSize or nested deeper than maxDepth is refused.
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
	data, err := readFile(path, "config", maxConfigSize)
	if err != nil {
		return nil, err
	}
	return parse(path, data)
}

// fileOptions are the limits of a configuration file and the wording of
// its unknown keys and values of the wrong kind.
var fileOptions = tomlfile.Options{Keys: maxKeys, Depth: maxDepth, What: "a config file", Unknown: unknownKey, Mismatch: mismatch}

// parse decodes and checks the text of the file at path.
func parse(path string, data []byte) (*File, error) {
	var raw fileTOML
	places, probs := tomlfile.Decode(path, data, &raw, fileOptions)
	if places == nil {
		return nil, probs.Err()
	}
	if probs == nil {
		probs = &tomlfile.Problems{Path: path}
	}
	l := &loader{path: path, dir: filepath.Dir(path), places: places, probs: probs}
	f := l.file(&raw)
	if err := probs.Err(); err != nil {
		return nil, err
	}
	return f, nil
}

// loader checks the decoded file and turns it into a File, collecting the
// problems.
type loader struct {
	path   string // the file, for messages
	dir    string // its folder, for input_schema_file
	places *tomlfile.Places
	probs  *tomlfile.Problems
}

// fail records a problem with the key or array item at path, at its place.
func (l *loader) fail(path []string, format string, args ...any) {
	l.probs.At(l.places.At(path...), format, args...)
}

// child is the path of the key (or keys, one below the other) under path,
// in an array of its own: appending to it never writes into path's.
func child(path []string, keys ...string) []string {
	return append(path[:len(path):len(path)], keys...)
}

// byPlace returns the keys of m in the order the file gives them, the
// table at path.
func byPlace[V any](l *loader, path []string, m map[string]V) []string {
	keys := sortedKeys(m)
	at := func(k string) tomlfile.Place { return l.places.At(child(path, k)...) }
	slices.SortStableFunc(keys, func(a, b string) int {
		pa, pb := at(a), at(b)
		return cmp.Or(cmp.Compare(pa.Line, pb.Line), cmp.Compare(pa.Col, pb.Col))
	})
	return keys
}

// file reads the top level: default_profile and the profiles.
func (l *loader) file(raw *fileTOML) *File {
	f := &File{Path: l.path, Profiles: map[string]*Profile{}}
	if raw.DefaultProfile != nil {
		f.DefaultProfile = *raw.DefaultProfile
	}
	for name, r := range raw.Profiles {
		if strings.TrimSpace(name) == "" {
			l.fail([]string{"profiles", name}, "a profile needs a name: [profiles.NAME]")
			continue
		}
		if r == nil {
			r = &profileTOML{}
		}
		f.Profiles[name] = l.readProfile(name, r)
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
		l.fail([]string{"default_profile"}, "default_profile %s names no profile: %s", quote(d), want)
	}
	return f
}

// unknownKey words the problem of a key that its table does not know, by
// the table it is in: "" for ui/tomlfile's wording.
func unknownKey(u tomlfile.Unknown) string {
	p := u.Path
	key := p[len(p)-1]
	secret := credential(key) != "" && !u.Table
	switch {
	case u.Known == nil && len(p) > 1: // below a value that is no table, such as model.x = 1
		return mismatch(tomlfile.Mismatch{Path: p[:len(p)-1], Want: u.Want, Got: tomlfile.Value{Kind: "table"}})
	case u.Known == nil:
		return ""
	case len(p) == 1 && secret, len(p) == 3 && p[0] == "profiles" && secret:
		return "credentials are not read from the file: use " + credential(key)
	case len(p) == 1:
		hint := suggest(key, u.Known)
		if slices.Contains(profileKeyNames, key) {
			hint = " (profile settings belong in a [profiles.NAME] table)"
		}
		return fmt.Sprintf("unknown key %s at the top level%s", quote(key), hint)
	case len(p) == 3 && p[0] == "profiles":
		return fmt.Sprintf("unknown key %s in [profiles.%s]%s", quote(key), tableKey(p[1]), suggest(key, profileKeyNames))
	case len(p) == 5 && p[2] == "tools":
		return fmt.Sprintf("tool %s: unknown key %s in [[profiles.%s.tools]]%s", itemNumber(p[3]), quote(key), tableKey(p[1]), suggest(key, u.Known))
	case len(p) == 5 && p[2] == "mcp" && credential(key) != "":
		return key + " is not read: credentials are not read from the file: use token_env or token_cmd"
	case len(p) == 5 && p[2] == "mcp":
		return fmt.Sprintf("unknown key %s in %s%s: a server takes %s", quote(key), serverHeader(p[1], p[3]), suggest(key, u.Known), strings.Join(u.Known, ", "))
	}
	return ""
}

// toolExample is a whole tool, for messages.
const toolExample = `{ name = "get_time", input_schema = { type = "object" } }`

// mismatch words the problem of a value of the wrong kind: "KEY must be
// WHAT IT TAKES, got WHAT IT IS".
func mismatch(m tomlfile.Mismatch) string {
	p := m.Path
	want := cmp.Or(m.Expect, m.Want)
	got := m.Got.String()
	key := p[len(p)-1]
	if m.Item > 0 {
		got += fmt.Sprintf(" as item %d", m.Item)
		key = p[len(p)-2]
	}
	switch {
	case len(p) == 2 && p[0] == "profiles":
		return fmt.Sprintf("profile %s must be a table [profiles.%s], got %s", quote(key), tableKey(key), got)
	case len(p) >= 4 && p[2] == "keys":
		key, want = p[3], `a list of strings such as ["enter"]`
	case len(p) == 4 && p[2] == "tools":
		return fmt.Sprintf("tool %s must be a table such as %s, got %s", itemNumber(p[3]), toolExample, got)
	case len(p) >= 5 && p[2] == "tools":
		return fmt.Sprintf("tool %s: %s must be %s, got %s", itemNumber(p[3]), key, want, got)
	case len(p) == 4 && p[2] == "mcp":
		return fmt.Sprintf(`%s must be a table such as [profiles.NAME.mcp.files] with command = "npx", got %s`, serverHeader(p[1], p[3]), got)
	case len(p) == 6 && p[2] == "mcp" && m.Item == 0:
		key = p[4] + "." + p[5]
	}
	return fmt.Sprintf("%s must be %s, got %s", key, want, got)
}

// itemNumber is the 1-based number of the array item whose path ends in
// i, a 0-based index.
func itemNumber(i string) string {
	n, _ := strconv.Atoi(i)
	return strconv.Itoa(n + 1)
}

// serverHeader is the header of the MCP server's table.
func serverHeader(profile, server string) string {
	return "[profiles." + tableKey(profile) + ".mcp." + tableKey(server) + "]"
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
