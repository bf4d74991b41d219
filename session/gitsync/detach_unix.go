//go:build unix

package gitsync

import (
	"os/exec"
	"syscall"
)

// detach starts cmd in a session of its own, with no controlling terminal,
// so that ssh cannot ask for a passphrase on the chat screen.
func detach(cmd *exec.Cmd) { cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true} }
