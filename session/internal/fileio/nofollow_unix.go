//go:build unix

package fileio

import "syscall"

// NoFollow returns flag with O_NOFOLLOW: a symbolic link at the path is
// refused (ELOOP), never followed.
func NoFollow(flag int) int { return flag | syscall.O_NOFOLLOW }
