package picker

import (
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/textinput"
)

// The rename and search inputs show their cursor in reverse video, with no
// colour at all too.
func TestInputLineShowsTheCursor(t *testing.T) {
	in := textinput.New()
	in.Prompt = "new title: "
	in.SetValue("abc")
	if got := inputLine(in); got != "new title: abc\x1b[7m \x1b[27m" {
		t.Errorf("at the end: %q", got)
	}
	in.SetCursor(1)
	if got := inputLine(in); !strings.Contains(got, "a\x1b[7mb\x1b[27mc") {
		t.Errorf("in the middle: %q", got)
	}
}
