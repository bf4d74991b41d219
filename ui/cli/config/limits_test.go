package config

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// lookup follows a path of keys and array indexes ("#0") through a parsed
// document and returns the value of the last one and the line recorded for
// it, or nil and -1.
func lookup(root *tomlTable, path ...string) (any, int) {
	var v any = root
	line := -1
	for _, seg := range path {
		switch x := v.(type) {
		case *tomlTable:
			i := x.find(seg)
			if i < 0 {
				return nil, -1
			}
			v, line = x.keys[i].val, int(x.keys[i].line)
		case *tomlArray:
			n, err := strconv.Atoi(strings.TrimPrefix(seg, "#"))
			if err != nil || n >= len(x.elems) {
				return nil, -1
			}
			v, line = x.elems[n].val, int(x.elems[n].line)
		default:
			return nil, -1
		}
	}
	return v, line
}

func TestTOMLLines(t *testing.T) {
	src := `# comment
top = 1
"quoted.key" = 2
a.b.c = 3   # dotted

[t]
s = """
x = not a key
"""
lit = '''
y = 4
'''
arr = [
  1,
  # z = 5
  "two",
  { k = 6,
    m = 7 },
  [
    8],
  [],
]
inl = { p = 8, q.r = 9 }

[[aot]]
n = 10
[aot.sub]
o = 11
[[aot]]
n = 12
[[aot.inner]]
i = 13
esc = "a\"b"
after = 14
`
	root, err := parseTOML("x.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path []string
		line int
	}{
		{[]string{"top"}, 2},
		{[]string{"quoted.key"}, 3},
		{[]string{"a"}, 4},
		{[]string{"a", "b", "c"}, 4},
		{[]string{"t"}, 6},
		{[]string{"t", "s"}, 7},
		{[]string{"t", "lit"}, 10},
		{[]string{"t", "arr"}, 13},
		{[]string{"t", "arr", "#0"}, 14},
		{[]string{"t", "arr", "#1"}, 16},
		{[]string{"t", "arr", "#2"}, 17},
		{[]string{"t", "arr", "#2", "k"}, 17},
		{[]string{"t", "arr", "#2", "m"}, 18},
		// The library keeps no place for an array: its first element's
		// stands in, or the element before it when it is empty.
		{[]string{"t", "arr", "#3"}, 20},
		{[]string{"t", "arr", "#4"}, 20},
		{[]string{"t", "inl", "p"}, 23},
		{[]string{"t", "inl", "q", "r"}, 23},
		{[]string{"aot", "#0"}, 25},
		{[]string{"aot", "#0", "n"}, 26},
		{[]string{"aot", "#0", "sub", "o"}, 28},
		{[]string{"aot", "#1", "n"}, 30},
		{[]string{"aot", "#1", "inner", "#0", "i"}, 32},
		{[]string{"aot", "#1", "inner", "#0", "after"}, 34},
		{[]string{"x"}, -1},
		{[]string{"t", "y"}, -1},
	} {
		if _, got := lookup(root, tc.path...); got != tc.line {
			t.Errorf("line of %q = %d, want %d", tc.path, got, tc.line)
		}
	}
	if s, _ := lookup(root, "t", "s"); s != "x = not a key\n" {
		t.Errorf("s = %q", s)
	}
	if e, _ := lookup(root, "aot", "#1", "inner", "#0", "esc"); e != `a"b` {
		t.Errorf("esc = %q", e)
	}
	if keys := root.keys; len(keys) != 5 || keys[0].name != "top" || keys[4].name != "aot" {
		t.Errorf("keys out of order: %+v", keys)
	}
}

