package screen

import (
	"bytes"
	"io"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/x/ansi"

	"muse/ui/textfmt"
)

// Renderer writes frames to a terminal in the alternate screen: only the
// lines that changed since the frame before, and no more often than its
// frame interval. Between frames it holds no timer. Its methods are safe
// for concurrent use.
//
// Each line written is placed at its row (CUP) and erased around, so that
// one whose width the terminal judges otherwise than muse (an emoji with a
// skin tone, drawn 4 columns wide by xterm where muse counts 2) can only
// differ in its own row; the screen turns autowrap off (see enterModes), so
// the terminal clips such a line instead of wrapping it onto the next row,
// which the next frame may not write again.
type Renderer struct {
	mu       sync.Mutex
	out      io.Writer
	interval time.Duration
	now      func() time.Time
	after    func(time.Duration, func())
	sync     bool // frames are wrapped in synchronized output
	focus    bool // the screen has the terminal report focus (mode 1004)
	clusters bool // the screen sets grapheme clustering (mode 2027)

	width, height int
	shown         []string // the lines on the terminal, before they were cut to the width
	view          string   // the latest frame
	dirty         bool     // view is not yet on the terminal
	repaint       bool     // the next frame writes every line
	scheduled     bool     // a frame is due
	last          time.Time
	paused        bool
	stopped       bool
	frames        int
	drawn         chan struct{} // closed by the first frame written
}

// Option configures a Renderer.
type Option func(*Renderer)

// WithSyncOutput wraps each frame in synchronized output (mode 2026) when
// on, so that a terminal that has it shows the frame whole, never torn. Turn
// it on only for a terminal that said it has the mode (see preview.Detect).
func WithSyncOutput(on bool) Option {
	return func(r *Renderer) { r.sync = on }
}

// WithFocusReports has the screen ask the terminal, when on, to report
// when it gains and loses focus (mode 1004), and turn that off again
// whenever it gives the terminal back.
func WithFocusReports(on bool) Option {
	return func(r *Renderer) { r.focus = on }
}

// WithGraphemeClusters has the screen turn on grapheme clustering (mode
// 2027) while it is up, when on: for a terminal that said it has the mode
// (see preview.DetectScreen), which then draws each cluster in the columns
// muse measures (textfmt.Clusters).
func WithGraphemeClusters(on bool) Option {
	return func(r *Renderer) { r.clusters = on }
}

// clusterModes is what sets grapheme clustering and what resets it, if the
// screen sets it.
func (r *Renderer) clusterModes() (on, off string) {
	if !r.clusters {
		return "", ""
	}
	return ansi.SetModeUnicodeCore, ansi.ResetModeUnicodeCore
}

// newRenderer returns a renderer writing to out at most fps frames a second.
func newRenderer(out io.Writer, fps int, opts ...Option) *Renderer {
	if fps < 1 {
		fps = 1
	}
	r := &Renderer{out: out, interval: time.Second / time.Duration(fps), now: time.Now, after: afterFunc, drawn: make(chan struct{})}
	for _, o := range opts {
		o(r)
	}
	return r
}

// afterFunc runs f on its own goroutine after d, at once when d is zero.
func afterFunc(d time.Duration, f func()) {
	if d <= 0 {
		go f()
		return
	}
	time.AfterFunc(d, f)
}

// draw takes the latest frame. It is written at once when the last frame is
// older than the frame interval, or else when the interval has passed; a
// frame equal to the one before costs nothing. Nothing is written before
// the size is known.
func (r *Renderer) draw(view string) {
	r.mu.Lock()
	if r.stopped || (view == r.view && !r.repaint) {
		r.mu.Unlock()
		return
	}
	r.view, r.dirty = view, true
	d, ok := r.scheduleLocked()
	r.mu.Unlock()
	if ok {
		r.after(d, r.frame)
	}
}

// resize sets the terminal's size. The next draw, even of the same frame,
// writes every line at once. (Bubble Tea draws after every update, so the
// frame laid out for the new size follows.)
func (r *Renderer) resize(width, height int) {
	r.mu.Lock()
	r.width, r.height = width, height
	r.repaint, r.dirty = true, true
	r.last = time.Time{}
	r.mu.Unlock()
}

