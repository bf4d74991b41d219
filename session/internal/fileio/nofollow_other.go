//go:build !unix

package fileio

import (
	"os"
	"runtime"
)

// noFollow is syscall.FILE_FLAG_OPEN_REPARSE_POINT, which os.OpenFile passes
// to CreateFile on Windows: a symbolic link is opened, not its target.
const noFollow = 0x00200000

// NoFollow returns flag with noFollow where the system has it.
func NoFollow(flag int) int {
	if runtime.GOOS == "windows" {
		flag |= noFollow
	}
	return flag
}

// Shared reports whether the file fi describes has other names too: not
// known here, so false.
func Shared(fi os.FileInfo) bool { return false }
