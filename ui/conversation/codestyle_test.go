package conversation

import (
	"strings"
	"testing"

	"github.com/muesli/termenv"

	"muse/theme"
)

// A code block is drawn in the colours of the theme it is rendered in,
// whatever theme rendered code before in the process: glamour's own
// registration kept the first theme's colours for good, so after /theme
// light a dark theme's code colours stayed, on white.
func TestCodeColoursFollowTheTheme(t *testing.T) {
	code := "```go\n// a comment\nfunc f() string { return \"s\" }\n```\n"
	render := func(name string, dark bool, p termenv.Profile) string {
		th, err := theme.New(name, dark, theme.WithProfile(p))
		if err != nil {
			t.Fatal(err)
		}
		// The keyword's escape codes: the text around the code (its
		// margin, plain tokens) takes the theme's colours anyway.
		look, ok := escapeBefore(newMarkdown(th.Markdown, p).render(code, 60), "func")
		if !ok {
			t.Fatalf("%s: no keyword drawn", name)
		}
		return look
	}
	for _, p := range []termenv.Profile{termenv.TrueColor, termenv.ANSI} {
		dark := render("dark", true, p)
		light := render("light", false, p)
		if dark == light {
			t.Fatalf("profile %v: dark and light draw code alike:\n%q", p, dark)
		}
		if again := render("dark", true, p); again != dark {
			t.Errorf("profile %v: dark after light draws its keyword as %q, first as %q", p, again, dark)
		}
		if nord := render("nord", true, p); nord == dark {
			t.Errorf("profile %v: nord draws code as dark does", p)
		}
	}
}

// escapeBefore returns the last escape sequence before word in out.
func escapeBefore(out, word string) (string, bool) {
	i := strings.Index(out, word)
	if i < 0 {
		return "", false
	}
	codes := sgr.FindAllString(out[:i], -1)
	if len(codes) == 0 {
		return "", true
	}
	return codes[len(codes)-1], true
}