// TestTOMLHeaderLine checks that a table named by a longer header first
// takes the line of its own header once it has one.
func TestTOMLHeaderLine(t *testing.T) {
	root, err := parseTOML("x.toml", []byte("[profiles.w.keys]\nsend = [\"enter\"]\n\n[profiles.w]\nmodel = \"m\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if _, got := lookup(root, "profiles", "w"); got != 4 {
		t.Errorf("line of [profiles.w] = %d, want 4", got)
	}
	if _, got := lookup(root, "profiles", "w", "keys"); got != 1 {
		t.Errorf("line of [profiles.w.keys] = %d, want 1", got)
	}
}

// TestTOMLValues checks the values the tree holds, TOML 1.1's included, and
// that a byte order mark is skipped.
func TestTOMLValues(t *testing.T) {
	src := "\uFEFFs = \"tab\\tnl\\nq\\\"u\\u00e9U\\U0001F600x\\x41e\\e\"\r\n" +
		"lit = 'C:\\dir'\n" +
		"ml = \"\"\"\\\n   joined \\\n   here\"\"\"\"\"\n" +
		"ml2 = '''\nraw \\n''''\n" +
		"ints = [0, +1, -17, 1_000, 0xDEAD_beef, 0o17, 0b101, 9223372036854775807, -9223372036854775808]\n" +
		"floats = [0.5, -1e3, 6.02E+23, 1_0.2_5, -0.0]\n" +
		"special = [inf, -inf, nan]\n" +
		"b = [true, false]\n" +
		"dates = [1979-05-27, 07:32, 07:32:00.5, 1979-05-27T07:32:00Z, 1979-05-27 07:32:00-07:00, 2000-02-29t00:00]\n" +
		"empty = [ ]\n" +
		"tables = [{}, { a = 1, }, {\n  # comment\n  b.c = 2\n}]\n"
	root, err := parseTOML("x.toml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got := plain(root).(map[string]any)
	special := got["special"].([]any)
	if special[0] != math.Inf(1) || special[1] != math.Inf(-1) || !math.IsNaN(special[2].(float64)) {
		t.Errorf("special = %v", special)
	}
	delete(got, "special")
	want := map[string]any{
		"s":      "tab\tnl\nq\"uéU😀xAe\x1b",
		"lit":    `C:\dir`,
		"ml":     `joined here""`,
		"ml2":    "raw \\n'",
		"ints":   []any{int64(0), int64(1), int64(-17), int64(1000), int64(0xdeadbeef), int64(0o17), int64(5), int64(math.MaxInt64), int64(math.MinInt64)},
		"floats": []any{0.5, -1e3, 6.02e23, 10.25, math.Copysign(0, -1)},
		"b":      []any{true, false},
		"dates":  []any{"1979-05-27", "07:32", "07:32:00.5", "1979-05-27T07:32:00Z", "1979-05-27 07:32:00-07:00", "2000-02-29t00:00"},
		"empty":  []any{},
		"tables": []any{map[string]any{}, map[string]any{"a": int64(1)}, map[string]any{"b": map[string]any{"c": int64(2)}}},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("values:\n got %#v\nwant %#v", got, want)
	}
}

// TestTOMLErrors checks that the library's syntax errors reach the user with
// the file, line and column, on one line.
func TestTOMLErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		line, col int
		msg       string
	}{
		{"no equals", "a = 1\nb 2\n", 2, 3, `expected '=' after key`},
		{"two equals", "a = = 1\n", 1, 5, `unexpected character U+003D '=' at start of value`},
		{"no value", "a =\n", 1, 4, `at start of value`},
		{"bare word", "a = yes\n", 1, 5, `unexpected character U+0079 'y' at start of value`},
		{"two values", "a = 1 2\n", 1, 7, `expected newline but got U+0032 '2'`},
		{"duplicate key", "a = 1\n\na = 2\n", 3, 1, `key a is already defined`},
		{"duplicate table", "[t]\n[t]\n", 2, 2, `table t already exists`},
		{"table over value", "t = 1\n[t]\n", 2, 2, `key t should be a table, not a value`},
		{"dotted over header", "[a.b]\nx = 1\n[a]\nb.y = 2\n", 4, 1, `key b is already defined`},
		{"header over dotted", "[a]\nb.c = 1\n[a.b]\n", 3, 2, `table b already exists as defined by a dotted key`},
		{"header into inline", "a = { b = 1 }\n[a.c]\n", 2, 2, `key a already exists as a value`},
		{"dotted into inline", "a = { b = 1 }\na.c = 2\n", 2, 1, `key a is already defined`},
		{"array of tables over array", "a = [1]\n[[a]]\n", 2, 3, `key a already exists as a value, but should be an array table`},
		{"header through value", "a = 1\n[a.b]\n", 2, 2, `key a already exists as a value`},
		{"header through array", "a = []\n[a.b]\n", 2, 2, `key a already exists as a value`},
		{"value over longer header", "[a.b.c]\n[a]\nb = 1\n", 3, 1, `key b is already defined`},
		{"unclosed header", "[a\n", 1, 3, `expected ']' to close table name`},
		{"unclosed array header", "[[a]\n", 1, 4, `expected ']]' to close array table name`},
		{"dotted in inline table", "a = { b = 1, b.c = 2 }\n", 1, 1, `key b is already defined`},
		{"unclosed string", "a = \"abc\nb = 1\n", 1, 9, `basic strings cannot have new lines`},
		{"unending string", "a = \"\"\"abc\n", 1, 11, `multiline basic string not terminated by """`},
		{"unclosed array", "a = [1,\n 2\nb = 3\n", 3, 1, `expected ',' or ']' after array value`},
		{"unclosed table", "a = { b = 1\n", 1, 12, `inline table is incomplete`},
		{"bad escape", `a = "\q"` + "\n", 1, 6, `invalid escape character U+0071 'q'`},
		{"escaped newline", "a = \"\\\n\"\n", 1, 6, `invalid escape character U+000A`},
		{"short unicode", `a = "\u12"` + "\n", 1, 10, `invalid hexadecimal digit in unicode escape sequence`},
		{"surrogate", `a = "\uD800"` + "\n", 1, 6, `escape sequence is not a valid unicode code point`},
		{"control character", "a = \"x\x01\"\n", 1, 7, `basic strings cannot have control characters`},
		{"control in comment", "a = 1 # x\x7f\n", 1, 10, `control characters are not allowed in comments`},
		{"lone carriage return", "a = 1\rb = 2\n", 1, 6, `expected newline but got U+000D`},
		{"leading zero", "a = 012\n", 1, 5, `integers cannot have leading zeroes`},
		{"double underscore", "a = 1__0\n", 1, 6, `number must have at least one digit between underscores`},
		{"too large", "a = 9223372036854775808\n", 1, 5, `decimal number is too large to fit in a 64-bit signed integer`},
		{"bad date", "a = 2023-02-29\n", 1, 13, `impossible date`},
		{"bad time", "a = 24:00:00\n", 1, 5, `hour cannot be greater 23`},
		{"multi-line key", "\"\"\"a\"\"\" = 1\n", 1, 3, `expected '=' after key`},
		{"empty key", " = 1\n", 1, 2, `invalid character at start of key: U+003D '='`},
		{"invalid UTF-8", "a = \"\xff\"\n", 1, 6, `invalid UTF-8 character in basic string`},
		{"invalid UTF-8 line", "a = 1\n# \xc3\n", 2, 3, `invalid UTF-8 character in comment`},
		// The library repeats the key it names: muse escapes what it holds.
		{"escape in key", "\"\\u001b[31m\" = 1\n\"\\u001b[31m\" = 2\n", 2, 1, `key \x1b[31m is already defined`},
		{"newline in key", "\"a\\nb\" = 1\n\"a\\nb\" = 2\n", 2, 1, `key a\nb is already defined`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parse("x.toml", []byte(tc.src))
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("parse = %v, want an *Error", err)
			}
			if e.Path != "x.toml" || e.Line != tc.line || e.Col != tc.col || !strings.Contains(e.Msg, tc.msg) {
				t.Errorf("error = %q\nwant %d:%d and %q", err, tc.line, tc.col, tc.msg)
			}
			if want := "x.toml:" + strconv.Itoa(tc.line) + ":" + strconv.Itoa(tc.col) + ": "; !strings.HasPrefix(err.Error(), want) {
				t.Errorf("error %q does not start with %q", err, want)
			}
			if strings.ContainsAny(err.Error(), "\n\x1b") || strings.HasPrefix(e.Msg, "toml:") {
				t.Errorf("error %q spans lines, holds an escape or names the library", err)
			}
		})
	}
}

