package api

import "runtime"

// leastAllocated returns the bytes f allocates, the count the cost tests
// here compare, without timing anything. The count is the process's: a
// goroutine the runtime, the test framework or an earlier test's server
// runs meanwhile adds to it, so f runs three times and the fewest bytes
// count; f must do the same work each time. (The TUI's tests have the
// same count in ui/internal/streamtest, which api, the lowest layer, may
// not import: see TestImportsNoMusePackage.)
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
