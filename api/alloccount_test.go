package api

import "runtime"

// The cost tests here count what a call allocates, never how long it
// takes. The counts are the process's: a goroutine the runtime, the test
// framework or an earlier test's server runs meanwhile adds to them, so
// each is the fewest of three runs of the same work.

// leastAllocated returns the fewest bytes f allocated in three runs; f
// must do the same work each time.
func leastAllocated(f func()) uint64 {
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
