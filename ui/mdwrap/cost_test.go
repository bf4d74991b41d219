package mdwrap

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/charmbracelet/glamour/styles"
)

// quadraticShapes are replies that goldmark v1.8 parses in time quadratic
// in their length, 160 KB each: each opener's scan reads to the end of
// its line or paragraph. "[a](" repeated took goldmark 2.5 s at 80 KB.
var quadraticShapes = map[string]string{
	"link destinations":  strings.Repeat("[a](", 40_000),
	"image destinations": strings.Repeat("![a](", 32_000),
	"empty links":        strings.Repeat("[](", 53_000),
	"angle destinations": strings.Repeat("[a](<", 32_000),
	"code span openers":  strings.Repeat("\\``", 53_000),
	"code span closers":  strings.Repeat("``\\", 53_000),
	"open emphasis":      strings.Repeat("**_* ", 32_000),
	"brackets and emph":  strings.Repeat("[*_a", 40_000),
	"mixed emphasis":     strings.Repeat("*a_b*c_d**e_f*g**h*i_j**", 6_600),
	// One paragraph to goldmark, though its lines look like blocks: the
	// lines of a quote, lazy ones too, and a table whose delimiter row
	// does not match its header.
	"quoted lines":          strings.Repeat("> **_* a\nb **_* c\n", 10_000),
	"table cell of a colon": "a | b\n|-|:|\n" + strings.Repeat("**_* x\n", 25_000),
	"table that is not":     "a | b\n|-|\n" + strings.Repeat("**_* x\n", 25_000),
	"fence in a list end":   "1. a\n\n   ```\n   x\n\n" + strings.Repeat("[a](", 40_000),
	// A fence in an item closed by a line indented past three spaces,
	// which the item's indent takes: what follows is text again.
	"fence closed deep in an item": "- a\n\n  ```\n     ```\n  " + strings.Repeat("[a](", 40_000),
	"ordered item two":             "a\n" + strings.Repeat("2. **_* x\n", 20_000),
}

// A reply shaped to make the parser quadratic is found by a linear count
// of its scans, never by parsing it, and Words gives glamour the text flat,
// where no such scan is left to make.
func TestQuadraticShapesAreFlattened(t *testing.T) {
	parseHook = func() { t.Error("TooDeep parsed the text") }
	defer func() { parseHook = nil }()
	for name, src := range quadraticShapes {
		if !TooDeep(src) {
			t.Errorf("%s: not found costly (work %d)", name, work(src, 1<<40))
			continue
		}
		if out := Words(src, styles.DarkStyleConfig, 80); costly(out) {
			t.Errorf("%s: Words gives glamour text that is still costly", name)
		}
	}
}

// The scans are counted only to their limit: however quadratic the text,
// counting them reads each byte at most once past the limit. (The
// delimiters are counted in one pass, d² computed, not walked.)
func TestWorkCountStopsAtItsLimit(t *testing.T) {
	for name, src := range quadraticShapes {
		limit := workBase + workPerByte*len(src)
		if got := linkWork(src, limit); got > limit+len(src) {
			t.Errorf("%s: counted %d destination steps past a limit of %d", name, got, limit)
		}
		if got := codeWork(src, limit); got > limit+len(src) {
			t.Errorf("%s: counted %d code span steps past a limit of %d", name, got, limit)
		}
	}
}

// ordinaryReplies are long replies as a model writes them: each renders as
// markdown, never flat.
func ordinaryReplies() map[string]string {
	var links, table, code, prose strings.Builder
	for i := range 2000 {
		fmt.Fprintf(&links, "- [Page %d](https://example.com/docs/page-%d \"title\") and **bold** `code`\n", i, i)
	}
	table.WriteString("| name | value |\n|---|---|\n")
	for i := range 3000 {
		fmt.Fprintf(&table, "| **item_%d** | _%d_ [x](y) |\n", i, i)
	}
	code.WriteString("```sh\n")
	for i := range 3000 {
		fmt.Fprintf(&code, "echo `date` ` unmatched %d [a](\n", i)
	}
	code.WriteString("```\n")
	for i := range 600 {
		fmt.Fprintf(&prose, "The **%d** _item_ of [the list](https://x.org/%d) runs `f(%d)`. ", i, i, i)
	}
	quotes := strings.Repeat(strings.Repeat("> A quoted line with **bold** and a [link](https://example.com).\n", 8)+">\n", 250)
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		panic(err)
	}
	return map[string]string{
		"links": links.String(), "table": table.String(), "code": code.String(),
		"prose": prose.String(), "quotes": quotes, "README": string(readme),
	}
}

// Ordinary long replies are well within the limit: nothing a reply writes
// makes them flat.
func TestOrdinaryRepliesAreNotCostly(t *testing.T) {
	for name, src := range ordinaryReplies() {
		if w, limit := work(src, 1<<40), workBase+workPerByte*len(src); w > limit/2 {
			t.Errorf("%s: %d steps for %d bytes, over half the limit %d", name, w, len(src), limit)
		}
	}
}

// A line of backticks indented past a fence's own indent by more than
// three columns is code, as goldmark reads it, not the fence's closer:
// what follows it in the fence is not counted as text.
func TestDeepBackticksInCodeDoNotCloseTheFence(t *testing.T) {
	src := "```\n        ```\n" + strings.Repeat("[a](", 40_000) + "\n```\n"
	if w := work(src, 1<<40); w != 0 {
		t.Errorf("code counted as text: %d steps", w)
	}
}
