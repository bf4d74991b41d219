package screen

import "time"

// WithClock replaces the clock: now tells the time and after runs f once d
// has passed (d may be zero). Tests use it to count frames without sleeping.
func WithClock(now func() time.Time, after func(d time.Duration, f func())) Option {
	return func(r *Renderer) { r.now, r.after = now, after }
}
