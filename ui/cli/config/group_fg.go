//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package config

import (
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"unsafe"
)

// startGroup starts c in a process group of its own. When c's standard
// input is the terminal and muse's group is in the foreground there, the
// new group is put in the foreground instead, so that the command can read
// a password from the terminal; the returned function gives the terminal
// back to muse.
func startGroup(c *exec.Cmd) (restore func(), err error) {
	restore = func() {}
	c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if f, ok := c.Stdin.(*os.File); ok {
		fd := int(f.Fd())
		if fg, err := tcgetpgrp(fd); err == nil && fg == syscall.Getpgrp() {
			c.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Foreground: true, Ctty: fd}
			restore = func() { giveTerminal(fd, fg) }
		}
	}
	return restore, c.Start()
}

// giveTerminal makes pgrp the foreground process group of the terminal fd.
// muse is in the background when it asks, so SIGTTOU, which would stop it,
// is ignored meanwhile.
func giveTerminal(fd, pgrp int) {
	ignored := signal.Ignored(syscall.SIGTTOU)
	if !ignored {
		signal.Ignore(syscall.SIGTTOU)
		defer signal.Reset(syscall.SIGTTOU)
	}
	p := int32(pgrp)
	syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), uintptr(syscall.TIOCSPGRP), uintptr(unsafe.Pointer(&p)))
}

// tcgetpgrp returns the foreground process group of the terminal fd.
func tcgetpgrp(fd int) (int, error) {
	var p int32
	if _, _, errno := syscall.Syscall(syscall.SYS_IOCTL, uintptr(fd), uintptr(syscall.TIOCGPGRP), uintptr(unsafe.Pointer(&p))); errno != 0 {
		return 0, errno
	}
	return int(p), nil
}

// killGroup kills the process group that p leads, if any is left.
func killGroup(p *os.Process) {
	if p != nil {
		syscall.Kill(-p.Pid, syscall.SIGKILL)
	}
}
