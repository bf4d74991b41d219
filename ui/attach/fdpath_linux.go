package attach

import (
	"os"
	"strconv"
)

// fdPath is where Linux says the open file f is (its /proc/self/fd
// link), "" when it cannot say (no /proc); a deleted file's ends in
// " (deleted)", which names no file.
func fdPath(f *os.File) string {
	conn, err := f.SyscallConn()
	if err != nil {
		return ""
	}
	var p string
	// Control, not Fd, which would make the file blocking.
	if err := conn.Control(func(fd uintptr) {
		p, _ = os.Readlink("/proc/self/fd/" + strconv.FormatUint(uint64(fd), 10))
	}); err != nil {
		return ""
	}
	return p
}
