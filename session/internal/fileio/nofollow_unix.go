//go:build unix

package fileio

import (
	"os"
	"syscall"
)

// NoFollow returns flag with O_NOFOLLOW: a symbolic link at the path is
// refused (ELOOP), never followed.
func NoFollow(flag int) int { return flag | syscall.O_NOFOLLOW }

// Shared reports whether the file fi describes has other names too (hard
// links): writing it would write them.
func Shared(fi os.FileInfo) bool {
	st, ok := fi.Sys().(*syscall.Stat_t)
	return ok && st.Nlink > 1
}
