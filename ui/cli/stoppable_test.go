package cli

import (
	"context"
	"errors"
	"io"
	"testing"
)

// enteredReader tells when a Read has begun, then reads r.
type enteredReader struct {
	r       io.Reader
	entered chan struct{}
}

func (e *enteredReader) Read(p []byte) (int, error) {
	close(e.entered)
	return e.r.Read(p)
}

// TestStoppableEndsAWaitingRead: ctrl+c during sessions import - ends the
// import while its read waits on standard input (a terminal, a pipe that
// sends nothing): the signal no longer ends muse, so the read must.
func TestStoppableEndsAWaitingRead(t *testing.T) {
	pr, pw := io.Pipe()
	defer pr.Close()
	in := &enteredReader{r: pr, entered: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	s := &stoppable{ctx: ctx, r: in}
	type result struct {
		n   int
		err error
	}
	done := make(chan result, 1)
	go func() {
		n, err := s.Read(make([]byte, 8))
		done <- result{n, err}
	}()
	<-in.entered // the read waits on the pipe
	cancel()
	go pw.Write([]byte("late")) // what comes after the stop is not read as input
	res := <-done
	if !errors.Is(res.err, context.Canceled) || res.n != 0 {
		t.Fatalf("Read after ctrl+c = %d, %v; want 0, context.Canceled", res.n, res.err)
	}
	if n, err := s.Read(make([]byte, 8)); n != 0 || !errors.Is(err, context.Canceled) {
		t.Fatalf("a second Read = %d, %v; want 0, context.Canceled", n, err)
	}
}

// TestStoppableReadsAsItsReader: until ctx ends, stoppable gives what its
// reader gives, the end included.
func TestStoppableReadsAsItsReader(t *testing.T) {
	pr, pw := io.Pipe()
	go func() {
		pw.Write([]byte("hello "))
		pw.Write([]byte("world"))
		pw.Close()
	}()
	got, err := io.ReadAll(&stoppable{ctx: context.Background(), r: pr})
	if err != nil || string(got) != "hello world" {
		t.Fatalf("ReadAll = %q, %v; want \"hello world\", nil", got, err)
	}
}
