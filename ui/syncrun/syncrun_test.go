package syncrun

import (
	"context"
	"errors"
	"testing"
	"time"
)

// fakeTimer hands out timer channels the test fires by hand, and records
// the durations asked for.
type fakeTimer struct {
	asked chan time.Duration
	fire  chan time.Time
}

func newFakeTimer() *fakeTimer {
	return &fakeTimer{asked: make(chan time.Duration, 16), fire: make(chan time.Time)}
}

func (f *fakeTimer) after(d time.Duration) <-chan time.Time {
	f.asked <- d
	return f.fire
}

// TestBackoffAndRecovery fails two syncs: each is retried after a doubled
// wait, kicks meanwhile wait for the retry, and a success reports no error.
func TestBackoffAndRecovery(t *testing.T) {
	results := make(chan error)
	statuses := make(chan Status, 16)
	ft := newFakeTimer()
	r := Start(func(context.Context) error { return <-results }, func(s Status) { statuses <- s }, Options{After: ft.after, Now: func() time.Time { return time.Unix(100, 0) }})
	r.Kick()
	if s := <-statuses; !s.Running {
		t.Fatalf("first status %+v", s)
	}
	results <- errors.New("remote unreachable")
	if s := <-statuses; s.Err != "remote unreachable" || s.Running {
		t.Fatalf("status %+v", s)
	}
	if d := <-ft.asked; d != 2*time.Second {
		t.Fatalf("first backoff %v", d)
	}
	r.Kick() // waits for the retry
	ft.fire <- time.Time{}
	<-statuses
	results <- errors.New("still unreachable")
	<-statuses
	if d := <-ft.asked; d != 4*time.Second {
		t.Fatalf("second backoff %v", d)
	}
	ft.fire <- time.Time{}
	<-statuses
	results <- nil
	if s := <-statuses; s.Err != "" || !s.Last.Equal(time.Unix(100, 0)) {
		t.Fatalf("status %+v", s)
	}
	done := make(chan struct{})
	go func() { r.Stop(time.Minute); close(done) }()
	<-statuses // the last sync, on Stop
	results <- nil
	<-statuses
	<-done
}

// TestKickNeverBlocks kicks many times while a sync runs: the chat screen
// never waits, and one more sync follows.
func TestKickNeverBlocks(t *testing.T) {
	results := make(chan error)
	statuses := make(chan Status, 64)
	r := Start(func(context.Context) error { return <-results }, func(s Status) { statuses <- s }, Options{})
	r.Kick()
	<-statuses
	for range 100 {
		r.Kick()
	}
	results <- nil
	<-statuses
	<-statuses // the one more, starting
	results <- nil
	<-statuses
	done := make(chan struct{})
	go func() { r.Stop(time.Minute); close(done) }()
	<-statuses
	results <- nil
	<-done
	if len(statuses) != 1 {
		t.Errorf("%d statuses left: more syncs than asked for", len(statuses))
	}
}

// TestStopGivesUp cancels a last sync that takes longer than the wait.
func TestStopGivesUp(t *testing.T) {
	ft := newFakeTimer()
	started := make(chan struct{})
	r := Start(func(ctx context.Context) error { close(started); <-ctx.Done(); return ctx.Err() }, func(Status) {}, Options{After: ft.after})
	done := make(chan struct{})
	go func() { r.Stop(time.Second); close(done) }()
	<-started
	if d := <-ft.asked; d != time.Second {
		t.Fatalf("waited %v", d)
	}
	ft.fire <- time.Time{}
	<-done
}
