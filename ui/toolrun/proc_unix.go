//go:build unix

package toolrun

import (
	"errors"
	"os"
	"os/exec"
	"syscall"
)

// ownGroup makes cmd start a process group of its own, which a cancel
// kills, and die with muse where the system can (see deathSignal).
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	deathSignal(cmd.SysProcAttr)
	cmd.Cancel = func() error {
		if err := syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL); err != nil {
			if errors.Is(err, syscall.ESRCH) {
				return os.ErrProcessDone
			}
			return err
		}
		return nil
	}
}

// killGroup kills what is left of the process group of cmd, which has
// exited: the processes it started in the background.
//
// The group's id is the pid of cmd, which was reaped: while a process of the
// group lives, no new process can get that pid; when none does, the signal
// finds no group, unless in the moment since the reaping the pid went to a
// new process that leads a group of its own, which is unlikely enough.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
