package screen

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// counter counts the keys it is sent; q quits and p panics.
type counter struct {
	keys   int
	width  int
	height int
}

func (c counter) Init() tea.Cmd { return nil }

func (c counter) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		c.width, c.height = msg.Width, msg.Height
	case tea.KeyMsg:
		switch msg.String() {
		case "q":
			return c, tea.Quit
		case "p":
			panic("boom")
		}
		c.keys++
	}
	return c, nil
}

func (c counter) View() string { return fmt.Sprintf("%dx%d\nkeys %d", c.width, c.height, c.keys) }

// run runs counter wrapped, without Bubble Tea's renderer, on input.
func run(t *testing.T, input string) (tea.Model, Model, *Renderer, *bytes.Buffer, error) {
	t.Helper()
	var out bytes.Buffer
	c := &fakeClock{}
	r := newRenderer(&out, 30, WithClock(c.now, c.after))
	w := wrap(counter{}, r)
	p := tea.NewProgram(w, tea.WithoutRenderer(), tea.WithInput(nil), tea.WithOutput(io.Discard), tea.WithoutSignalHandler())
	go func() {
		p.Send(tea.WindowSizeMsg{Width: 30, Height: 4})
		for _, k := range input {
			p.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{k}})
		}
	}()
	final, err := p.Run()
	return final, w, r, &out, err
}

func TestTheWrappedModelIsDrawnByTheRenderer(t *testing.T) {
	final, _, r, out, err := run(t, "abcq")
	if err != nil {
		t.Fatal(err)
	}
	w, ok := final.(Model)
	if !ok {
		t.Fatalf("final model is %T", final)
	}
	if inner := w.Inner().(counter); inner.keys != 3 || inner.width != 30 {
		t.Fatalf("inner model saw %d keys at width %d, want 3 at 30", inner.keys, inner.width)
	}
	if w.View() != "" {
		t.Fatal("the wrapper hands Bubble Tea a view")
	}
	if !strings.Contains(out.String(), "30x4") || !strings.Contains(out.String(), "keys 3") || r.frameCount() < 2 {
		t.Fatalf("%d frames, %q: want the size and the last key count drawn", r.frameCount(), out.String())
	}
}

func TestAPanicIsKeptForTheReport(t *testing.T) {
	_, w, _, _, err := run(t, "ap")
	if !errors.Is(err, tea.ErrProgramPanic) {
		t.Fatalf("err = %v, want a panic", err)
	}
	if !strings.Contains(w.panicReport(), "boom") || !strings.Contains(w.panicReport(), "counter.Update") {
		t.Fatalf("panic report %q: want the value and the stack", w.panicReport())
	}
}
