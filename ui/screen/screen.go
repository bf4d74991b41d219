package screen

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"golang.org/x/term"
)

// ErrNotTerminal says the screen needs a terminal on both input and output.
var ErrNotTerminal = errors.New("not a terminal")

// Screen is the terminal the chat screen runs on: raw input, the alternate
// screen with the cursor hidden, bracketed paste, the mouse if asked for,
// and a Renderer for the frames.
type Screen struct {
	in, out *os.File
	mouse   bool
	r       *Renderer

	mu      sync.Mutex
	state   *term.State // the terminal's mode before raw mode
	program *tea.Program
	stop    func() // stops watching the window size and job control
	crash   *crash // of the model drawn
}

// Open puts the terminal of in and out into raw mode and the alternate
// screen, and returns the screen drawing on it at most fps frames a second,
// with a renderer configured by opts. Close gives the terminal back as it
// was. Where it cannot draw (off unix), the error is errors.ErrUnsupported.
func Open(in, out *os.File, fps int, mouse bool, opts ...Option) (*Screen, error) {
	if !supported {
		return nil, errors.ErrUnsupported
	}
	if !term.IsTerminal(int(in.Fd())) || !term.IsTerminal(int(out.Fd())) {
		return nil, ErrNotTerminal
	}
	s := &Screen{in: in, out: out, mouse: mouse}
	s.r = newRenderer(out, fps, opts...)
	if err := s.enter(); err != nil {
		return nil, err
	}
	return s, nil
}

// Renderer is the screen's renderer; it is also the writer for what goes to
// the terminal between frames.
func (s *Screen) Renderer() *Renderer { return s.r }

// Options are the program options for a program drawn on s.
func (s *Screen) Options() []tea.ProgramOption {
	return []tea.ProgramOption{tea.WithoutRenderer(), tea.WithInput(s.in), tea.WithOutput(s.out)}
}

// Wrap returns m drawn on s.
func (s *Screen) Wrap(m tea.Model) Model {
	w := wrap(m, s.r)
	s.crash = w.crash
	return w
}

// Panic is the report of a panic in the model drawn on s, or "". Bubble
// Tea's own report is printed on the alternate screen and lost with it, so
// print this one after Close.
func (s *Screen) Panic() string {
	if s.crash == nil {
		return ""
	}
	return s.crash.text
}

// Start tells p the window's size now and whenever it changes, until Close.
// Call it before p.Run.
func (s *Screen) Start(p *tea.Program) {
	s.mu.Lock()
	s.program = p
	s.mu.Unlock()
	stopSize, stopJob := watchSize(s.sendSize), watchJob(func() { _ = s.suspend() }, func() { _ = s.resume() })
	s.stop = func() { stopSize(); stopJob() }
	go s.sendSize()
}

// suspend stops drawing and gives the terminal back, for a child process
// or before muse stops.
func (s *Screen) suspend() error {
	s.r.pause()
	return s.leave()
}

// resume takes the terminal again after a child process ended or muse
// continued: raw mode and the screen's modes, which the shell may have
// changed meanwhile, and every line of the frame at the window's size now.
func (s *Screen) resume() error {
	s.mu.Lock()
	left := s.state == nil
	s.mu.Unlock()
	var err error
	if left {
		err = s.enter()
	} else if _, err = term.MakeRaw(int(s.in.Fd())); err == nil { // stopped by SIGSTOP: keep the mode saved at start
		on, _ := s.r.clusterModes()
		_, err = io.WriteString(s.r, enterModes(s.mouse, s.r.focus)+on)
	}
	s.r.resumeDrawing()
	// Not s.sendSize() itself: after a child process, resume runs on Bubble
	// Tea's event loop (inside tea.Exec), and Program.Send waits for that
	// same loop, so muse would never read another message.
	go s.sendSize()
	return err
}

// sendSize sends the window's size to the program; 80x24 when the
// terminal cannot tell.
func (s *Screen) sendSize() {
	w, h, err := term.GetSize(int(s.out.Fd()))
	if err != nil || w <= 0 || h <= 0 {
		w, h = 80, 24
	}
	s.mu.Lock()
	p := s.program
	s.mu.Unlock()
	if p != nil {
		p.Send(tea.WindowSizeMsg{Width: w, Height: h})
	}
}

