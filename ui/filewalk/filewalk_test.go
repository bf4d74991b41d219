package filewalk

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func write(t *testing.T, root string, files map[string]string) {
	t.Helper()
	for name, text := range files {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

// The .gitignore files of the root and of folders under it are honoured,
// .git is skipped, and the files come shallowest first.
func TestWalkHonoursGitignore(t *testing.T) {
	root := t.TempDir()
	write(t, root, map[string]string{
		".gitignore":          "# build output\n/build/\n*.log\n!keep.log\nnode_modules/\ndocs/**/draft-*\n",
		"main.go":             "",
		"debug.log":           "",
		"keep.log":            "",
		"build/out.bin":       "",
		"src/build/gen.go":    "", // /build/ is anchored to the root
		"src/a.go":            "",
		"src/.gitignore":      "secret.txt\n",
		"src/secret.txt":      "",
		"secret.txt":          "", // src's rule is src's alone
		"node_modules/x/y.js": "",
		"docs/a/draft-1.md":   "",
		"docs/a/final.md":     "",
		".git/HEAD":           "",
	})
	res, err := Walk(root, 1000)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{".gitignore", "keep.log", "main.go", "secret.txt", "src/.gitignore", "src/a.go", "src/build/gen.go", "docs/a/final.md"}
	got := slices.Clone(res.Files)
	if !slices.Equal(sortedDepth(got), sortedDepth(want)) || res.Cut {
		t.Errorf("files %q (cut %v), want %q", res.Files, res.Cut, want)
	}
	for i := 1; i < len(res.Files); i++ {
		if strings.Count(res.Files[i], "/") < strings.Count(res.Files[i-1], "/") {
			t.Errorf("not shallowest first: %q", res.Files)
		}
	}
}

func sortedDepth(s []string) []string {
	slices.Sort(s)
	return s
}

// The walk reads no more entries than its limit, however many the folder
// holds, and says it was cut; an ignored folder's entries are never read.
func TestWalkIsBounded(t *testing.T) {
	root := t.TempDir()
	files := map[string]string{".gitignore": "big/\n"}
	for i := range 1200 {
		files[fmt.Sprintf("d%02d/f%04d", i%30, i)] = ""
		files[fmt.Sprintf("big/f%04d", i)] = ""
	}
	write(t, root, files)
	res, err := Walk(root, 500)
	if err != nil {
		t.Fatal(err)
	}
	if res.Visited > 500 || !res.Cut || len(res.Files) == 0 {
		t.Errorf("visited %d entries of a limit of 500, cut %v, %d files", res.Visited, res.Cut, len(res.Files))
	}
	all, err := Walk(root, 1_000_000)
	if err != nil {
		t.Fatal(err)
	}
	// 1 .gitignore + big + 30 folders + their 1200 files: big's 1200 are
	// never read.
	if all.Visited != 1+1+30+1200 || all.Cut || len(all.Files) != 1201 {
		t.Errorf("visited %d, cut %v, %d files", all.Visited, all.Cut, len(all.Files))
	}
}

func TestGlobs(t *testing.T) {
	for _, tc := range []struct {
		pattern, path string
		dir, want     bool
	}{
		{"*.go", "a/b/c.go", false, true},
		{"/a.go", "x/a.go", false, false},
		{"a/*.go", "a/b.go", false, true},
		{"a/*.go", "a/b/c.go", false, false},
		{"**/foo", "x/y/foo", false, true},
		{"foo/**", "foo/x/y", false, true},
		{"a/**/b", "a/x/y/b", false, true},
		{"a/**/b", "a/b", false, true},
		{"f[0-9].txt", "f7.txt", false, true},
		{"f[!0-9].txt", "f7.txt", false, false},
		{"out/", "out", false, false},
		{"out/", "out", true, true},
		{`\#x`, "#x", false, true},
	} {
		r, ok := parseRule(tc.pattern, "")
		if !ok {
			t.Fatalf("%q: no rule", tc.pattern)
		}
		ig := ignores{rules: []rule{r}}
		if got := ig.ignored(tc.path, tc.dir); got != tc.want {
			t.Errorf("%q on %q (dir %v): %v", tc.pattern, tc.path, tc.dir, got)
		}
	}
}
