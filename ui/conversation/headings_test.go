package conversation

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/muesli/termenv"

	"muse/theme"
)

// sgr matches an SGR escape sequence.
var sgr = regexp.MustCompile("\x1b\\[[0-9;]*m")

// TestHeadingsWithoutMarks renders a heading of every level in every
// theme, dark and light, and in a theme file that sets only the heading
// colour, in true colour, 256 and 16 colours and none (NO_COLOR): no
// heading shows glamour's "#" marks, and each level is drawn unlike every
// other (its escape codes differ) in every profile, colourless too.
func TestHeadingsWithoutMarks(t *testing.T) {
	doc := "# Alpha\n\n## Bravo\n\n### Charlie\n\n#### Delta\n\n##### Echo\n\n###### Foxtrot\n\nbody text\n"
	words := []string{"Alpha", "Bravo", "Charlie", "Delta", "Echo", "Foxtrot"}
	profiles := map[termenv.Profile]string{termenv.TrueColor: "truecolor", termenv.ANSI256: "256", termenv.ANSI: "16", termenv.Ascii: "none"}
	file := filepath.Join(t.TempDir(), "only-heading.toml")
	if err := os.WriteFile(file, []byte("base = \"dark\"\n[markdown]\nheading = \"#88c0d0\"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, name := range append(theme.Names(), file) {
		for _, dark := range []bool{true, false} {
			for p, pname := range profiles {
				th, err := theme.New(name, dark, theme.WithProfile(p))
				if err != nil {
					t.Fatal(err)
				}
				where := fmt.Sprintf("%s (dark %t) in %s", th.Name, dark, pname)
				out := newMarkdown(th.Markdown, p).render(doc, 60)
				if strings.Contains(sgr.ReplaceAllString(out, ""), "#") {
					t.Errorf("%s: a heading shows its marks:\n%s", where, out)
				}
				looks := map[string]int{}
				for i, w := range words {
					look, ok := lookOf(out, w)
					if !ok {
						t.Fatalf("%s: no line is the heading %q alone:\n%q", where, w, out)
					}
					if other, seen := looks[look]; seen {
						t.Errorf("%s: heading %d is drawn as heading %d is (%q)", where, i+1, other, look)
					}
					looks[look] = i + 1
					checked++
				}
			}
		}
	}
	if checked < 6*4*2*4 {
		t.Errorf("only %d headings checked", checked)
	}
}

// lookOf returns the escape codes that draw word, on a line of out that
// shows word alone, and whether there is such a line.
func lookOf(out, word string) (string, bool) {
	for _, l := range strings.Split(out, "\n") {
		if strings.TrimSpace(sgr.ReplaceAllString(l, "")) != word {
			continue
		}
		return escapeBefore(l, word)
	}
	return "", false
}
