package conversation

import (
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/formatters"
	"github.com/alecthomas/chroma/v2/styles"
	"github.com/muesli/termenv"

	"muse/theme"
	"muse/ui/internal/streamtest"
)

var update = flag.Bool("update", false, "rewrite the golden files")

// mdstreamDocs are documents that stream one big block each, and a mix.
func mdstreamDocs() map[string]string {
	var fenceGo, fencePy, fencePlain, bullets, ordered, quote, table strings.Builder
	fenceGo.WriteString("Some Go:\n\n```go\n")
	for i := 0; i < 24; i++ {
		fmt.Fprintf(&fenceGo, "// f%d returns its argument plus %d.\nfunc f%d(x int) int {\n\treturn x + %d /* inline */\n}\n\n", i, i, i, i)
		if i%5 == 2 {
			fenceGo.WriteString("/* A comment\n   that spans\n   three lines. */\n")
		}
		if i%7 == 3 {
			fenceGo.WriteString("var s = `a raw\nstring over lines`\n\n")
		}
	}
	fenceGo.WriteString("```\n\nThat is all.\n")

	fencePy.WriteString("```python\n")
	for i := 0; i < 20; i++ {
		fmt.Fprintf(&fencePy, "def f%d(x):\n", i)
		if i%4 == 1 {
			fencePy.WriteString("    \"\"\"Docstring line one,\n    and line two.\n    \"\"\"\n")
		}
		fmt.Fprintf(&fencePy, "    return x * %d  # times\n\n", i)
	}
	fencePy.WriteString("```")

	fencePlain.WriteString("~~~~\n\n")
	for i := 0; i < 24; i++ {
		fmt.Fprintf(&fencePlain, "line %d of plain text, with ``` inside and a tab\there\n", i)
		if i%9 == 0 {
			fencePlain.WriteString("\n")
		}
	}
	fencePlain.WriteString("\n~~~~\n\n```\nsecond block, no language\n```\n")

	for i := 0; i < 40; i++ {
		fmt.Fprintf(&bullets, "- Item %d has **bold** and `code` and enough words to wrap at sixty columns wide\n", i)
		switch i % 8 {
		case 2:
			bullets.WriteString("  - nested one\n  - nested two\n")
		case 4:
			bullets.WriteString("\n  A second paragraph in the item.\n\n")
		case 6:
			bullets.WriteString("  ```sh\n  echo item\n\n  ```\n")
		}
	}
	bullets.WriteString("\n* a new list with another marker\n* [ ] a task\n* [x] a done task\n")

	for i := 0; i < 30; i++ {
		fmt.Fprintf(&ordered, "%d. Step %d is to type a few more words\n", 7+i, i)
	}
	ordered.WriteString("\nAnd then\n\n1) one\n1) two\n")

	for i := 0; i < 16; i++ {
		fmt.Fprintf(&quote, "> Paragraph %d of the quote says a few words that wrap at sixty columns for sure.\n> More of it.\n>\n", i)
		if i%5 == 3 {
			quote.WriteString("> - a list in the quote\n> - more\n>\n")
		}
		if i%6 == 4 {
			quote.WriteString("> > nested quote\n>\n")
		}
	}
	quote.WriteString("> The end.")

	table.WriteString("| name | value | note |\n|---|:-:|--:|\n")
	for i := 0; i < 20; i++ {
		fmt.Fprintf(&table, "| row %d | %s | %d |\n", i, strings.Repeat("x", i%7), i*i)
	}

	mixed := longMarkdown(2) + fenceGo.String() + "\n" + bullets.String() + "\n" + quote.String() + "\n\n" + table.String() + "\nDone.\n"
	return map[string]string{
		"fence_go":     fenceGo.String(),
		"fence_py":     fencePy.String(),
		"fence_plain":  fencePlain.String(),
		"list":         bullets.String(),
		"list_ordered": ordered.String(),
		"quote":        quote.String(),
		"table":        table.String(),
		"mixed":        mixed,
	}
}

// streamed feeds text to a new mdStream a word at a time, rendering after
// each word, and returns the last render; frame sees every render and
// whether the renderer had split inside an open block.
func streamed(md *markdown, text string, width int, frame func(lines []string, inner bool)) string {
	var s mdStream
	n := 0
	for _, p := range streamtest.Deltas(text) {
		n += len(p)
		lines := s.lines(md, text[:n], width)
		if frame != nil {
			frame(lines, s.ctx != nil)
		}
	}
	return s.render(md, text, width)
}

