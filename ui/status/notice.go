package status

import (
	"strings"

	"muse/theme"
	"muse/ui/sanitize"
	"muse/ui/textfmt"
)

// ShowsNotice says the status line shows the notice: nothing more
// pressing (a tool to approve, a reply or an image job under way) holds
// it.
func ShowsNotice(s State) bool {
	return s.Notice != "" && ToolPrompt(s.Ask) == "" && s.Turn == nil && s.Image == nil
}

// NoticeLines is the notice as the status line shows it: wrapped to the
// room the settings leave, on at most two lines, the second cut with "…"
// when there is more; nil when the status line does not show it. A second
// line goes on the row above the status line, never onto the key help.
func NoticeLines(s State) []string {
	if s.Notice != "" && ToolPrompt(s.Ask) == "" && (s.Turn != nil || s.Image != nil) {
		// The spinner keeps the status line: the notice goes on the row
		// above it, never hidden.
		return []string{textfmt.TruncateWidth(sanitize.Line(s.Notice), max(s.Width-1, 10)), ""}
	}
	if !ShowsNotice(s) {
		return nil
	}
	out, _ := settingsFit(settings(s), s.Width/3) // the room the settings keep: a third at most
	width := max(s.Width-1-textfmt.Width(out), 10)
	lines := strings.Split(textfmt.Wrap(sanitize.Line(s.Notice), width), "\n")
	if len(lines) > 2 {
		lines = []string{lines[0], textfmt.Truncate(strings.Join(lines[1:], " "), width, "…")}
	}
	return lines
}

// NoticeAbove is the first line of a notice of two, on the row above the
// status line; "" for a notice of one line.
func NoticeAbove(st *theme.Styles, s State) string {
	if l := NoticeLines(s); len(l) > 1 {
		return st.Warning.Render(l[0])
	}
	return ""
}

// NoticeHeight is how many rows the notice takes above the status line.
func NoticeHeight(s State) int {
	if len(NoticeLines(s)) > 1 {
		return 1
	}
	return 0
}
