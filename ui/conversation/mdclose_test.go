package conversation

import (
	"strings"
	"testing"

	"github.com/muesli/termenv"

	"muse/theme"
)

func TestCloseOpenInline(t *testing.T) {
	for in, want := range map[string]string{
		"Hello **wor":               "Hello **wor**",
		"Hello **wor ":              "Hello **wor** ",
		"Hello **":                  "Hello ",
		"**a** and **b":             "**a** and **b**",
		"**a** and **b**":           "**a** and **b**",
		"gone ~~old":                "gone ~~old~~",
		"use `a**b":                 "use `a**b`",
		"use ``a ` b":               "use ``a ` b``",
		"`code` then **x":           "`code` then **x**",
		"first line\nnow **open":    "first line\nnow **open**",
		"**closed on line one**\nx": "**closed on line one**\nx",
		"```go":                     "```go",
		"plain":                     "plain",
	} {
		if got := closeOpenInline(in); got != want {
			t.Errorf("closeOpenInline(%q) = %q, want %q", in, got, want)
		}
	}
}

// While a reply streams, an emphasis opened on its last line shows no
// asterisks; inside a code fence nothing changes; and the reply rendered
// once finished is the whole render of its text.
func TestStreamingHidesOpenMarkers(t *testing.T) {
	th, _ := theme.New("dark", true)
	md := newMarkdown(th.Markdown, termenv.TrueColor)
	s := mdStream{live: true}
	if out := strings.Join(s.lines(md, "Some words and **a bold phr", 60), "\n"); strings.Contains(out, "**") || !strings.Contains(out, "phr") {
		t.Errorf("an open ** shows while streaming:\n%s", out)
	}
	s = mdStream{live: true}
	if out := strings.Join(s.lines(md, "```\nx = 2**", 60), "\n"); !strings.Contains(out, "2**") {
		t.Errorf("a fence's ** was changed:\n%s", out)
	}
}
