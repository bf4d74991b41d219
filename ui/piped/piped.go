// Package piped reads the chat screen's piped standard input (cat notes.md
// | muse) in the background, so that the screen shows at once however long
// the pipe stays open: yes | muse, or a command that never closes its end.
// The screen shows the bytes read so far and takes keys meanwhile; the
// stop key (esc) ends the read and keeps what was read; more than the
// limit ends it too, and nothing is kept. Each read runs in a command, one
// at a time: the event loop never waits on the pipe.
package piped

import (
	"fmt"
	"io"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// Progress starts the note View shows while the read goes on.
const Progress = "reading standard input"

// stillReading starts the note of a prompt sent while the read goes on
// (see StillReading).
const stillReading = "standard input is still being read: "

// Stale reports whether notice is one the read's end makes out of date:
// its progress, or the note of a prompt sent while it went on. The note
// of the end replaces it rather than follow it.
func Stale(notice string) bool {
	return strings.HasPrefix(notice, Progress) || strings.HasPrefix(notice, stillReading)
}

// chunk is the most one read takes: a pipe's buffer.
const chunk = 64 << 10

// KeyMap are the keys of the reader.
type KeyMap struct {
	// Stop ends the read, keeping what was read.
	Stop key.Binding
}

// Model reads standard input while the screen runs.
type Model struct {
	r       io.Reader
	limit   int64
	keys    KeyMap
	data    []byte
	reading bool
}

// ReadMsg carries what one read of standard input gave.
type ReadMsg struct {
	data []byte
	err  error
}

// DoneMsg is what the reader reports when the read ends: the bytes read,
// whether the user stopped it before its end, and, when set, why nothing
// was kept.
type DoneMsg struct {
	Data    []byte
	Stopped bool
	Err     error
}

// New returns a reader of r that keeps at most limit bytes. A nil r
// reads nothing.
func New(r io.Reader, limit int64, keys KeyMap) Model {
	return Model{r: r, limit: limit, keys: keys, reading: r != nil}
}

// Init starts the first read.
func (m Model) Init() tea.Cmd {
	if !m.reading {
		return nil
	}
	return m.read()
}

// read reads once from the input, in a command.
func (m Model) read() tea.Cmd {
	r := m.r
	return func() tea.Msg {
		buf := make([]byte, chunk)
		n, err := r.Read(buf)
		return ReadMsg{data: buf[:n], err: err}
	}
}

// Reading reports whether the read is going on.
func (m Model) Reading() bool { return m.reading }

// Update takes what a read gave, and the stop key.
func (m Model) Update(msg tea.Msg) (Model, tea.Cmd) {
	if !m.reading {
		return m, nil // a read that returned after the stop: dropped
	}
	switch msg := msg.(type) {
	case tea.KeyMsg:
		if key.Matches(msg, m.keys.Stop) {
			return m.end(DoneMsg{Data: m.data, Stopped: true})
		}
	case ReadMsg:
		if int64(len(m.data))+int64(len(msg.data)) > m.limit {
			return m.end(DoneMsg{Err: fmt.Errorf("standard input is larger than %d MiB, muse's limit: not attached; pipe less of it (head -c), or save it to a file and attach part of it", m.limit>>20)})
		}
		m.data = append(m.data, msg.data...)
		switch {
		case msg.err == io.EOF:
			return m.end(DoneMsg{Data: m.data})
		case msg.err != nil:
			return m.end(DoneMsg{Err: fmt.Errorf("read standard input: %w", msg.err)})
		}
		return m, m.read()
	}
	return m, nil
}

// end ends the read, reporting done.
func (m Model) end(done DoneMsg) (Model, tea.Cmd) {
	m.reading, m.data = false, nil
	return m, func() tea.Msg { return done }
}

// View is the note the status line shows while the read goes on.
func (m Model) View() string {
	if !m.reading {
		return ""
	}
	stop := m.keys.Stop.Help().Key
	return fmt.Sprintf("%s: %s so far · %s stops and attaches it", Progress, Size(int64(len(m.data))), stop)
}

// StillReading is the note of a prompt sent while the read goes on: the
// prompt waits until the stop key ends it.
func (m Model) StillReading() string {
	stop, _, _ := strings.Cut(m.keys.Stop.Help().Key, "/")
	return stillReading + stop + " stops it and attaches what was read, then enter sends"
}

// Size writes n bytes as B, KB or MB, one decimal for MB.
func Size(n int64) string {
	switch {
	case n < 1<<10:
		return fmt.Sprintf("%d B", n)
	case n < 1<<20:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/(1<<20))
}
