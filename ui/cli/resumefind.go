package cli

import (
	"errors"
	"fmt"

	"muse/session"
)

// resumeError adds to err, when -r named no saved session, what to do
// next: list the sessions, or pick one from the list muse -r shows, in
// commands that work when pasted (with the flags that chose the service).
// Any other err is returned as it is.
func resumeError(env Env, f *flags, err error) error {
	if !errors.Is(err, session.ErrNotFound) || f.cont {
		return err
	}
	cmd := cmdName(env)
	return fmt.Errorf("%w\nsee the saved sessions: %s sessions list\nor pick one from a list: %s", err, cmd, resumeHint(cmd, f, ""))
}
