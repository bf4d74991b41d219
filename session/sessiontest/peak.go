package sessiontest

import (
	"runtime"
	"runtime/debug"
	"runtime/metrics"
	"sync"
)

// LiveHeap returns the heap the last garbage collection found live.
func LiveHeap() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// Sampler notes the largest live heap of the garbage collections that run
// while it is on, from a finalizer that each of them runs.
type Sampler struct {
	mu   sync.Mutex
	peak uint64
	on   bool
}

// Start turns the sampler on.
func (p *Sampler) Start() {
	p.on = true
	var arm func()
	arm = func() {
		x := new([16]byte)
		runtime.SetFinalizer(x, func(*[16]byte) {
			p.mu.Lock()
			defer p.mu.Unlock()
			if !p.on {
				return
			}
			p.peak = max(p.peak, LiveHeap())
			arm()
		})
	}
	arm()
}

// Stop turns the sampler off and returns the largest live heap it saw.
func (p *Sampler) Stop() uint64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.on = false
	return p.peak
}

// PeakLive runs f three times, with a garbage collection at every
// gcPercent percent of growth of the heap, and returns the fewest bytes by
// which the largest live heap of a collection during a run exceeded the
// heap live before it: another goroutine's allocations count too, and a
// collection counts what is allocated while it runs as live, so the
// fewest of a few runs is the one to compare.
func PeakLive(gcPercent int, f func()) uint64 {
	defer debug.SetGCPercent(debug.SetGCPercent(gcPercent))
	best := uint64(1 << 62)
	for range 3 {
		runtime.GC()
		base := LiveHeap()
		var p Sampler
		p.Start()
		f()
		peak := p.Stop()
		best = min(best, max(peak, base)-base)
	}
	return best
}
