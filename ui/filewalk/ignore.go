package filewalk

import (
	"bufio"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// The .gitignore pattern language (gitignore(5)), as the walk matches it:
// a line is a pattern, blank lines and those starting with # are none; !
// negates (a file a later pattern un-ignores is listed again, unless its
// folder was ignored); a trailing / matches folders only; a pattern with a
// / at its start or middle is matched against the path from the folder of
// its .gitignore, one without against every name; * and ? match within a
// name, [...] a class, and ** across folders ("**/x", "x/**", "a/**/b").
// A later pattern wins over an earlier one, and a deeper .gitignore over
// its parents'.

// rule is one pattern of a .gitignore in the folder base.
type rule struct {
	base    string // the folder of its .gitignore, relative to the root; "" for the root
	re      *regexp.Regexp
	neg     bool
	dirOnly bool
	name    bool // matched against a name, not a path
}

// ignores are the rules of the .gitignore files read so far, parents'
// first.
type ignores struct{ rules []rule }

// load reads the .gitignore of the folder full (rel from the root), if it
// has one.
func (ig *ignores) load(full, rel string) {
	f, err := os.Open(filepath.Join(full, ".gitignore"))
	if err != nil {
		return
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if r, ok := parseRule(sc.Text(), rel); ok {
			ig.rules = append(ig.rules, r)
		}
	}
}

// parseRule reads one line of a .gitignore in the folder base.
func parseRule(line, base string) (rule, bool) {
	line = strings.TrimRight(line, " \t\r")
	if line == "" || strings.HasPrefix(line, "#") {
		return rule{}, false
	}
	r := rule{base: base}
	if strings.HasPrefix(line, "!") {
		r.neg, line = true, line[1:]
	} else if strings.HasPrefix(line, `\`) {
		line = line[1:] // \# and \! start a pattern that is a name
	}
	if strings.HasSuffix(line, "/") {
		r.dirOnly, line = true, strings.TrimRight(line, "/")
	}
	if line == "" {
		return rule{}, false
	}
	r.name = !strings.Contains(line, "/")
	line = strings.TrimPrefix(line, "/")
	re, err := regexp.Compile("^" + globRE(line) + "$")
	if err != nil {
		return rule{}, false
	}
	r.re = re
	return r, true
}

// globRE turns a gitignore glob into a regular expression.
func globRE(g string) string {
	var b strings.Builder
	for i := 0; i < len(g); i++ {
		c := g[i]
		switch {
		case strings.HasPrefix(g[i:], "**/"):
			b.WriteString("(?:.*/)?")
			i += 2
		case strings.HasPrefix(g[i:], "/**") && i+3 == len(g):
			b.WriteString("/.*")
			i += 2
		case strings.HasPrefix(g[i:], "**"):
			b.WriteString(".*")
			i++
		case c == '*':
			b.WriteString("[^/]*")
		case c == '?':
			b.WriteString("[^/]")
		case c == '[':
			end := strings.IndexByte(g[i+1:], ']')
			if end < 0 {
				b.WriteString(`\[`)
				continue
			}
			class := g[i+1 : i+1+end]
			if strings.HasPrefix(class, "!") {
				class = "^" + class[1:]
			}
			b.WriteString("[" + strings.ReplaceAll(class, `\`, `\\`) + "]")
			i += end + 1
		case c == '\\' && i+1 < len(g):
			i++
			b.WriteString(regexp.QuoteMeta(g[i : i+1]))
		default:
			b.WriteString(regexp.QuoteMeta(g[i : i+1]))
		}
	}
	return b.String()
}

// ignored reports whether the entry at rel (from the root) is ignored.
func (ig *ignores) ignored(rel string, isDir bool) bool {
	out := false
	for _, r := range ig.rules {
		if r.dirOnly && !isDir {
			continue
		}
		sub := rel
		if r.base != "" {
			if !strings.HasPrefix(rel, r.base+"/") {
				continue
			}
			sub = rel[len(r.base)+1:]
		}
		if r.name {
			sub = sub[strings.LastIndexByte(sub, '/')+1:]
		}
		if r.re.MatchString(sub) {
			out = !r.neg
		}
	}
	return out
}