// onlySGRLine returns an error if l holds a control character other than
// ESC starting an SGR sequence.
func onlySGRLine(l string) error {
	for i, r := range l {
		switch {
		case r == 0x1b:
			j := i + 1
			if j >= len(l) || l[j] != '[' {
				return fmt.Errorf("escape at %d is not a CSI", i)
			}
			j++
			for j < len(l) && (l[j] >= '0' && l[j] <= '9' || l[j] == ';' || l[j] == ':') {
				j++
			}
			if j >= len(l) || l[j] != 'm' {
				return fmt.Errorf("CSI at %d is not SGR", i)
			}
		case r < 0x20, r == 0x7f, r >= 0x80 && r < 0xa0:
			return fmt.Errorf("control %U at %d", r, i)
		}
	}
	return nil
}

// TestMdstreamFenceRecheck streams a fence whose comment ends many lines
// after it begins, so the fence is split inside the comment before chroma
// can tell it is one; once the fence closes it is rendered whole again, and
// a reply cut off inside such a fence settles the same way.
func TestMdstreamFenceRecheck(t *testing.T) {
	defer func(step int) { innerStep = step }(innerStep)
	innerStep = 64
	th, _ := theme.New("dark", true)
	open := "```go\nx := 1\n/* the start of a long comment\n" + strings.Repeat("words words words\n", 20) + "end */\ny := 2\n"
	for _, text := range []string{open + "```\n\nAfter.\n", open} {
		md := newMarkdown(th.Markdown, termenv.TrueColor)
		var s mdStream
		n, split := 0, false
		for _, p := range streamtest.Deltas(text) {
			n += len(p)
			s.lines(md, text[:n], 40)
			split = split || s.ctx != nil && s.ctx.kind == fenceBlock && strings.Contains(text[s.stableEnd:n], "end */")
		}
		if !split {
			t.Errorf("never split inside the comment")
		}
		got := strings.Join(s.settle(md, text, 40), "\n")
		if want := indent(md.render(text, 40)); got != want {
			t.Errorf("%q: the streamed render differs from a whole render:\n%s", text[len(text)-12:], firstDiff(got, want))
		}
	}
}

// TestMdstreamFallBack checks that a split that does not render as
// calibrated leaves the stream rendering whole blocks, as before splits.
func TestMdstreamFallBack(t *testing.T) {
	th, _ := theme.New("dark", true)
	md := newMarkdown(th.Markdown, termenv.Ascii)
	text := "- one\n- two\n- three\n"
	s := mdStream{width: 40, stableEnd: len("- one\n"), ctx: &openBlock{kind: listBlock, lead: "no sentinel\n\n", trail: "- S\n"}}
	got := s.render(md, text, 40)
	if want := indent(md.render(text, 40)); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
	if !s.flat {
		t.Errorf("the stream did not fall back")
	}
}

// TestCodeFormatter checks that code is coloured as chroma's 256-colour
// formatter colours it, but the same way every time.
func TestCodeFormatter(t *testing.T) {
	th, _ := theme.New("dark", true)
	md := newMarkdown(th.Markdown, termenv.TrueColor)
	code := "```go\n// a comment\nfunc f() string { return \"s\\n\" } /* two\r\nlines */\n```\n"
	first := md.render(code, 60)
	for i := 0; i < 20; i++ {
		if got := newMarkdown(th.Markdown, termenv.TrueColor).render(code, 60); got != first {
			t.Fatalf("render %d differs:\n%s", i, firstDiff(got, first))
		}
	}
	style := styles.Get(md.style.CodeBlock.Theme) // the theme's own (see ownCodeStyle)
	if style == styles.Fallback {
		t.Fatalf("the theme's code style %q is not registered", md.style.CodeBlock.Theme)
	}
	for _, tt := range append(style.Types(), chroma.NameVariable, chroma.LiteralStringDouble, chroma.CommentSingle) {
		tok := chroma.Token{Type: tt, Value: "a\nb\r\n"}
		var mine strings.Builder
		if err := formatCode(&mine, style, chroma.Literator(tok)); err != nil {
			t.Fatal(err)
		}
		seen := map[string]bool{}
		for i := 0; i < 4000 && !seen[mine.String()]; i++ { // chroma breaks ties between palette colours at random
			var theirs strings.Builder
			if err := formatters.TTY256.Format(&theirs, style, chroma.Literator(tok)); err != nil {
				t.Fatal(err)
			}
			seen[theirs.String()] = true
		}
		if !seen[mine.String()] {
			t.Errorf("%v: %q, chroma writes %v", tt, mine.String(), seen)
		}
	}
}

