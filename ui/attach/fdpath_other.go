//go:build !linux

package attach

import "os"

// fdPath is "": this system has no /proc to say where an open file is
// (macOS's F_GETPATH has no wrapper in x/sys), so Check follows the path's
// links again and takes the result only when it names the file opened.
func fdPath(*os.File) string { return "" }
