package cli

import "golang.org/x/sys/unix"

// undumpable makes the process undumpable: its /proc files then belong to
// root, so a process of the same user (a tool) can read neither its
// environment nor its memory, and cannot ptrace it. The initial environment
// stays in memory whatever os.Unsetenv does, so this is what protects it.
func undumpable() { _ = unix.Prctl(unix.PR_SET_DUMPABLE, 0, 0, 0, 0) }
