package piped

import (
	"bytes"
	"strings"
	"testing"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

var keys = KeyMap{Stop: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "stop"))}

// endless is a pipe that never ends (yes | muse), counting what is read.
type endless struct{ read int64 }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'y'
	}
	e.read += int64(len(p))
	return len(p), nil
}

// run runs the reader's commands one by one until it reports DoneMsg,
// and returns it; steps counts the reads.
func run(t *testing.T, m Model, stopAfter int) (DoneMsg, int) {
	t.Helper()
	cmd := m.Init()
	for steps := 0; ; steps++ {
		if cmd == nil {
			t.Fatal("the reader stopped without reporting")
		}
		msg := cmd()
		if done, ok := msg.(DoneMsg); ok {
			return done, steps
		}
		if steps == stopAfter {
			m, cmd = m.Update(tea.KeyMsg{Type: tea.KeyEsc})
			if m.Reading() {
				t.Fatal("esc did not stop the read")
			}
			if late, _ := m.Update(msg); late.Reading() {
				t.Fatal("a read after the stop started the reader again")
			}
			continue
		}
		m, cmd = m.Update(msg)
		if m.Reading() && !strings.Contains(m.View(), "reading standard input") {
			t.Errorf("view %q", m.View())
		}
	}
}

// A pipe that ends is read whole, in reads of a pipe's buffer.
func TestReadsToTheEnd(t *testing.T) {
	data := bytes.Repeat([]byte("line\n"), 50_000)
	done, steps := run(t, New(bytes.NewReader(data), 16<<20, keys), -1)
	if done.Err != nil || done.Stopped || !bytes.Equal(done.Data, data) {
		t.Errorf("done %v %v, %d bytes", done.Err, done.Stopped, len(done.Data))
	}
	if steps > len(data)/chunk+2 {
		t.Errorf("%d reads for %d bytes", steps, len(data))
	}
}

// A pipe that never ends stops at the limit, with a message saying what
// to do and nothing kept; what is read past the limit is one read at most.
func TestEndlessStopsAtTheLimit(t *testing.T) {
	in := &endless{}
	done, _ := run(t, New(in, 1<<20, keys), -1)
	if done.Data != nil || done.Err == nil || !strings.Contains(done.Err.Error(), "standard input is larger than 1 MiB, muse's limit: not attached; pipe less of it") {
		t.Errorf("done %v, %d bytes", done.Err, len(done.Data))
	}
	if in.read > 1<<20+chunk {
		t.Errorf("read %d bytes with a limit of 1 MiB", in.read)
	}
}

// The stop key ends the read and keeps what was read.
func TestStopKeepsWhatWasRead(t *testing.T) {
	in := &endless{}
	done, _ := run(t, New(in, 16<<20, keys), 3)
	if !done.Stopped || done.Err != nil || len(done.Data) != 3*chunk {
		t.Errorf("done stopped %v, %v, %d bytes", done.Stopped, done.Err, len(done.Data))
	}
}

// No input, no reading.
func TestNoInput(t *testing.T) {
	m := New(nil, 1<<20, keys)
	if m.Reading() || m.Init() != nil || m.View() != "" {
		t.Error("a reader of nothing reads")
	}
}
