package waitfor

import (
	"errors"
	"fmt"
	"os"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// until waits on inotify for changes in dir, checking ok after each, until ok holds, ended is closed, or limit has passed.
func until(dir string, ended <-chan struct{}, limit time.Duration, ok func() bool) error {
	fd, err := syscall.InotifyInit1(syscall.IN_NONBLOCK | syscall.IN_CLOEXEC)
	if err != nil {
		return fmt.Errorf("inotify: %w", err)
	}
	// Non-blocking, so the runtime's poller serves it and deadlines work.
	notices := os.NewFile(uintptr(fd), "inotify")
	defer notices.Close()
	const changes = syscall.IN_CREATE | syscall.IN_MODIFY | syscall.IN_CLOSE_WRITE | syscall.IN_MOVED_TO | syscall.IN_DELETE
	if _, err := syscall.InotifyAddWatch(fd, dir, changes); err != nil {
		return fmt.Errorf("watch %s: %w", dir, err)
	}
	// The watch is in place before the first look: a change after it is
	// queued, and wakes the read below.
	if err := notices.SetReadDeadline(time.Now().Add(limit)); err != nil {
		return err
	}
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		select {
		case <-ended:
			notices.SetReadDeadline(time.Unix(1, 0)) // wakes the read at once
		case <-stop:
		}
	}()
	buf := make([]byte, 64<<10)
	for !ok() {
		if _, err := notices.Read(buf); err != nil {
			select {
			case <-ended:
				if ok() { // its last change came with its end
					return nil
				}
				return errEnded
			default:
			}
			if errors.Is(err, os.ErrDeadlineExceeded) {
				return fmt.Errorf("no change brought it within %v (a watchdog, scaled by load)", limit)
			}
			return fmt.Errorf("read inotify: %w", err)
		}
	}
	return nil
}

// exit waits on a pidfd of pid, which becomes readable when pid ends.
func exit(pid int, limit time.Duration) error {
	fd, err := unix.PidfdOpen(pid, 0)
	if errors.Is(err, unix.ESRCH) {
		return nil // gone already
	}
	if err != nil {
		return fmt.Errorf("pidfd_open: %w", err)
	}
	defer unix.Close(fd)
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	for {
		n, err := unix.Poll(fds, int(limit.Milliseconds()))
		switch {
		case errors.Is(err, unix.EINTR):
			continue
		case err != nil:
			return fmt.Errorf("poll a pidfd: %w", err)
		case n == 0:
			return fmt.Errorf("still runs after %v (a watchdog, scaled by load)", limit)
		}
		return nil
	}
}
