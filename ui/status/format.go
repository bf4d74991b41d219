package status

import (
	"fmt"
	"math"
	"strings"
	"time"

	"muse/ui/sanitize"
	"muse/ui/syncrun"
	"muse/ui/textfmt"
)

// gap is the fewest blanks between a line's left and right parts, so
// that they never read as one ("stop end_turn approve all").
const gap = 2

// fit places left and right on one line of width, at least gap apart,
// cutting left to leave right its room, or dropping right if even then it
// does not fit. Without a right part, left has the whole line.
func fit(left, right string, width int) string {
	lw, rw := textfmt.Width(left), textfmt.Width(right)
	if rw == 0 {
		left = textfmt.Truncate(left, width, "…")
		return left + strings.Repeat(" ", max(width-textfmt.Width(left), 0))
	}
	if lw+rw+gap > width && width-rw-gap >= 8 {
		left = textfmt.Truncate(left, width-rw-gap, "…")
		lw = textfmt.Width(left)
	}
	if lw+rw+gap > width {
		return textfmt.Truncate(left, width, "…")
	}
	return left + strings.Repeat(" ", width-lw-rw) + right
}

// RetryText says when the request waits to be retried, at at, in whole
// seconds counted down from now.
func RetryText(at, now time.Time, attempt int) string {
	secs := int(math.Ceil(at.Sub(now).Seconds()))
	if secs < 1 {
		return fmt.Sprintf("retrying now (attempt %d)…", attempt)
	}
	return fmt.Sprintf("waiting to retry in %ds (attempt %d)…", secs, attempt)
}

// retryShort is RetryText in fewer words, for a narrow line.
func retryShort(at, now time.Time) string {
	if secs := int(math.Ceil(at.Sub(now).Seconds())); secs >= 1 {
		return fmt.Sprintf("retry in %ds", secs)
	}
	return "retrying now"
}

// rateText is the streaming speed, once there is enough to measure.
func rateText(tokens int, elapsed time.Duration) string {
	if secs := elapsed.Seconds(); secs > 0.5 && tokens > 0 {
		return fmt.Sprintf("%.0f tok/s", float64(tokens)/secs)
	}
	return ""
}

func formatElapsed(d time.Duration) string {
	if d < time.Minute {
		return fmt.Sprintf("%.1fs", d.Seconds())
	}
	return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
}

// syncView is the status line's part about the background sync: "" until
// the first sync starts.
func syncView(s syncrun.Status) string {
	switch {
	case s.Running:
		return " · syncing"
	case s.Err != "":
		return " · sync ✗ " + sanitize.Line(s.Err)
	case !s.Last.IsZero():
		return " · synced " + s.Last.Local().Format("15:04")
	}
	return ""
}
