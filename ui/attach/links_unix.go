//go:build unix

package attach

import (
	"io/fs"
	"syscall"
)

// hardLinks is how many names the file of fi has, 1 when unknown.
func hardLinks(fi fs.FileInfo) uint64 {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return uint64(st.Nlink)
	}
	return 1
}
