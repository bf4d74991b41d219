package page

import (
	"strings"
	"testing"
)

// FuzzPageIsInert puts any text in every kind of block of a session: the
// page is whole, and nothing in it can run, load or restyle (see inert).
func FuzzPageIsInert(f *testing.F) {
	for _, seed := range []string{hostileReply, "plain", "<img src=x onerror=alert(1)>", "[x](javascript:alert(1))",
		"```\n</code></pre><script>alert(1)</script>\n```", "<https://example.com/\"onmouseover=\"alert(1)>", "www.example.com/<b>",
		"![a](data:image/svg+xml,<svg onload=alert(1)>)", "| a |\n|---|\n| <b>x</b> |", "- [x] <i>done</i>", "\u202e\x00\x1b[2J"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		var b strings.Builder
		if err := Write(&b, everyBlock(text), Options{Redact: true}); err != nil {
			t.Fatal(err)
		}
		inert(t, b.String())
	})
}
