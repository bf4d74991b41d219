//go:build !unix

package screen

// watchSize does nothing where there is no SIGWINCH: the size is read once,
// at the start.
func watchSize(func()) (stop func()) { return func() {} }

// watchJob does nothing where there is no job control.
func watchJob(suspend, resume func()) (stop func()) { return func() {} }

// supported says the screen cannot draw here: Bubble Tea's own renderer,
// which also sets up the Windows console, draws instead.
const supported = false
