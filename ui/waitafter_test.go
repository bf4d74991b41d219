package ui

import (
	"bytes"
	"testing"

	"github.com/charmbracelet/x/exp/teatest"
)

// waitAfter waits until the screen has drawn then after it drew first, in
// one wait: a turn that starts and ends between two reads of the output is
// still seen in order, and a then drawn before first (an earlier turn's
// status line, redrawn) does not count.
func waitAfter(t *testing.T, tm *teatest.TestModel, first, then string) {
	t.Helper()
	onScreen(t, tm, func(b []byte) bool {
		i := bytes.Index(b, []byte(first))
		return i >= 0 && bytes.Contains(b[i+len(first):], []byte(then))
	})
}
