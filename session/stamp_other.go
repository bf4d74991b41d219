//go:build !linux

package session

import "os"

// dirStampOf returns the stamp of the directory fi describes: here, its
// modification time.
func dirStampOf(fi os.FileInfo) DirStamp {
	return DirStamp{MTime: fi.ModTime().UnixNano()}
}
