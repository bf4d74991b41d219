package api

import (
	"errors"
	"strings"
)

// SurfaceError is an error whose fix is typed differently where muse runs:
// a slash command on the chat screen, a flag or the command run again in
// a shell (muse -p). Error gives the chat screen's form, ShellText the
// shell's, so that a hint works where it is pasted.
type SurfaceError struct {
	Err   error  // what is wrong
	Chat  string // what to do on the chat screen
	Shell string // what to do in a shell
}

func (e *SurfaceError) Error() string { return e.Err.Error() + ": " + e.Chat }

// Unwrap returns what is wrong, so that errors.Is finds ErrInvalidRequest.
func (e *SurfaceError) Unwrap() error { return e.Err }

// ShellText returns the message of err for a shell: the hint of the
// SurfaceError it wraps, if any, in its shell form; the context wrapped
// around it stays as it is.
func ShellText(err error) string {
	text := err.Error()
	var se *SurfaceError
	if errors.As(err, &se) {
		text = strings.Replace(text, se.Error(), se.Err.Error()+": "+se.Shell, 1)
	}
	return text
}

// surfaced is invalid(format, args...) with the fix chat on the chat
// screen and shell in a shell.
func surfaced(chat, shell, format string, args ...any) error {
	return &SurfaceError{Err: invalid(format, args...), Chat: chat, Shell: shell}
}

// Fixes of a request too large, on each surface.
const (
	chatNewSession  = "go on in a new session (/clear) or a fork"
	shellNewSession = "run it without -c or -r, in a new session"
)
