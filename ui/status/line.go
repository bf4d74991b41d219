package status

import (
	"fmt"
	"strings"

	"muse/session"
	"muse/theme"
	"muse/ui/sanitize"
	"muse/ui/textfmt"
)

// ToolPrompt is the status line while a tool call waits for approval or
// for a typed result; "" when none waits.
func ToolPrompt(a Ask) string {
	switch {
	case a.Result:
		// muse waits for the person, not the service: no rate, no clock.
		if a.HasCommand {
			return "waiting for you: type why " + sanitize.Line(a.Name) + " should not run, or esc"
		}
		return "waiting for you: type the result of " + sanitize.Line(a.Name) + " below"
	case !a.Approval:
		return ""
	case a.PasteRefused:
		return "an answer right behind a paste is not taken: press it again"
	}
	return "tool " + sanitize.Line(a.Name) + " waits for your answer"
}

// Header is the line at the top: muse, the session's title and the model.
func Header(st *theme.Styles, width int, title, model string) string {
	if title == "" {
		title = "new session"
	}
	left := st.HeaderTitle.Render("muse") + st.Muted.Render(" · ") + st.HeaderTitle.Render(sanitize.Line(title))
	right := st.HeaderModel.Render(sanitize.Line(model))
	return fit(left, right, width)
}

// View is the status line. The settings that change what is sent keep
// their room, in short forms when narrow, and what is left of the line is
// cut to fit; only a notice, a tool waiting for the user, a selection and
// an unsaved session keep their whole line.
func View(st *theme.Styles, s State) string {
	tool := ToolPrompt(s.Ask)
	var left string
	keepLeft := tool != "" || s.Selected != nil || s.SaveErr != ""
	switch {
	case tool != "":
		left = st.Warning.Render(tool)
	case s.Turn != nil:
		left = turnView(st, s)
	case s.Image != nil:
		j := s.Image
		left = s.Spinner + " " + st.StatusValue.Render(j.Phase) + st.Muted.Render(" "+formatElapsed(s.Now.Sub(j.Started)))
		if j.Total > 0 {
			left += " " + s.Progress(float64(j.Done)/float64(j.Total))
		} else if j.Done > 0 {
			left += st.Muted.Render(fmt.Sprintf(" %d KiB", j.Done>>10))
		}
		left += st.Subtle.Render(" · esc cancels")
	case ShowsNotice(s): // the notice first, the settings in the room it leaves
		l := NoticeLines(s)
		return fit(st.Warning.Render(l[len(l)-1]), st.StatusKey.Render(noticeRight(s, l)), s.Width)
	case s.Selected != nil:
		left = selectedView(st, *s.Selected)
	case s.SaveErr != "":
		left = st.ErrorText.Render("session not saved: " + sanitize.Line(s.SaveErr))
	default:
		left = idleView(st, s)
	}
	lw := textfmt.Width(left)
	list := settings(s)
	right, all := settingsFit(list, max(s.Width-lw-gap, 0))
	if !all && !keepLeft {
		// As little as the short forms need, a quarter of the line at most.
		right, _ = settingsFit(list, min(shortWidth(list), max(s.Width-min(lw, s.Width/4)-gap, 0)))
	}
	return fit(left, st.StatusKey.Render(right), s.Width)
}

// turnView is the line's left part while a reply is in flight.
func turnView(st *theme.Styles, s State) string {
	t := s.Turn
	switch {
	case t.Running != "":
		left := s.Spinner + " " + st.StatusValue.Render("running tool "+sanitize.Line(t.Running))
		if t.Progress != "" {
			left += st.StatusValue.Render(" · " + t.Progress)
		}
		return left + st.Subtle.Render(" · esc cancels")
	case t.Retry != "" && !t.Cancelled:
		// Nothing streams while a retry waits: say what it waits for.
		return s.Spinner + " " + st.StatusValue.Render(RetryText(t.RetryAt, s.Now, t.RetryAttempt)) +
			st.Warning.Render(" · "+sanitize.Line(t.Retry)) + st.Subtle.Render(" · esc cancels")
	}
	elapsed := s.Now.Sub(t.Started)
	what := "streaming"
	switch {
	case t.Cancelled:
		what = "cancelling"
	case !t.Streaming:
		what = "waiting"
	}
	left := s.Spinner + " " + st.StatusValue.Render(what) + st.Muted.Render(" "+formatElapsed(elapsed))
	if rate := rateText(t.Tokens, elapsed); rate != "" {
		left += st.Muted.Render(" · " + rate)
	}
	return left + st.Subtle.Render(" · esc cancels")
}

