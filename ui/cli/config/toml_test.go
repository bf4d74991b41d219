package config

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"
	"testing"
)

// lookup follows a path of keys and array indexes ("#0") through a parsed
// document and returns the line recorded for the last one, or -1.
func lookup(root *tomlTable, path ...string) int {
	var v any = root
	line := -1
	for _, seg := range path {
		switch x := v.(type) {
		case *tomlTable:
			i := x.find(seg)
			if i < 0 {
				return -1
			}
			v, line = x.keys[i].val, int(x.keys[i].line)
		case *tomlArray:
			n, err := strconv.Atoi(strings.TrimPrefix(seg, "#"))
			if err != nil || n >= len(x.elems) {
				return -1
			}
			v, line = x.elems[n].val, int(x.elems[n].line)
		default:
			return -1
		}
	}
	return line
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
	root, err := parseTOML("x.toml", src)
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
		{[]string{"t", "inl", "p"}, 20},
		{[]string{"t", "inl", "q", "r"}, 20},
		{[]string{"aot", "#0"}, 22},
		{[]string{"aot", "#0", "n"}, 23},
		{[]string{"aot", "#0", "sub", "o"}, 25},
		{[]string{"aot", "#1", "n"}, 27},
		{[]string{"aot", "#1", "inner", "#0", "i"}, 29},
		{[]string{"aot", "#1", "inner", "#0", "after"}, 31},
		{[]string{"x"}, -1},
		{[]string{"t", "y"}, -1},
	} {
		if got := lookup(root, tc.path...); got != tc.line {
			t.Errorf("line of %q = %d, want %d", tc.path, got, tc.line)
		}
	}
	if s := root.get("t").(*tomlTable).get("s"); s != "x = not a key\n" {
		t.Errorf("s = %q", s)
	}
	if e := root.get("aot").(*tomlArray).elems[1].val.(*tomlTable).get("inner").(*tomlArray).elems[0].val.(*tomlTable).get("esc"); e != `a"b` {
		t.Errorf("esc = %q", e)
	}
}

// TestTOMLHeaderLine checks that a table named by a longer header first
// takes the line of its own header once it has one.
func TestTOMLHeaderLine(t *testing.T) {
	root, err := parseTOML("x.toml", "[profiles.w.keys]\nsend = [\"enter\"]\n\n[profiles.w]\nmodel = \"m\"\n")
	if err != nil {
		t.Fatal(err)
	}
	if got := lookup(root, "profiles", "w"); got != 4 {
		t.Errorf("line of [profiles.w] = %d, want 4", got)
	}
	if got := lookup(root, "profiles", "w", "keys"); got != 1 {
		t.Errorf("line of [profiles.w.keys] = %d, want 1", got)
	}
}

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
	root, err := parseTOML("x.toml", src)
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

// TestTOMLErrors checks where each kind of syntax error is reported and
// what it says.
func TestTOMLErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		line, col int
		msg       string
	}{
		{"no equals", "a = 1\nb 2\n", 2, 3, `expected = after the key b, got '2'`},
		{"two equals", "a = = 1\n", 1, 5, `expected a value`},
		{"no value", "a =\n", 1, 4, `expected a value (a string, number, true, false, date, [array] or { table }), got the end of the line`},
		{"bare word", "a = yes\n", 1, 5, `expected a value, got "yes": quote text, as in "yes"`},
		{"two values", "a = 1 2\n", 1, 7, `expected the end of the line, got '2'`},
		{"duplicate key", "a = 1\n\na = 2\n", 3, 1, `key a is defined twice: it is already an integer at line 1`},
		{"duplicate table", "[t]\n[t]\n", 2, 1, `[t] is defined twice: it is already a table at line 1`},
		{"table over value", "t = 1\n[t]\n", 2, 1, `[t] is defined twice: it is already an integer at line 1`},
		{"dotted over header", "[a.b]\nx = 1\n[a]\nb.y = 2\n", 4, 1, `cannot add keys to the table a.b from here: it is defined at line 1`},
		{"header over dotted", "[a]\nb.c = 1\n[a.b]\n", 3, 1, `[a.b] is defined twice: it is already a table made by dotted keys at line 2`},
		{"header into inline", "a = { b = 1 }\n[a.c]\n", 2, 1, `cannot add to a: it is an inline table { ... } at line 1`},
		{"dotted into inline", "a = { b = 1 }\na.c = 2\n", 2, 1, `cannot add to a: it is an inline table`},
		{"array of tables over array", "a = [1]\n[[a]]\n", 2, 1, `[[a]] cannot add a table to a: it is already an array at line 1`},
		{"header through value", "a = 1\n[a.b]\n", 2, 1, `cannot add to a: it is already an integer at line 1, not a table`},
		{"header through array", "a = []\n[a.b]\n", 2, 1, `cannot add to a: it is already an array at line 1, not a table`},
		{"unclosed header", "[a\n", 1, 3, `expected ] to close the table header, got the end of the line`},
		{"unclosed array header", "[[a]\n", 1, 5, `expected ]] to close the table header, got the end of the line`},
		{"dotted in inline table", "a = { b = 1, b.c = 2 }\n", 1, 14, `cannot add keys to b: it is already an integer at line 1, not a table`},
		{"unclosed string", "a = \"abc\nb = 1\n", 1, 5, `this string ends at the end of the line without its closing "`},
		{"unending string", "a = \"\"\"abc\n", 1, 5, `this string never ends: add the closing """`},
		{"unclosed array", "a = [1,\n 2\nb = 3\n", 3, 1, `expected , or ] in the array that starts at line 1, got 'b'`},
		{"unclosed table", "a = { b = 1\n", 2, 1, `expected , or } in the table that starts at line 1, got the end of the file`},
		{"bad escape", `a = "\q"` + "\n", 1, 6, `unknown escape "\\q": write a backslash as \\`},
		{"escaped newline", "a = \"\\\n\"\n", 1, 6, `unknown escape "\\\n"`},
		{"short unicode", `a = "\u12"` + "\n", 1, 6, `\u needs 4 hexadecimal digits`},
		{"surrogate", `a = "\uD800"` + "\n", 1, 6, `\uD800 is not a Unicode character`},
		{"control character", "a = \"x\x01\"\n", 1, 7, `strings must not contain control characters such as '\x01'`},
		{"control in comment", "a = 1 # x\x7f\n", 1, 10, `comments must not contain control characters`},
		{"lone carriage return", "a = 1\rb = 2\n", 1, 6, `a carriage return (\r) must be followed by a newline (\n)`},
		{"leading zero", "a = 012\n", 1, 5, `"012" is not a valid number`},
		{"double underscore", "a = 1__0\n", 1, 5, `"1__0" is not a valid number`},
		{"too large", "a = 9223372036854775808\n", 1, 5, `"9223372036854775808" is out of range: integers must be between -9223372036854775808 and 9223372036854775807`},
		{"bad date", "a = 2023-02-29\n", 1, 5, `"2023-02-29" is not a valid date or time`},
		{"bad time", "a = 24:00:00\n", 1, 5, `"24:00:00" is not a valid date or time`},
		{"multi-line key", "\"\"\"a\"\"\" = 1\n", 1, 1, `a key cannot be a multi-line string`},
		{"empty key", " = 1\n", 1, 2, `expected a key (letters, digits, _ and -, or a quoted string), got '='`},
		{"invalid UTF-8", "a = \"\xff\"\n", 1, 6, `the file is not valid UTF-8 text (byte 0xff): save it as UTF-8`},
		{"invalid UTF-8 line", "a = 1\n# \xc3\n", 2, 3, `not valid UTF-8`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseTOML("x.toml", tc.src)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("parseTOML = %v, want an *Error", err)
			}
			if e.Line != tc.line || e.Col != tc.col || !strings.Contains(e.Msg, tc.msg) {
				t.Errorf("error = %q\nwant %d:%d and %q", err, tc.line, tc.col, tc.msg)
			}
			if strings.Contains(err.Error(), "\n") {
				t.Errorf("error %q spans lines", err)
			}
		})
	}
}

