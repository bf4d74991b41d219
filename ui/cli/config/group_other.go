//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package config

import (
	"os"
	"os/exec"
)

// startGroup starts c. Process groups are only used where the terminal can
// be handed to them, so that commands can still prompt.
func startGroup(c *exec.Cmd) (restore func(), err error) {
	return func() {}, c.Start()
}

// killGroup kills p.
func killGroup(p *os.Process) {
	if p != nil {
		p.Kill()
	}
}