// Close stops drawing and gives the terminal back as it was.
func (s *Screen) Close() error {
	s.r.stop()
	if s.stop != nil {
		s.stop()
	}
	return s.leave()
}

// Suspend stops muse and gives the terminal to the
// shell, as SIGTSTP from outside does (see watchJob): ctrl+z is a key in
// raw mode, so the chat screen runs this for it; fg brings muse back.
func (s *Screen) Suspend() error {
	if err := stopSelf(); err != nil {
		return fmt.Errorf("suspend muse: %w", err)
	}
	return nil
}

// Exec runs c with the terminal to itself, as tea.Exec does, and then
// takes the terminal back and draws the whole frame again.
func (s *Screen) Exec(c tea.ExecCommand, fn tea.ExecCallback) tea.Cmd {
	return tea.Exec(&handover{ExecCommand: c, s: s}, fn)
}

// handover gives the terminal to a command while it runs.
type handover struct {
	tea.ExecCommand
	s *Screen
}

// SetStdin gives the command the terminal itself, whatever the program
// reads its keys through (a reader that is no file would leave a copy
// reading the terminal after the command ends).
func (h *handover) SetStdin(io.Reader) { h.ExecCommand.SetStdin(h.s.in) }

// Run leaves the alternate screen and raw mode, runs the command, and comes
// back.
func (h *handover) Run() error {
	if err := h.s.suspend(); err != nil {
		_ = h.s.resume()
		return err
	}
	err := h.ExecCommand.Run()
	if rerr := h.s.resume(); rerr != nil && err == nil {
		err = rerr
	}
	return err
}

// enter puts the terminal into raw mode and the modes the screen uses.
func (s *Screen) enter() error {
	state, err := term.MakeRaw(int(s.in.Fd()))
	if err != nil {
		return fmt.Errorf("put the terminal in raw mode: %w", err)
	}
	s.mu.Lock()
	s.state = state
	s.mu.Unlock()
	on, _ := s.r.clusterModes()
	_, err = io.WriteString(s.r, enterModes(s.mouse, s.r.focus)+on)
	return err
}

// leave undoes enter. It is safe to call twice.
func (s *Screen) leave() error {
	s.mu.Lock()
	state := s.state
	s.state = nil
	s.mu.Unlock()
	if state == nil {
		return nil
	}
	_, off := s.r.clusterModes()
	_, werr := io.WriteString(s.r, off+leaveModes(s.mouse, s.r.focus))
	if err := term.Restore(int(s.in.Fd()), state); err != nil {
		return fmt.Errorf("restore the terminal: %w", err)
	}
	return werr
}

// enterModes is what the terminal is told when the screen opens: the
// alternate screen, cleared, the cursor hidden, autowrap off (a line the
// terminal finds wider than muse does is clipped, not wrapped onto the next
// row), bracketed paste, with mouse button presses and drags in SGR
// encoding, and with focus focus reports (mode 1004), which Bubble Tea
// reads as tea.FocusMsg and tea.BlurMsg.
func enterModes(mouse, focus bool) string {
	s := ansi.SetModeAltScreenSaveCursor + ansi.EraseEntireScreen + ansi.CursorHomePosition +
		ansi.HideCursor + ansi.ResetModeAutoWrap + ansi.SetModeBracketedPaste
	if mouse {
		s += ansi.SetModeMouseButtonEvent + ansi.SetModeMouseExtSgr
	}
	if focus {
		s += ansi.SetModeFocusEvent
	}
	return s
}

// leaveModes undoes enterModes, in reverse order.
func leaveModes(mouse, focus bool) string {
	s := ""
	if focus {
		s += ansi.ResetModeFocusEvent
	}
	if mouse {
		s += ansi.ResetModeMouseExtSgr + ansi.ResetModeMouseButtonEvent
	}
	return s + ansi.ResetModeBracketedPaste + ansi.SetModeAutoWrap + ansi.ShowCursor + ansi.ResetModeAltScreenSaveCursor
}
