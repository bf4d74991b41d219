package mdwrap

import (
	"fmt"
	"strings"
	"testing"

	"github.com/charmbracelet/glamour"
	"github.com/charmbracelet/glamour/ansi"
	"github.com/charmbracelet/glamour/styles"
	xansi "github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"muse/theme"
	"muse/ui/internal/streamtest"
)

// testStyles are muse's markdown styles and some of glamour's own, whose
// documents have margins and whose code spans have backticks.
func testStyles(t *testing.T) map[string]ansi.StyleConfig {
	t.Helper()
	out := map[string]ansi.StyleConfig{
		"glamour-dark":  styles.DarkStyleConfig,
		"glamour-ascii": styles.ASCIIStyleConfig,
		"glamour-pink":  styles.PinkStyleConfig,
	}
	for _, name := range []string{"dark", "light"} {
		th, err := theme.New(name, true)
		if err != nil {
			t.Fatal(err)
		}
		out["muse-"+name] = th.Markdown
	}
	return out
}

// render renders md as the chat screen and -p do, its words broken first,
// and returns its lines without escape codes or trailing spaces.
func render(t *testing.T, md string, style ansi.StyleConfig, width int) []string {
	t.Helper()
	r, err := glamour.NewTermRenderer(glamour.WithStyles(style), glamour.WithWordWrap(width), glamour.WithColorProfile(termenv.TrueColor))
	if err != nil {
		t.Fatal(err)
	}
	out, err := r.Render(Words(md, style, width))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(xansi.Strip(out), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return lines
}

// joined puts the lines together without the margins and quote bars
// before them, so a word cut across lines reads whole again.
func joined(lines []string) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(strings.TrimLeft(l, " │|"))
	}
	return b.String()
}

// TestWordsCutsAtTheWidth renders a long word in each place text can take
// in markdown, in several styles and widths: every line fits the width,
// the word reads whole when the lines are put together (nothing lost, no
// space put into it), and the lines it fills are all as wide, but where
// glamour may end a line inside the word itself (after a "+" or a ".").
func TestWordsCutsAtTheWidth(t *testing.T) {
	word := strings.Repeat("aB3/xY9=Qz0", 40)    // 440 columns
	wide := strings.Repeat("漢字", 120)            // 480 columns, two a character
	emoji := strings.Repeat("👩‍💻é", 120)         // a ZWJ sequence and e with a combining accent
	base64 := strings.Repeat("aB3+/xY9=Qz.", 40) // with characters glamour may end a line after
	cases := []struct {
		name, md, shows string
	}{
		{"paragraph", "Here: %s end", "%s"},
		{"strong", "Some **%s** text", "%s"},
		{"code span", "Run `%s` now", "%s"},
		{"link", "See [the text](https://example.com/%s) now", "https://example.com/%s"},
		{"image", "![](data:image/png;base64,%s)", "data:image/png;base64,%s"},
		{"autolink", "See <https://example.com/%s> now", "https://example.com/%s"},
		{"bare URL", "See https://example.com/%s now", "https://example.com/%s"},
		{"www", "See www.example.com/%s now", "http://www.example.com/%s"},
		{"reference link", "See [the text][ref] now\n\n[ref]: https://example.com/%s", "https://example.com/%s"},
		{"list", "- one %s two", "%s"},
		{"nested list", "- one\n  - two %s three", "%s"},
		{"ordered list", "1. one\n2. two %s three", "%s"},
		{"task", "- [ ] %s", "%s"},
		{"quote", "> Said: %s end", "%s"},
		{"quote in list", "- one\n\n  > two %s three", "%s"},
		{"heading", "## A %s heading", "%s"},
		{"definition", "Term\n: %s", "%s"},
	}
	for sname, style := range testStyles(t) {
		for _, width := range []int{40, 97} {
			for _, c := range cases {
				for _, w := range []string{word, wide, emoji, base64} {
					if c.name != "paragraph" && w != word && w != base64 {
						continue
					}
					name := fmt.Sprintf("%s/%d/%s/%dB", sname, width, c.name, len(w))
					t.Run(name, func(t *testing.T) {
						lines := render(t, fmt.Sprintf(c.md, w), style, width)
						widest, full := 0, 0
						for _, l := range lines {
							if n := xansi.StringWidth(l); n > widest {
								widest, full = n, 1
							} else if n == widest {
								full++
							}
						}
						limit := width
						if w == base64 {
							// x/ansi, which wraps list items, writes a character it may end
							// a line after even past the width ("• an ordinary word," at
							// exactly the width shows one column wider), with or without
							// Words.
							limit++
						}
						if widest > limit {
							t.Fatalf("a line of %d columns at width %d:\n%s", widest, width, strings.Join(lines, "\n"))
						}
						if shows := fmt.Sprintf(c.shows, w); !strings.Contains(joined(lines), shows) {
							t.Fatalf("the word does not read whole:\n%s", strings.Join(lines, "\n"))
						}
						if want := xansi.StringWidth(w)/widest - 1; full < want && w != base64 {
							t.Fatalf("%d lines of %d columns, want %d at least: the pieces are not all as wide:\n%s", full, widest, want, strings.Join(lines, "\n"))
						}
					})
				}
			}
		}
	}
}

