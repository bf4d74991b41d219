package preview

import (
	"bytes"
	"io"
	"time"
)

// kittyQuery asks for a 1×1 image to be checked but not stored (a=q), with
// id 31, then for the primary device attributes, which every terminal
// answers: a terminal without the graphics protocol answers only the latter.
const kittyQuery = "\x1b_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\x1b\\" + "\x1b[c"

// queryKitty writes kittyQuery to rw and reads the answers for at most
// timeout. It reports whether the graphics query was answered OK before the
// device attributes were. deadline, when not nil, sets the read deadline of
// rw (like os.File.SetReadDeadline): it is used to end the read in flight,
// and cleared before queryKitty returns. Without it, a read may be left
// waiting for input after queryKitty returns.
func queryKitty(rw io.ReadWriter, deadline func(time.Time) error, timeout time.Duration) bool {
	if _, err := io.WriteString(rw, kittyQuery); err != nil {
		return false
	}
	if deadline != nil && deadline(time.Now().Add(timeout)) != nil {
		deadline = nil
	}
	type chunk struct {
		b   []byte
		err error
	}
	chunks := make(chan chunk)
	done := make(chan struct{})
	exited := make(chan struct{})
	go func() {
		defer close(exited)
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
	defer func() {
		close(done)
		if deadline != nil {
			deadline(time.Now()) // wake the read in flight
			select {
			case <-exited:
			case <-time.After(timeout):
			}
			deadline(time.Time{})
		}
	}()

	timer := time.NewTimer(timeout)
	defer timer.Stop()
	var got []byte
	for {
		select {
		case c := <-chunks:
			got = append(got, c.b...)
			ok, da1 := scanReplies(got)
			if da1 || c.err != nil {
				return ok
			}
		case <-timer.C:
			ok, _ := scanReplies(got)
			return ok
		}
	}
}

// scanReplies reads the terminal's answers in order. ok is whether a
// graphics reply "OK" for id 31 came before the device attributes reply, da1
// whether that reply has come.
func scanReplies(b []byte) (ok, da1 bool) {
	for i := 0; i < len(b); i++ {
		if b[i] != 0x1b || i+1 >= len(b) {
			continue
		}
		switch {
		case bytes.HasPrefix(b[i:], []byte("\x1b_G")):
			end := bytes.Index(b[i:], []byte("\x1b\\"))
			if end < 0 {
				return ok, false
			}
			if graphicsOK(b[i+3 : i+end]) {
				ok = true
			}
			i += end + 1
		case bytes.HasPrefix(b[i:], []byte("\x1b[?")):
			j := i + 3
			for j < len(b) && (b[j] >= '0' && b[j] <= '9' || b[j] == ';') {
				j++
			}
			if j == len(b) {
				return ok, false
			}
			if b[j] == 'c' {
				return ok, true
			}
			i = j
		}
	}
	return ok, false
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
