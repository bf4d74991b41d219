package ui

import (
	"io"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// A pipe held open (a command that never closes its end) leaves the
// screen as usable as ever: it shows at once with a note of what was read
// so far, enter waits while the read goes on, and esc stops it: what was
// read is attached as a chip, and the typed input stays.
func TestPipedStdinReadInTheBackground(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	h := newHarness(t, 0)
	m := h.modelWith(t, nil, func(o *Options) { o.Stdin, o.StdinLimit = r, 1<<20 })
	tm := start(t, m, 100, 24)
	waitFor(t, tm, "reading standard input")
	if _, err := w.Write([]byte("first part of the log\n")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, tm, "22 B so far")
	tm.Type("sum it up")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "still being read")
	tm.Send(tea.KeyMsg{Type: tea.KeyEsc})
	waitFor(t, tm, "[1] stdin")
	m = quit(t, tm)
	if m.comp.Input().Value() != "sum it up" || m.comp.Pending().Len() != 1 || string(m.comp.Pending().Files()[0].Data) != "first part of the log\n" {
		t.Errorf("input %q, %d pending", m.comp.Input().Value(), m.comp.Pending().Len())
	}
	// The note of the prompt sent meanwhile is out of date: it goes.
	if n := m.status.Notice(); !strings.Contains(n, "standard input stopped at 22 B: what was read is attached") || strings.Contains(n, "still being read") {
		t.Errorf("notice %q", n)
	}
}

// A pipe that ends is attached whole, as cat notes.md | muse always was.
func TestPipedStdinAttachedAtItsEnd(t *testing.T) {
	h := newHarness(t, 0)
	m := h.modelWith(t, nil, func(o *Options) { o.Stdin, o.StdinLimit = strings.NewReader("# notes\n"), 1<<20 })
	tm := start(t, m, 100, 24)
	waitFor(t, tm, "[1] stdin")
	m = quit(t, tm)
	if m.comp.Pending().Len() != 1 || string(m.comp.Pending().Files()[0].Data) != "# notes\n" || !strings.Contains(m.status.Notice(), "attached standard input") {
		t.Errorf("%d pending, notice %q", m.comp.Pending().Len(), m.status.Notice())
	}
}

// A notice the screen opened with, such as -a's warning about a secret
// file, stays when the piped input is attached, or refused, after it.
func TestPipedStdinKeepsTheOpeningNotice(t *testing.T) {
	for _, tc := range []struct{ piped, want string }{
		{"# notes\n", "warning: id_rsa is a secret file · attached standard input"},
		{"\x00\x01binary", "warning: id_rsa is a secret file · piped input not attached: cannot attach stdin"},
	} {
		h := newHarness(t, 0)
		m := h.modelWith(t, nil, func(o *Options) {
			o.Notice = "warning: id_rsa is a secret file"
			o.Stdin, o.StdinLimit = strings.NewReader(tc.piped), 1<<20
		})
		tm := start(t, m, 200, 24)
		waitFor(t, tm, "stdin")
		m = quit(t, tm)
		if !strings.HasPrefix(m.status.Notice(), tc.want) {
			t.Errorf("notice %q, want it to start %q", m.status.Notice(), tc.want)
		}
	}
}