// TestWordsFillsTheWidth checks that in muse's styles, which give a
// paragraph the whole width, a word is cut at exactly the width.
func TestWordsFillsTheWidth(t *testing.T) {
	th, err := theme.New("dark", true)
	if err != nil {
		t.Fatal(err)
	}
	word := strings.Repeat("0123456789", 30)
	for _, c := range []struct{ md, piece string }{
		{"Here: %s end", word[:40]},
		{"- one\n  - two %s three", word[:38]},     // a nested list is indented by two
		{"> Said: %s end", word[:38]},              // a quote's bar and its space
		{"Here: %s end", strings.Repeat("漢字", 10)}, // 40 columns
	} {
		w := word
		if strings.HasPrefix(c.piece, "漢") {
			w = strings.Repeat("漢字", 50)
		}
		lines := render(t, fmt.Sprintf(c.md, w), th.Markdown, 40)
		found := false
		for _, l := range lines {
			found = found || strings.TrimLeft(l, " │") == c.piece
		}
		if !found {
			t.Errorf("no line holds the word's first %d columns alone:\n%s", xansi.StringWidth(c.piece), strings.Join(lines, "\n"))
		}
	}
}

// TestWordsKeepsMarkdown checks that breaking words keeps what markdown
// means: emphasis, code, links, entities and escapes show as they do
// unbroken, only on more lines; and code blocks, tables, HTML and short
// words are left alone.
func TestWordsKeepsMarkdown(t *testing.T) {
	word := strings.Repeat("abcdefghij", 12)
	plain := func(md string, style ansi.StyleConfig) string {
		r, err := glamour.NewTermRenderer(glamour.WithStyles(style), glamour.WithWordWrap(40), glamour.WithColorProfile(termenv.TrueColor))
		if err != nil {
			t.Fatal(err)
		}
		out, err := r.Render(md)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Join(strings.Fields(joined(strings.Split(xansi.Strip(out), "\n"))), "")
	}
	for sname, style := range testStyles(t) {
		for _, md := range []string{
			"Some **" + word + "** and _" + word + "_ and ~~" + word + "~~ text",
			"Run `" + word + "` now, then ``" + word + "`" + word + "``",
			"See [the **text**](https://example.com/" + word + " \"title\") now",
			"See <https://example.com/" + word + "> and https://example.com/" + word + ".",
			"See ![alt text](https://example.com/" + word + ".png) now",
			"See [the text][ref]\n\n[ref]: https://example.com/" + word,
			strings.Repeat("ab&amp;cd&#x41;ef&copy;", 20),
			strings.Repeat(`ab\_cd\*ef\[gh\]`, 20),
			strings.Repeat("ab_cd*ef~gh", 30),
			strings.Repeat("ab-cd.ef,gh+ij|kl;", 30),
			"> quoted " + word + "\n>\n> - listed " + word,
		} {
			want := plain(md, style)
			got := strings.Join(strings.Fields(joined(render(t, md, style, 40))), "")
			if got != want {
				t.Errorf("%s: %q shows as\n%q\nwant (unbroken)\n%q", sname, md, got, want)
			}
		}
	}
	th, err := theme.New("dark", true)
	if err != nil {
		t.Fatal(err)
	}
	for _, md := range []string{
		"```\n" + word + word + "\n```",
		"    " + word + word,
		"| a | b |\n|---|---|\n| x | " + word + word + " |",
		"<div>" + word + word + "</div>",
		"Short words only, none wider than half the line.",
	} {
		if got := Words(md, th.Markdown, 40); got != md {
			t.Errorf("Words changed %q to %q", md, got)
		}
	}
}

// TestWordsCostIsLinear counts the bytes Words allocates for a word four
// times as long: at most five times as many.
func TestWordsCostIsLinear(t *testing.T) {
	th, err := theme.New("dark", true)
	if err != nil {
		t.Fatal(err)
	}
	count := func(n int) uint64 {
		md := "Here: " + strings.Repeat("aB3+/xY9=Qz", n/11) + " and [a link](https://example.com/" + strings.Repeat("p", n) + ")\n"
		return streamtest.Allocated(func() { Words(md, th.Markdown, 80) })
	}
	count(100)
	small, large := count(25000), count(100000)
	if large > 5*small {
		t.Errorf("a word four times as long took %.1f times the bytes (%d, %d); want at most 5", float64(large)/float64(small), small, large)
	}
}
