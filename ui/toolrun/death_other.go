//go:build unix && !linux

package toolrun

import "syscall"

// deathSignal does nothing off Linux: there is no parent-death signal.
func deathSignal(*syscall.SysProcAttr) {}