// TestTOMLDepth checks that nesting deeper than maxDepth is refused with the
// place where it goes too deep: the '{' of an inline table, the key of an
// array (the library keeps no place for arrays), or the part of a key path.
func TestTOMLDepth(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		line, col int
	}{
		{"arrays", "# deep\na=" + strings.Repeat("[", 10_000) + strings.Repeat("]", 10_000) + "\n", 2, 1},
		{"inline tables", "a=" + strings.Repeat("{b=", 10_000) + "1" + strings.Repeat("}", 10_000), 1, 3 + 3*maxDepth},
		{"arrays and tables", "a=" + strings.Repeat("[{b=", 5_000) + "1" + strings.Repeat("}]", 5_000), 1, 5 + 4*(maxDepth/2-1)},
		{"dotted key", "\n\n" + strings.Repeat("a.", 10_000) + "b = 1\n", 3, 1 + 2*maxDepth},
		{"header", "[" + strings.Repeat("a.", 10_000) + "b]\n", 1, 2 + 2*maxDepth},
		{"array of tables", "[[" + strings.Repeat("a.", maxDepth-1) + "b]]\n", 1, 3 + 2*(maxDepth-1)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseTOML("x.toml", []byte(tc.src))
			var e *Error
			if !errors.As(err, &e) || e.Line != tc.line || e.Col != tc.col || !strings.Contains(e.Msg, "nested more than 64 levels deep") {
				t.Errorf("error = %v, want %d:%d and nested more than 64 levels deep", err, tc.line, tc.col)
			}
		})
	}
	// As deep as allowed is fine.
	ok := "a=" + strings.Repeat("[", maxDepth) + strings.Repeat("]", maxDepth) + "\n" +
		strings.Repeat("b.", maxDepth-1) + "c = 1\n"
	if _, err := parseTOML("x.toml", []byte(ok)); err != nil {
		t.Errorf("depth %d: %v", maxDepth, err)
	}
	// Deeper than the library's own limit, the library's error.
	_, err := parseTOML("x.toml", []byte("a="+strings.Repeat("[", 30_000)))
	var e *Error
	if !errors.As(err, &e) || e.Line != 1 || e.Col == 0 {
		t.Errorf("30000 [s: %v", err)
	}
}

