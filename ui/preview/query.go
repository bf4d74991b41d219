package preview

import (
	"bytes"
	"io"
	"strings"
	"time"

	"github.com/charmbracelet/x/ansi"
)

// graphicsQuery asks for a 1×1 image to be checked but not stored (a=q),
// with id 31: a terminal with the graphics protocol answers OK.
const graphicsQuery = "\x1b_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\x1b\\"

// xtversion asks for the terminal's name and version (XTVERSION), with its
// parameter 0 written out.
const xtversion = "\x1b[>0q"

// question is what the terminal is asked at start, in one write: the
// graphics query when graphics is true, its name and version (XTVERSION),
// whether it has synchronized output (DECRQM 2026), and last the primary
// device attributes, which every terminal answers: once that answer has
// come, every answer the terminal will give has.
func question(graphics bool) string {
	q := xtversion + ansi.RequestModeSynchronizedOutput + ansi.RequestPrimaryDeviceAttributes
	if graphics {
		q = graphicsQuery + q
	}
	return q
}

// widthProbe asks how the terminal draws grapheme clusters: whether it has
// mode 2027 (grapheme clustering, DECRQM), and how many columns the
// probe's clusters took when written from the first column (the cursor
// position reported after them). It is written on the alternate screen, erased and left at once, so
// nothing of it stays in the shell's lines. It goes before the device
// attributes request, whose answer still ends the wait.
const widthProbe = ansi.RequestModeUnicodeCore + ansi.SetModeAltScreenSaveCursor + ansi.CursorHomePosition +
	probeCluster + ansi.RequestCursorPositionReport + ansi.EraseEntireLine + ansi.ResetModeAltScreenSaveCursor

// probeCluster is what the width probe writes: three clusters that
// terminals join differently, a family (a ZWJ sequence), a thumb with a
// skin tone (a modifier) and a flag (regional indicators). They take 6
// columns where the terminal draws every cluster whole (kitty), 12 where it
// draws each code point (xterm, alacritty), and 8 in tmux 3.3, which joins
// the family but not the thumb: muse measures by cluster only at 6.
const probeCluster = "👨‍👩‍👧👍🏽🇫🇷"

// probeWhole is how many columns probeCluster takes drawn cluster by
// cluster.
const probeWhole = 6

// withWidthProbe is question q with the width probe before its last
// request, the device attributes.
func withWidthProbe(q string) string {
	return strings.TrimSuffix(q, ansi.RequestPrimaryDeviceAttributes) + widthProbe + ansi.RequestPrimaryDeviceAttributes
}

// answers is what the terminal answered to question.
type answers struct {
	graphics bool   // the graphics query was answered OK
	version  string // the XTVERSION answer, e.g. "kitty(0.35.2)", or ""
	sync     bool   // mode 2026 was reported set or reset
	complete bool   // the device attributes came: nothing else will
	// graphemes is mode 2027 reported set or reset (1, 2 or 3); probed the
	// column the cursor was reported at after the probe's clusters (0 when
	// not reported).
	graphemes bool
	probed    int
}

// listen writes q to rw and reads the answers for at most timeout, or
// until the device attributes come; what it read that was no answer (keys
// typed meanwhile) is dropped. deadline, when not nil, sets the read
// deadline of rw (like os.File.SetReadDeadline): it is used to end the read
// in flight, and cleared before listen returns; what that read brings is
// read for answers too, so none is lost half read. Without it, a read may
// be left waiting for input after listen returns. The replies returned
// hold what is still to come: an answer begun, and whether the device
// attributes did come.
func listen(rw io.ReadWriter, deadline func(time.Time) error, q string, timeout time.Duration) replies {
	var r replies
	if _, err := io.WriteString(rw, q); err != nil {
		r.done = true // nothing was asked: nothing will come
		return r
	}
	if deadline != nil && deadline(time.Now().Add(timeout)) != nil {
		deadline = nil
	}
	chunks := make(chan chunk)
	done := make(chan struct{})
	go func() {
		buf := make([]byte, 512)
		for {
			n, err := rw.Read(buf)
			select {
			case chunks <- chunk{append([]byte(nil), buf[:n]...), err}:
			case <-done:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	defer close(done)

	timer := time.NewTimer(timeout)
	defer timer.Stop()
wait:
	for !r.done {
		select {
		case c := <-chunks:
			r.take(c.b, nil)
			if c.err != nil {
				if deadline != nil {
					deadline(time.Time{})
				}
				return r
			}
		case <-timer.C:
			break wait
		}
	}
	if deadline != nil {
		r.wake(chunks, deadline, timeout)
	}
	return r
}

// wake ends the read in flight of listen, which reads into chunks, with
// deadline, and takes what it read, waiting at most timeout for it; then
// it clears the deadline. Left blocked, that read would take keys from
// the program that reads the terminal next.
func (r *replies) wake(chunks <-chan chunk, deadline func(time.Time) error, timeout time.Duration) {
	defer deadline(time.Time{})
	deadline(time.Now())
	late := time.After(timeout)
	for {
		select {
		case c := <-chunks:
			r.take(c.b, nil)
			if c.err != nil {
				return
			}
		case <-late: // the deadline did not wake it
			return
		}
	}
}

// chunk is what one read of the terminal gave.
type chunk struct {
	b   []byte
	err error
}

// stringSeq finds the end of a string sequence's body in b, which starts
// just after its introducer: it returns the body and the bytes it and its
// terminator (ST or BEL) take, or n < 0 when the terminator has not come.
func stringSeq(b []byte) (body []byte, n int) {
	for j := 0; j < len(b); j++ {
		switch {
		case b[j] == 0x07:
			return b[:j], j + 1
		case b[j] == 0x1b && j+1 < len(b) && b[j+1] == '\\':
			return b[:j], j + 2
		case b[j] == 0x1b && j+1 == len(b):
			return nil, -1
		}
	}
	return nil, -1
}

// csiSeq reads a control sequence in b, which starts just after "ESC [":
// its parameter bytes (with any private marker), intermediate bytes and
// final byte, and the bytes they take; n < 0 when it is not yet whole.
func csiSeq(b []byte) (params []byte, inter string, final byte, n int) {
	j := 0
	for j < len(b) && b[j] >= 0x30 && b[j] <= 0x3f {
		j++
	}
	k := j
	for k < len(b) && b[k] >= 0x20 && b[k] <= 0x2f {
		k++
	}
	if k == len(b) {
		return nil, "", 0, -1
	}
	return b[:j], string(b[j:k]), b[k], k + 1
}

// graphicsOK reports whether the body of a graphics reply, "keys;message",
// is the OK for image id 31.
func graphicsOK(body []byte) bool {
	keys, msg, found := bytes.Cut(body, []byte(";"))
	if !found || string(msg) != "OK" {
		return false
	}
	for _, kv := range bytes.Split(keys, []byte(",")) {
		if string(kv) == "i=31" {
			return true
		}
	}
	return false
}
