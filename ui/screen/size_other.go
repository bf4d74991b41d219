//go:build !unix

package screen

import "errors"

// watchSize does nothing where there is no SIGWINCH: the size is read once,
// at the start.
func watchSize(func()) (stop func()) { return func() {} }

// watchJob does nothing where there is no job control.
func watchJob(suspend, resume func()) (stop func()) { return func() {} }

// supported says the screen cannot draw here: Bubble Tea's own renderer,
// which also sets up the Windows console, draws instead.
const supported = false

// stopSelf cannot stop muse where there is no job control.
func stopSelf() error { return errors.ErrUnsupported }