// TestLoadDeepFile checks the file's path and line reach the message.
func TestLoadDeepFile(t *testing.T) {
	path := write(t, t.TempDir(), "[profiles.w]\nmodel = \"m\"\nstop_sequences = "+strings.Repeat("[", 10_000)+strings.Repeat("]", 10_000)+"\n")
	_, err := Load(path)
	if err == nil || !strings.HasPrefix(err.Error(), path+":3:") || !strings.Contains(err.Error(), "nested more than 64 levels deep") {
		t.Errorf("Load = %v", err)
	}
	path = write(t, t.TempDir(), "[profiles.w]\nmodel = \"m\"\nstop_sequences = "+strings.Repeat("[", 10_000)+"\n")
	if _, err := Load(path); err == nil || !strings.HasPrefix(err.Error(), path+":3:") {
		t.Errorf("Load of unclosed [s = %v", err)
	}
}

// TestLoadTooLarge checks that a config file larger than maxConfigSize, and
// a tools file larger than maxFileSize, is refused before it is read whole.
func TestLoadTooLarge(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(path, []byte("# "+strings.Repeat("x", maxConfigSize)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Load(path)
	var e *Error
	if !errors.As(err, &e) || e.Path != path || !strings.Contains(e.Msg, "larger than 64 KiB: a config file is never that big") {
		t.Errorf("Load = %v", err)
	}
	// Exactly maxConfigSize is read.
	if err := os.WriteFile(path, []byte("#"+strings.Repeat("x", maxConfigSize-2)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(path); err != nil {
		t.Errorf("Load of %d bytes = %v", maxConfigSize, err)
	}
	if err := os.WriteFile(path, []byte("# "+strings.Repeat("x", maxFileSize)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = LoadTools(path)
	if !errors.As(err, &e) || !strings.Contains(e.Msg, "larger than 1 MiB: a tools file") {
		t.Errorf("LoadTools = %v", err)
	}
}

// TestTOMLMaxKeys checks that a file with maxKeys keys loads and that one
// more is refused at its place, before the library looks them up.
func TestTOMLMaxKeys(t *testing.T) {
	var b strings.Builder
	b.WriteString("[profiles.w]\n") // profiles and w are two keys
	for i := range maxKeys - 2 {
		fmt.Fprintf(&b, "k%d = 1\n", i)
	}
	if _, err := parseTOML("x.toml", []byte(b.String())); err != nil {
		t.Fatalf("%d keys: %v", maxKeys, err)
	}
	b.WriteString("a.b = 2\n")
	_, err := parseTOML("x.toml", []byte(b.String()))
	var e *Error
	if !errors.As(err, &e) || e.Line != maxKeys || e.Col != 1 || !strings.Contains(e.Msg, "more than 2000 keys: a config file is never that big") {
		t.Errorf("%d keys: %v", maxKeys+1, err)
	}
	// Tables in arrays count too.
	_, err = parseTOML("x.toml", []byte("a = ["+strings.Repeat("{},", maxKeys)+"]\n"))
	if !errors.As(err, &e) || e.Line != 1 || e.Col != 6+3*(maxKeys-1) {
		t.Errorf("%d tables: %v", maxKeys, err)
	}
}

// TestLoadBigAllocates counts the bytes allocated to load each of the
// expensive files of bigInputs: within 50 MB, and within 300 times the
// file's size.
func TestLoadBigAllocates(t *testing.T) {
	for name, text := range bigInputs() {
		data := []byte(text)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, _ = parse("big.toml", data)
		runtime.ReadMemStats(&after)
		if n := after.TotalAlloc - before.TotalAlloc; n > 50<<20 || n > 300*uint64(len(data)) {
			t.Errorf("%s: %d bytes allocated to load %d", name, n, len(data))
		}
	}
}
