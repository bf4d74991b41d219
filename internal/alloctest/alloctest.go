// Package alloctest counts the bytes a piece of work allocates, for the
// cost tests of every package (api's, session's and the TUI's): they
// compare the count at two sizes of input, or with the input's size, so
// that work growing faster than its input fails them without timing
// anything. A package of its own, outside ui/ and api/, so that each can
// import it.
package alloctest

import "runtime"

// Allocated returns the bytes f allocates. The count is the process's, so
// a goroutine the runtime, the test framework or an earlier test's server
// runs meanwhile adds to it: f runs three times and the fewest bytes
// count. f must do the same work each time.
func Allocated(f func()) uint64 {
	least := ^uint64(0)
	for range 3 {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		f()
		runtime.ReadMemStats(&after)
		least = min(least, after.TotalAlloc-before.TotalAlloc)
	}
	return least
}
