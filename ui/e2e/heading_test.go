package e2e

import (
	"strconv"
	"strings"
)

// waitForHeading waits until the screen shows title as the heading a demo
// reply starts with: a line of its own right under the assistant's label.
// Replies draw headings without their "#" marks, so the prompt the reply
// echoes is told from the heading by where it stands.
func (tm *term) waitForHeading(title string) {
	tm.t.Helper()
	tm.waitUntil("the reply's heading "+strconv.Quote(title), waitDeadline, func(s string) bool { return showsHeading(s, title) })
}

// showsHeading reports whether screen has title alone on a line under a
// line that starts with the assistant's label.
func showsHeading(screen, title string) bool {
	lines := strings.Split(screen, "\n")
	for i := 1; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) == title && strings.HasPrefix(strings.TrimSpace(lines[i-1]), "assistant") {
			return true
		}
	}
	return false
}