// selectedView is the line's left part in selection mode: the message and
// what its keys do.
func selectedView(st *theme.Styles, sel Selected) string {
	left := st.StatusValue.Render(fmt.Sprintf("selected: %s, %d of %d", sel.Name, sel.Index+1, sel.Count))
	if sel.Of != "" {
		left += st.StatusValue.Render(" · branch " + sel.Of)
	}
	switch sel.Entry.Kind {
	case session.KindUser:
		left += st.Subtle.Render(" · e edits it · y copies it")
		if len(sel.Entry.Attachments) > 0 {
			left += st.Subtle.Render(" · a attaches its files again")
		}
	case session.KindAssistant:
		left += st.Subtle.Render(" · r regenerates it · y copies it")
	case session.KindImage:
		left += st.Subtle.Render(" · a attaches it · r generates it again · y copies its prompt")
	default:
		left += st.Subtle.Render(" · y copies it · c its code")
	}
	return left
}

// idleView is the line's left part when nothing else holds it: the
// tokens, the context window, the cache, the last stop or failure, the
// branches and the sync.
func idleView(st *theme.Styles, s State) string {
	u := s.Usage
	left := st.StatusValue.Render(fmt.Sprintf("in %d out %d", u.InputTokens, u.OutputTokens))
	if textfmt.Width(tail(s))+16 < s.Width-textfmt.Width(strings.Join(long(settings(s)), " · ")) {
		left = st.StatusKey.Render("tokens ") + left // room for the label
	}
	if s.Meter.Warns() {
		left += st.StatusKey.Render(" · ") + st.Warning.Render(s.Meter.View())
	} else if v := s.Meter.View(); v != "" {
		left += st.StatusKey.Render(" · ") + st.StatusValue.Render(v)
	}
	if c := u.CacheReadInputTokens + u.CacheCreationInputTokens; c > 0 {
		left += st.StatusValue.Render(fmt.Sprintf(" cache %d", c))
	}
	switch {
	case s.LastErr != "":
		left += st.ErrorText.Render(" · ✗ " + sanitize.Line(s.LastErr))
	case s.LastStop != "":
		left += st.StatusKey.Render(" · stop ") + st.StatusValue.Render(sanitize.Line(s.LastStop))
	}
	if b := s.Branches; b != "" {
		left += st.StatusKey.Render(" · ") + st.StatusValue.Render(b)
	}
	if v := syncView(s.Sync); s.Sync.Err != "" {
		left += st.ErrorText.Render(v)
	} else if v != "" {
		left += st.StatusValue.Render(v)
	}
	return left
}

// tail is what the idle status line says after the tokens: the failure or
// the stop, and the branches, as plain text.
func tail(s State) string {
	var b strings.Builder
	if c := s.Usage.CacheReadInputTokens + s.Usage.CacheCreationInputTokens; c > 0 {
		fmt.Fprintf(&b, " cache %d", c)
	}
	switch {
	case s.LastErr != "":
		b.WriteString(" · ✗ " + s.LastErr)
	case s.LastStop != "":
		b.WriteString(" · stop " + s.LastStop)
	}
	if br := s.Branches; br != "" {
		b.WriteString(" · " + br)
	}
	if v := s.Meter.View(); v != "" {
		b.WriteString(" · " + v)
	}
	b.WriteString(syncView(s.Sync))
	return b.String()
}
