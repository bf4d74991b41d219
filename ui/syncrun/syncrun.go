// Package syncrun runs muse sync in the background for sync = "auto": at
// start, after each finished turn and on quit. The chat screen never waits
// on it: Kick only asks for a sync, and a sync asked for while one runs is
// made once that one ends. A failed sync is tried again after a backoff
// (2 s, doubling to 5 min), and is never fatal: its error is a status.
package syncrun

import (
	"context"
	"time"
)

// Backoff bounds.
const (
	firstBackoff = 2 * time.Second
	maxBackoff   = 5 * time.Minute
)

// Status is what the runner reports after each sync, and as one starts.
type Status struct {
	Running bool
	// Last is when the last sync that succeeded ended; zero if none has.
	Last time.Time
	// Err is the last sync's error, "" when it succeeded.
	Err string
}

// StatusMsg carries a Status to the chat screen.
type StatusMsg Status

// Runner runs syncs one at a time in its own goroutine.
type Runner struct {
	sync   func(context.Context) error
	report func(Status)
	now    func() time.Time
	after  func(time.Duration) <-chan time.Time
	kick   chan struct{}
	stop   chan struct{}
	done   chan struct{}
	cancel context.CancelFunc
}

// Options are a Runner's clock and timer; nil means the system's.
type Options struct {
	Now   func() time.Time
	After func(time.Duration) <-chan time.Time
}

// Start starts a runner of sync, which tells report (from its goroutine)
// each status. It waits for a Kick.
func Start(sync func(context.Context) error, report func(Status), o Options) *Runner {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.After == nil {
		o.After = time.After
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &Runner{sync: sync, report: report, now: o.Now, after: o.After,
		kick: make(chan struct{}, 1), stop: make(chan struct{}), done: make(chan struct{}), cancel: cancel}
	go r.loop(ctx)
	return r
}

// Kick asks for a sync. It never blocks.
func (r *Runner) Kick() {
	select {
	case r.kick <- struct{}{}:
	default: // one is asked for already
	}
}

// Stop makes a last sync, waits for it at most wait, and stops the runner.
// A sync cut short is completed by the next one.
func (r *Runner) Stop(wait time.Duration) {
	close(r.stop)
	select {
	case <-r.done:
	case <-r.after(wait):
		r.cancel()
		<-r.done
	}
}

// loop runs the syncs asked for.
func (r *Runner) loop(ctx context.Context) {
	defer close(r.done)
	var st Status
	backoff := time.Duration(0)
	var retry <-chan time.Time
	for {
		stopping := false
		select {
		case <-r.kick:
			if retry != nil {
				continue // the retry comes at its time
			}
		case <-retry:
		case <-r.stop:
			stopping = true
		}
		if stopping {
			// The last sync: once, whatever the backoff.
			r.once(ctx, &st)
			return
		}
		retry = nil
		if r.once(ctx, &st) {
			backoff = 0
			continue
		}
		backoff = min(max(2*backoff, firstBackoff), maxBackoff)
		retry = r.after(backoff)
	}
}

// once runs one sync, reporting its start and end, and says whether it
// succeeded.
func (r *Runner) once(ctx context.Context, st *Status) bool {
	st.Running = true
	r.report(*st)
	err := r.sync(ctx)
	st.Running = false
	if err != nil {
		st.Err = err.Error()
	} else {
		st.Err = ""
		st.Last = r.now()
	}
	r.report(*st)
	return err == nil
}
