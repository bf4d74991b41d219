package cli

import (
	"errors"
	"fmt"

	"muse/session"
)

// resumeError adds to err, when -r named no saved session or several,
// what to do next: list the sessions, or pick one from the list muse -r
// shows, in commands that work when pasted (with the flags that chose the
// service). Any other err is returned as it is.
func resumeError(env Env, f *flags, err error) error {
	if f.cont {
		return err
	}
	cmd := cmdName(env)
	switch {
	case errors.Is(err, session.ErrNotFound):
		return fmt.Errorf("%w\nsee the saved sessions: %s sessions list\nor pick one from a list: %s", err, cmd, resumeHint(cmd, f, ""))
	case errors.Is(err, session.ErrAmbiguous):
		return fmt.Errorf("%w\nname one by its id (or enough of it), or pick one from a list: %s", err, resumeHint(cmd, f, ""))
	}
	return err
}
