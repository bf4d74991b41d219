package screen

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/vt"
)

// otherWidths stands between the renderer and a terminal emulator and makes
// the emulator judge some clusters otherwise than muse does, as real
// terminals do: each key of drawn is written as its value, which takes the
// columns that terminal gives the key.
type otherWidths struct {
	w     io.Writer
	drawn map[string]string
}

func (o otherWidths) Write(p []byte) (int, error) {
	for from, to := range o.drawn {
		p = bytes.ReplaceAll(p, []byte(from), []byte(to))
	}
	_, err := o.w.Write(p)
	return len(p), err
}

// rows are the emulator's rows, each cut of its trailing blanks.
func rows(e *vt.Emulator) []string {
	out := make([]string, e.Height())
	for y := range out {
		var b strings.Builder
		for x := 0; x < e.Width(); {
			c := e.CellAt(x, y)
			if c == nil || c.Width == 0 {
				b.WriteByte(' ')
				x++
				continue
			}
			if c.Content == "" {
				b.WriteByte(' ')
			} else {
				b.WriteString(c.Content)
			}
			x += c.Width
		}
		out[y] = strings.TrimRight(b.String(), " ")
	}
	return out
}

// header is the top row of the chat screen, right-aligned to width
// columns as muse counts them, with n at its end.
func header(width, n int) string {
	left, right := "muse · 👍🏽 thanks", fmt.Sprintf("reply -%d", n)
	return left + strings.Repeat(" ", width-ansi.StringWidth(left)-ansi.StringWidth(right)) + right
}

// The emoji line of issue 19: xterm draws 👍🏽 4 columns wide (the thumb
// and the tone apart) where muse counts 2, so the header ran 2 columns past
// the edge, wrapped onto row 2, and when only the header changed, "-2" was
// left there. The renderer's output, fed to a terminal emulator that draws
// the cluster 4 wide, leaves every other row as muse drew it.
func TestALineDrawnWiderThanCountedStaysInItsRow(t *testing.T) {
	const width, height = 30, 3
	e := vt.NewEmulator(width, height)
	term := otherWidths{w: e, drawn: map[string]string{"👍🏽": "👍👍"}}
	c := &fakeClock{}
	r := newRenderer(term, 30, WithClock(c.now, c.after), WithSyncOutput(true))
	if _, err := io.WriteString(r, enterModes(false, false)); err != nil { // as Screen.enter does
		t.Fatal(err)
	}
	r.resize(width, height)
	for n := 1; n <= 3; n++ {
		c.advance(time.Second)
		r.draw(header(width, n) + "\nsecond row\n› typing")
	}
	if r.frameCount() != 3 {
		t.Fatalf("%d frames, want 3", r.frameCount())
	}
	got := rows(e)
	if got[1] != "second row" || got[2] != "› typing" {
		t.Fatalf("rows %q: the header spilt onto the rows below", got)
	}
	if !strings.HasPrefix(got[0], "muse · 👍👍 thanks") {
		t.Fatalf("header row %q", got[0])
	}
}

// The other way round: a terminal that draws ❤️ one column wide (the
// heart without its emoji presentation) where muse counts 2 shows a full
// line one column short; what the row held before does not stay in that
// column.
func TestALineDrawnNarrowerThanCountedLeavesNoOldCells(t *testing.T) {
	const width, height = 12, 2
	e := vt.NewEmulator(width, height)
	term := otherWidths{w: e, drawn: map[string]string{"❤️": "❤"}}
	c := &fakeClock{}
	r := newRenderer(term, 30, WithClock(c.now, c.after))
	if _, err := io.WriteString(r, enterModes(false, false)); err != nil {
		t.Fatal(err)
	}
	r.resize(width, height)
	r.draw(strings.Repeat("x", width) + "\nbelow")
	c.advance(time.Second)
	r.draw("❤️ " + strings.Repeat("y", width-3) + "\nbelow")
	if got := rows(e); got[0] != "❤ "+strings.Repeat("y", width-3) || got[1] != "below" {
		t.Fatalf("rows %q: an old cell stayed", got)
	}
}
