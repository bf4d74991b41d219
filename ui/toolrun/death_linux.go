package toolrun

import "syscall"

// deathSignal asks Linux to kill the tool if muse dies first (kill -9 or a
// crash leaves no time to kill it). The signal goes to the tool's own
// process, not to what it started in the background; those still die with
// its group when muse ends normally (KillAll).
func deathSignal(a *syscall.SysProcAttr) { a.Pdeathsig = syscall.SIGKILL }