// randomMarkdown returns a document of random blocks of the kinds that
// stream: paragraphs, headings, fences, lists, quotes and tables.
func randomMarkdown(rng *rand.Rand) string {
	words := strings.Fields("the quick brown fox jumps over a lazy dog while **bold** and `code` and _soft_ words [link](http://x.y) go by")
	para := func() string {
		var w []string
		for i := 0; i < 3+rng.Intn(25); i++ {
			w = append(w, words[rng.Intn(len(words))])
		}
		return strings.Join(w, " ")
	}
	code := []string{"x := 1", "/* open comment", "still comment */", "s := `raw", "raw end`", "\"\"\"doc", "doc end\"\"\"", "", "\tindented()", "# hash", "<div>", "if x { y() }"}
	var b strings.Builder
	for i := 0; i < 4+rng.Intn(10); i++ {
		switch rng.Intn(7) {
		case 0:
			b.WriteString(para() + "\n")
		case 1:
			b.WriteString(strings.Repeat("#", 1+rng.Intn(3)) + " " + para() + "\n")
		case 2:
			fence := []string{"```", "~~~", "````"}[rng.Intn(3)]
			b.WriteString(fence + []string{"go", "python", "", "js", "c"}[rng.Intn(5)] + "\n")
			for j := 0; j < rng.Intn(30); j++ {
				b.WriteString(code[rng.Intn(len(code))] + "\n")
			}
			if rng.Intn(6) > 0 {
				b.WriteString(fence + "\n")
			}
		case 3:
			ordered := rng.Intn(2) == 0
			for j := 0; j < 1+rng.Intn(20); j++ {
				if ordered {
					fmt.Fprintf(&b, "%d. %s\n", j+rng.Intn(2), para())
				} else {
					b.WriteString("- " + para() + "\n")
				}
				switch rng.Intn(6) {
				case 0:
					b.WriteString("  - " + para() + "\n")
				case 1:
					b.WriteString("\n")
				case 2:
					b.WriteString("  ```\n  " + code[rng.Intn(len(code))] + "\n  ```\n")
				case 3:
					b.WriteString(para() + "\n")
				}
			}
		case 4:
			for j := 0; j < 1+rng.Intn(10); j++ {
				b.WriteString("> " + para() + "\n")
				if rng.Intn(2) == 0 {
					b.WriteString(">\n")
				}
			}
		case 5:
			b.WriteString("| a | b |\n|---|---|\n")
			for j := 0; j < rng.Intn(6); j++ {
				b.WriteString("| " + para() + " | " + words[rng.Intn(len(words))] + " |\n")
			}
		case 6:
			b.WriteString("---\n")
		}
		if rng.Intn(4) > 0 {
			b.WriteString("\n")
		}
	}
	return b.String()
}

// firstDiff describes the first line where got and want differ.
func firstDiff(got, want string) string {
	g, w := strings.Split(got, "\n"), strings.Split(want, "\n")
	for i := 0; i < max(len(g), len(w)); i++ {
		var gl, wl string
		if i < len(g) {
			gl = g[i]
		}
		if i < len(w) {
			wl = w[i]
		}
		if gl != wl {
			return fmt.Sprintf("line %d of %d/%d:\n got %q\nwant %q", i+1, len(g), len(w), gl, wl)
		}
	}
	return "no difference"
}

// requireMdstreamGolden compares got with testdata/mdstream/<name>.golden,
// or writes it there with -update.
func requireMdstreamGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", "mdstream", name+".golden")
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./ui/conversation -run Mdstream -update writes it)", err)
	}
	if got != string(want) {
		t.Errorf("render differs from %s:\n%s", path, firstDiff(got, string(want)))
	}
}