// pause stops writing frames, while another program has the terminal.
func (r *Renderer) pause() {
	r.mu.Lock()
	r.paused = true
	r.mu.Unlock()
}

// resumeDrawing writes frames again, starting with every line of the latest one.
func (r *Renderer) resumeDrawing() {
	r.mu.Lock()
	r.paused = false
	r.repaint, r.dirty = true, true
	r.last = time.Time{}
	d, ok := r.scheduleLocked()
	r.mu.Unlock()
	if ok {
		r.after(d, r.frame)
	}
}

// stop ends the renderer: no frame is written after it returns.
func (r *Renderer) stop() {
	r.mu.Lock()
	r.stopped = true
	r.mu.Unlock()
}

// Write writes p to the terminal between two frames: for what is not part
// of a frame, such as OSC 52 copies and kitty image transmissions.
func (r *Renderer) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.out.Write(p)
}

// Drawn is closed once the first frame is written: what waits for it (the
// MCP servers' start) never delays that frame.
func (r *Renderer) Drawn() <-chan struct{} { return r.drawn }

// frameCount is how many frames have been written.
func (r *Renderer) frameCount() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.frames
}

// scheduleLocked says whether a frame must be scheduled, and after how
// long. The caller holds r.mu and calls r.after once it is released.
func (r *Renderer) scheduleLocked() (time.Duration, bool) {
	if r.scheduled || r.paused || r.stopped || !r.dirty || r.width <= 0 {
		return 0, false
	}
	r.scheduled = true
	if r.last.IsZero() {
		return 0, true
	}
	return max(0, r.interval-r.now().Sub(r.last)), true
}

// frame writes the latest frame, if it is still wanted.
func (r *Renderer) frame() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.scheduled = false
	if r.paused || r.stopped || !r.dirty {
		return
	}
	b := r.composeLocked()
	r.dirty, r.repaint = false, false
	r.last = r.now()
	if len(b) == 0 {
		return
	}
	r.frames++
	if r.frames == 1 {
		defer close(r.drawn) // once written
	}
	if r.sync {
		b = append(append([]byte(ansi.SetModeSynchronizedOutput), b...), ansi.ResetModeSynchronizedOutput...)
	}
	_, _ = r.out.Write(b) // a terminal that fails a write is gone: nobody to tell
}

// composeLocked returns the bytes that turn the lines shown into the
// latest frame: each changed line is written at its row, cut to the width,
// with the rest of its row erased, and the rows below the frame are erased.
func (r *Renderer) composeLocked() []byte {
	lines := strings.Split(r.view, "\n")
	if r.height > 0 && len(lines) > r.height {
		lines = lines[len(lines)-r.height:] // the bottom, with the input, stays
	}
	var b bytes.Buffer
	for i, line := range lines {
		// A line is the same on the terminal when it is the same before it
		// is cut: a new width repaints every line. Only the lines written
		// are measured.
		if !r.repaint && i < len(r.shown) && r.shown[i] == line {
			continue
		}
		line = textfmt.Cut(line, r.width) // as the terminal draws it (see textfmt.WidthMode)
		b.WriteString(ansi.CursorPosition(1, i+1))
		// The style is reset before erasing, so the erased cells take none
		// of the line's colours. A short line erases the rest of its row
		// after it. A full line is erased before: after it the cursor waits
		// on its last cell, which erasing would take; and a line the
		// terminal draws narrower than muse counts leaves no old cells.
		if textfmt.Width(line) < r.width {
			b.WriteString(line)
			b.WriteString(ansi.ResetStyle + ansi.EraseLineRight)
		} else {
			b.WriteString(ansi.ResetStyle + ansi.EraseLineRight)
			b.WriteString(line)
		}
	}
	if len(lines) < r.height && (r.repaint || len(lines) < len(r.shown)) {
		b.WriteString(ansi.CursorPosition(1, len(lines)+1) + ansi.EraseScreenBelow)
	}
	r.shown = lines
	return b.Bytes()
}
