package session

import (
	"os"
	"syscall"
)

// dirStampOf returns the stamp of the directory fi describes.
func dirStampOf(fi os.FileInfo) DirStamp {
	d := DirStamp{MTime: fi.ModTime().UnixNano()}
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		d.CTime = st.Ctim.Nano()
		d.Dev, d.Ino = uint64(st.Dev), st.Ino
	}
	return d
}
