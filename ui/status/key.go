package status

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"muse/session"
)

// Key is what the status line shows, before styling, to memoize it on.
// While a reply streams it changes with the spinner and the elapsed tenth
// of a second, so the line is drawn at most ~10 times a second however
// fast tokens arrive.
func Key(s State) string {
	b := make([]byte, 0, 128)
	b = strconv.AppendInt(b, int64(s.Width), 10)
	b = append(b, '|')
	b = append(b, s.Notice...)
	if s.FormKeys {
		b = append(b, "|form"...)
	}
	u := s.Usage
	for _, n := range []int{u.InputTokens, u.OutputTokens, u.CacheReadInputTokens, u.CacheCreationInputTokens, u.Uncounted} {
		b = append(b, '|')
		b = strconv.AppendInt(b, int64(n), 10)
	}
	b = append(b, '|')
	b = append(b, s.Meter.View()...)
	b = append(b, '|')
	b = append(b, s.Approve.Long...)
	b = append(b, '|')
	b = append(b, s.LastStop...)
	b = append(b, s.LastErr...)
	b = append(b, ToolPrompt(s.Ask)...)
	b = append(b, s.SaveErr...)
	b = append(b, syncView(s.Sync)...)
	b = append(b, '|')
	b = append(b, paramsKey(s.Params)...)
	b = append(b, '|')
	b = append(b, s.Branches...)
	if sel := s.Selected; sel != nil {
		b = append(b, '|')
		b = strconv.AppendInt(b, int64(sel.Index), 10)
		b = strconv.AppendInt(b, int64(sel.Count), 10)
		b = append(b, sel.Entry.ID...)
		b = append(b, sel.Of...)
	}
	if j := s.Image; j != nil {
		b = append(b, '|')
		b = append(b, s.Spinner...)
		b = append(b, j.Phase...)
		b = strconv.AppendInt(b, int64(s.Now.Sub(j.Started)/(100*time.Millisecond)), 10)
		b = strconv.AppendInt(b, j.Done, 10)
		b = strconv.AppendInt(b, j.Total, 10)
	}
	if t := s.Turn; t != nil {
		b = append(b, '|')
		b = append(b, s.Spinner...)
		b = strconv.AppendInt(b, int64(s.Now.Sub(t.Started)/(100*time.Millisecond)), 10)
		b = append(b, t.Retry...)
		if t.Retry != "" {
			b = append(b, RetryText(t.RetryAt, s.Now, t.RetryAttempt)...)
		}
		b = append(b, t.Running...)
		b = append(b, t.Progress...)
		b = strconv.AppendBool(b, t.Streaming)
		b = strconv.AppendBool(b, t.Cancelled)
	}
	return string(b)
}

// paramsKey is the settings, and the image model of /image, as text.
func paramsKey(p session.Params) string {
	var b strings.Builder
	fmt.Fprint(&b, p.Model, p.MaxTokens, p.System != "", p.StopSequences, p.ThinkingBudget, p.Thinking, p.Effort, p.Image, p.ToolChoice)
	for _, f := range []*float64{p.Temperature, p.TopP} {
		if f != nil {
			fmt.Fprint(&b, *f)
		}
		b.WriteByte('|')
	}
	if p.TopK != nil {
		fmt.Fprint(&b, *p.TopK)
	}
	return b.String()
}
