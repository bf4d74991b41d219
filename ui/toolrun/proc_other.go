//go:build !unix

package toolrun

import "os/exec"

// ownGroup does nothing here: a cancel kills the command only, as exec does.
func ownGroup(cmd *exec.Cmd) {}

// killGroup does nothing here: there is no process group to kill.
func killGroup(cmd *exec.Cmd) {}
