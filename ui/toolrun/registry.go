package toolrun

import (
	"os/exec"
	"sync"
)

// running holds the commands started and not yet reaped, so that KillAll
// can end them when muse itself is ended (SIGTERM, SIGHUP, a closed
// terminal): their own process group keeps such signals from reaching them.
var running = struct {
	sync.Mutex
	cmds map[*exec.Cmd]bool
}{cmds: map[*exec.Cmd]bool{}}

func track(cmd *exec.Cmd) {
	running.Lock()
	running.cmds[cmd] = true
	running.Unlock()
}

func untrack(cmd *exec.Cmd) {
	running.Lock()
	delete(running.cmds, cmd)
	running.Unlock()
}

// KillAll kills every tool command still running, with its whole process
// group. The front ends call it when muse is ended or exits, so that no
// tool outlives it.
func KillAll() {
	running.Lock()
	defer running.Unlock()
	for cmd := range running.cmds {
		killGroup(cmd)
		if cmd.Process != nil {
			_ = cmd.Process.Kill()
		}
	}
}