// TestTOMLDepth checks that deep nesting is refused with the place where it
// goes too deep, before it costs anything.
func TestTOMLDepth(t *testing.T) {
	for _, tc := range []struct {
		name, src string
		line, col int
	}{
		// 20 KB of [[[[...: once quadratic, about 1 GB.
		{"arrays", "# deep\na=" + strings.Repeat("[", 10_000) + strings.Repeat("]", 10_000) + "\n", 2, 3 + MaxDepth},
		{"unclosed arrays", "a=" + strings.Repeat("[", 30_000), 1, 3 + MaxDepth},
		{"inline tables", "a=" + strings.Repeat("{b=", 10_000) + "1" + strings.Repeat("}", 10_000), 1, 3 + 3*MaxDepth},
		{"arrays and tables", "a=" + strings.Repeat("[{b=", 5_000), 1, 3 + 2*MaxDepth},
		{"dotted key", "\n\n" + strings.Repeat("a.", 10_000) + "b = 1\n", 3, 1},
		{"header", "[" + strings.Repeat("a.", 10_000) + "b]\n", 1, 1},
		{"array of tables", "[[" + strings.Repeat("a.", MaxDepth-1) + "b]]\n", 1, 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := parseTOML("x.toml", tc.src)
			var e *Error
			if !errors.As(err, &e) || e.Line != tc.line || e.Col != tc.col || !strings.Contains(e.Msg, "nested more than 64 levels deep") {
				t.Errorf("error = %v, want %d:%d and nested more than 64 levels deep", err, tc.line, tc.col)
			}
		})
	}
	// As deep as allowed is fine.
	ok := "a=" + strings.Repeat("[", MaxDepth) + strings.Repeat("]", MaxDepth) + "\n" +
		strings.Repeat("b.", MaxDepth-1) + "c = 1\n"
	if _, err := parseTOML("x.toml", ok); err != nil {
		t.Errorf("depth %d: %v", MaxDepth, err)
	}
}

// TestLoadDeepFile checks the file's path and line reach the message.
func TestLoadDeepFile(t *testing.T) {
	path := write(t, t.TempDir(), "[profiles.w]\nmodel = \"m\"\nstop_sequences = "+strings.Repeat("[", 10_000)+"\n")
	_, err := Load(path)
	if err == nil || !strings.HasPrefix(err.Error(), path+":3:") || !strings.Contains(err.Error(), "nested more than 64 levels deep") {
		t.Errorf("Load = %v", err)
	}
}

// TestLoadTooLarge checks that a file larger than MaxFileSize is refused
// before it is read whole.
func TestLoadTooLarge(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(path, []byte("# "+strings.Repeat("x", MaxFileSize)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err := Load(path)
	var e *Error
	if !errors.As(err, &e) || e.Path != path || !strings.Contains(e.Msg, "larger than 1 MiB: a config file is never that big") {
		t.Errorf("Load = %v", err)
	}
	_, err = LoadTools(path)
	if !errors.As(err, &e) || !strings.Contains(e.Msg, "larger than 1 MiB: a tools file") {
		t.Errorf("LoadTools = %v", err)
	}
	// Exactly MaxFileSize is read.
	if err := os.WriteFile(path, []byte("#"+strings.Repeat("x", MaxFileSize-2)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(path); err != nil {
		t.Errorf("Load of %d bytes = %v", MaxFileSize, err)
	}
}
