//go:build !unix

package preview

import (
	"os"
	"time"
)

// queryTTY does not ask: the terminals of these systems lack the kitty
// graphics protocol's placeholders, and their consoles cannot be read with
// a deadline.
func queryTTY(tty *os.File, timeout time.Duration) bool { return false }
