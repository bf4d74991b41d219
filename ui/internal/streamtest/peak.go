package streamtest

import (
	"runtime"
	"sync"
	"time"
)

// PeakHeap runs f and returns the most heap, in bytes, in use while it
// ran, above what was in use before: sampled every millisecond.
func PeakHeap(f func()) uint64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	base, peak := ms.HeapInuse, ms.HeapInuse
	done := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		t := time.NewTicker(time.Millisecond)
		defer t.Stop()
		for {
			var s runtime.MemStats
			runtime.ReadMemStats(&s)
			peak = max(peak, s.HeapInuse)
			select {
			case <-done:
				return
			case <-t.C:
			}
		}
	})
	f()
	close(done)
	wg.Wait()
	runtime.ReadMemStats(&ms)
	return max(peak, ms.HeapInuse) - base
}
