package config

import (
	"testing"
)

func TestScanLines(t *testing.T) {
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
	l := scanLines(src)
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
		{[]string{"t", "arr", index(0)}, 14},
		{[]string{"t", "arr", index(1)}, 16},
		{[]string{"t", "arr", index(2)}, 17},
		{[]string{"t", "arr", index(2), "k"}, 17},
		{[]string{"t", "arr", index(2), "m"}, 18},
		{[]string{"t", "inl", "p"}, 20},
		{[]string{"t", "inl", "q", "r"}, 20},
		{[]string{"aot", index(0)}, 22},
		{[]string{"aot", index(0), "n"}, 23},
		{[]string{"aot", index(0), "sub", "o"}, 25},
		{[]string{"aot", index(1), "n"}, 27},
		{[]string{"aot", index(1), "inner", index(0), "i"}, 29},
		{[]string{"aot", index(1), "inner", index(0), "after"}, 31},
		// Unknown paths fall back to the nearest known ancestor.
		{[]string{"aot", index(1), "missing"}, 26},
		{[]string{"nowhere"}, 0},
	} {
		if got := l.at(tc.path...); got != tc.line {
			t.Errorf("line of %q = %d, want %d", tc.path, got, tc.line)
		}
	}
	for _, bogus := range [][]string{{"x"}, {"y"}, {"z"}, {"t", "x"}, {"t", "y"}} {
		if _, ok := l[pathKey(bogus...)]; ok {
			t.Errorf("text inside a string or comment taken for key %q", bogus)
		}
	}
}

func TestScanLinesSurvivesJunk(t *testing.T) {
	// Not valid TOML; the scanner must still end.
	for _, src := range []string{"[", "a = [", "a = {", `a = "`, "a = '''", "= 1", "[[a", "a.", "\"k", "a = [1,,"} {
		scanLines(src)
	}
}
