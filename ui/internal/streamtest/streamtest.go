// Package streamtest holds what the streaming tests and benchmarks of the
// chat screen and of its conversation share: replies cut into deltas, and
// the process's CPU time, a long word, and a count of bytes allocated.
package streamtest

import "runtime"

// Deltas splits text into word-sized pieces that join back to it.
func Deltas(text string) []string {
	var out []string
	start := 0
	for i := 1; i < len(text); i++ {
		if text[i] == ' ' || text[i] == '\n' {
			out = append(out, text[start:i])
			start = i
		}
	}
	return append(out, text[start:])
}

// Blob returns an unbroken word of n bytes, like base64: the long word the
// cost tests of wrapping and rendering share.
func Blob(n int) string {
	const alphabet = "QmFzZTY0IGJsb2I+/wXyZ0123456789abcdefghijklmnopqrstuvwxyzABCDEF="
	b := make([]byte, n)
	for i := range b {
		b[i] = alphabet[(i*7+i/64)%len(alphabet)]
	}
	return string(b)
}

// Allocated returns the bytes f allocates: the count the cost tests compare
// at two sizes of input, so that work growing faster than the input fails
// them without timing anything. The count is the process's, so a goroutine
// the runtime or the test framework runs meanwhile adds to it: f runs three
// times and the fewest bytes count. f must give the same work each time.
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
