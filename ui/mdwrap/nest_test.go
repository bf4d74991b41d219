package mdwrap

import (
	"strings"
	"testing"

	"github.com/charmbracelet/glamour/styles"
)

// deepShapes are replies nested far deeper than any document: each
// overflowed the stack of the walk over the tree (a fatal error, which no
// recover catches, on the chat screen and with -p), or took the parser
// seconds.
var deepShapes = map[string]string{
	"quotes":        strings.Repeat(">", 200_000) + " x\n",
	"spaced quotes": strings.Repeat("> ", 100_000) + "x\n",
	"lists":         strings.Repeat("- ", 100_000) + "x\n",
	"emphasis":      strings.Repeat("*", 200_000) + "x" + strings.Repeat("*", 200_000),
	"links":         strings.Repeat("[", 200_000) + "x" + strings.Repeat("]", 200_000),
	"indented lists": func() string {
		var b strings.Builder
		for i := range 1000 {
			b.WriteString(strings.Repeat("  ", i) + "- a\n")
		}
		return b.String()
	}(),
}

// Quotes and brackets nested too deep are found without parsing the text,
// which takes time quadratic in their depth: the parser is never asked.
func TestTooDeepQuotesAndBracketsNeedNoParse(t *testing.T) {
	for _, name := range []string{"quotes", "spaced quotes", "lists", "links"} {
		parsed := false
		parseHook = func() { parsed = true }
		if !TooDeep(deepShapes[name]) || parsed {
			t.Errorf("%s: too deep %v, parsed %v; want too deep, unparsed", name, TooDeep(deepShapes[name]), parsed)
		}
		parseHook = nil
	}
}

// Markdown as documents and replies nest it is rendered as markdown, and
// text with few markers is never parsed to tell.
func TestOrdinaryNestingIsKept(t *testing.T) {
	for _, src := range []string{
		"# Title\n\n- a\n  - b\n    - c **bold _and em_**\n\n> quote\n> > in a quote [link](http://x)\n",
		"```c\n" + strings.Repeat("int **p = *q * *r; /* [x] */\n", 200) + "```\n",
		strings.Repeat("**bold** and _em_ and [a](b) ", 300),
		strings.Repeat("> ", MaxNest-1) + "deep but fine\n",
	} {
		if TooDeep(src) {
			t.Errorf("too deep: %.80q", src)
		}
	}
	parsed := false
	parseHook = func() { parsed = true }
	defer func() { parseHook = nil }()
	if TooDeep("plain text, a list:\n\n- one\n- two\n") || parsed {
		t.Errorf("plain text was parsed to tell its depth")
	}
}

// Flattened text shows what it holds, every character of it.
func TestFlattenShowsTheText(t *testing.T) {
	src := "**a** [b](c) > d `e` <i>f</i> # g\n1. h | i ~~j~~ \\k"
	lines := render(t, Flatten(src), styles.DarkStyleConfig, 80)
	got := strings.Join(lines, "\n")
	for _, want := range []string{"**a**", "[b](c)", "> d", "`e`", "<i>f</i>", "# g", "1. h | i", "\\k"} {
		if !strings.Contains(got, want) {
			t.Errorf("flattened render %q lacks %q", got, want)
		}
	}
}
