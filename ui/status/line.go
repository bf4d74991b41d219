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

// View is the status line. What is happening, and the key that stops it,
// are said at every width; the rest of the line goes to what matters most
// first: a failure or a full context, the settings that change what is
// sent (the model first, in short forms when narrow), the context's share
// of the window, then details (a rate, a tool's progress, the branches).
// A part is whole or left out, never cut in its middle ("stop end…"); a
// setting likewise ("demo-ch…" names no model). A notice, a selection
// and an unsaved session keep their whole line, the settings in the room
// they leave.
func (m Model) View(st *theme.Styles, s State) string {
	busy := ToolPrompt(s.Ask) != "" || s.Turn != nil || s.Image != nil
	switch {
	case !busy && ShowsNotice(s): // the notice first, the settings in the room it leaves
		l := m.NoticeLines(s)
		return fit(st.Warning.Render(l[len(l)-1]), st.StatusKey.Render(noticeRight(s, l)), s.Width)
	case !busy && (s.Selected != nil || s.SaveErr != ""):
		left := st.ErrorText.Render("session not saved: " + sanitize.Line(s.SaveErr))
		if s.Selected != nil {
			left = selectedView(st, *s.Selected)
		}
		right := settingsFit(settings(s), s.Width-textfmt.Width(left)-gap)
		return fit(left, st.StatusKey.Render(right), s.Width)
	}
	var parts []part
	switch tool := ToolPrompt(s.Ask); {
	case tool != "":
		forms := []form{{text: st.Warning.Render(tool), prio: prioMinor}}
		for _, t := range shortToolPrompts(s.Ask) {
			forms = append(forms, form{text: st.Warning.Render(t), prio: prioMinor})
		}
		parts = []part{{forms: forms, must: true}}
	case s.Turn != nil:
		parts = turnParts(st, s)
	case s.Image != nil:
		parts = imageParts(st, s)
	default:
		parts = idleParts(st, s)
	}
	return layout(s.Width, parts, rightSettings(s), st.StatusKey.Render)
}

// The priorities of the parts of the status line, highest first.
const (
	prioKey     = 12 // "esc cancels" whole, not just "esc"
	prioAlert   = 11 // a failure, an unusual stop, a context nearly full
	prioFirst   = 10 // the first setting: the approval mode, else the model (the header names it too)
	prioModel   = 9  // the model beside the approval mode
	prioSetting = 8  // the other settings that change what is sent
	prioMeter   = 7  // the context's share of the window; a running tool's whole name; why a retry waits
	prioRetry   = 6  // a retry's countdown in whole words, with its attempt
	prioImage   = 5  // the image model, beside a chat
	prioDetail  = 4  // a tool's or a download's progress; a failure's circumstances
	prioMinor   = 3  // the branches, a stop at the turn's end, a tool prompt's words
	prioLeast   = 1  // the rate, the cache, the sync, the word "tokens"
)

// rightSettings is the settings of s with the priority of their room:
// while an image is made, the image model first.
func rightSettings(s State) []setting {
	list := settings(s)
	out := make([]setting, len(list))
	for i, x := range list {
		image := i == len(list)-1 && s.ImageParams.Model != ""
		model := i == 0 || i == 1 && s.Approve.Long != ""
		out[i] = setting{Setting: x, prio: prioSetting, alone: model || image}
		switch {
		case s.Image != nil && image:
			out[i].prio = prioFirst
		case s.Image != nil:
			out[i].prio = prioMinor
		case i == 0:
			out[i].prio = prioFirst
		case model:
			out[i].prio = prioModel
		case image:
			out[i].prio = prioImage
		}
	}
	return out
}

// one is a part of one form.
func one(text string, prio int) part { return part{forms: []form{{text: text, prio: prio}}} }

// esc ends the line while something can be cancelled: " · esc cancels",
// or " · esc" on a line too narrow for it; " · esc declines" while an MCP
// server's form has the keys, since esc then answers the form.
func esc(st *theme.Styles, declines bool) part {
	text := " · esc cancels"
	if declines {
		text = " · esc declines"
	}
	return part{forms: []form{{text: st.Subtle.Render(text), prio: prioKey}, {text: st.Subtle.Render(" · esc")}}, must: true}
}

// turnParts are the line's parts while a reply is in flight: what it
// does, for how long, and "esc cancels", said at every width.
func turnParts(st *theme.Styles, s State) []part {
	t := s.Turn
	switch {
	case t.Running != "":
		head := s.Spinner + " " + st.StatusValue.Render("running tool "+sanitize.Line(t.Running))
		parts := []part{{forms: []form{{text: head, prio: prioMeter}, {text: head, cut: true}}, must: true}}
		if t.Progress != "" {
			parts = append(parts, one(st.StatusValue.Render(" · "+sanitize.Line(t.Progress)), prioDetail))
		}
		return append(parts, esc(st, s.FormKeys))
	case t.Retry != "" && !t.Cancelled:
		// Nothing streams while a retry waits: say what it waits for.
		return []part{
			{forms: []form{{text: s.Spinner + " " + st.StatusValue.Render(RetryText(t.RetryAt, s.Now, t.RetryAttempt)), prio: prioRetry},
				{text: s.Spinner + " " + st.StatusValue.Render(retryShort(t.RetryAt, s.Now))}}, must: true},
			one(st.Warning.Render(" · "+sanitize.Line(t.Retry)), prioMeter),
			esc(st, s.FormKeys),
		}
	}
	elapsed := s.Now.Sub(t.Started)
	what := "streaming"
	switch {
	case t.Cancelled:
		what = "cancelling"
	case !t.Streaming:
		what = "waiting"
	}
	parts := []part{{forms: []form{{text: s.Spinner + " " + st.StatusValue.Render(what) + st.Muted.Render(" "+formatElapsed(elapsed))}}, must: true}}
	if rate := rateText(t.Tokens, elapsed); rate != "" {
		parts = append(parts, one(st.Muted.Render(" · "+rate), prioLeast))
	}
	return append(parts, esc(st, s.FormKeys))
}

// imageParts are the line's parts while an image is made: its phase, for
// how long, how much of it came, and "esc cancels".
func imageParts(st *theme.Styles, s State) []part {
	j := s.Image
	parts := []part{{forms: []form{{text: s.Spinner + " " + st.StatusValue.Render(j.Phase) + st.Muted.Render(" "+formatElapsed(s.Now.Sub(j.Started)))}}, must: true}}
	if j.Total > 0 {
		parts = append(parts, one(" "+s.Progress(float64(j.Done)/float64(j.Total)), prioDetail))
	} else if j.Done > 0 {
		parts = append(parts, one(st.Muted.Render(fmt.Sprintf(" %d KiB", j.Done>>10)), prioDetail))
	}
	return append(parts, esc(st, s.FormKeys))
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

// idleParts are the line's parts when nothing else holds it: the
// tokens, the context window, the cache, the last stop or failure, the
// branches and the sync.
func idleParts(st *theme.Styles, s State) []part {
	u := s.Usage
	out := fmt.Sprint(u.OutputTokens)
	switch {
	case u.Uncounted > 0 && u.OutputTokens == 0:
		out = "not counted" // "0+" reads as nothing
	case u.Uncounted > 0:
		out += "+" // the least: the output of a reply the server never counted is left out
	}
	tokens := st.StatusValue.Render(fmt.Sprintf("in %d out %s", u.InputTokens, out))
	parts := []part{{forms: []form{{text: st.StatusKey.Render("tokens ") + tokens, prio: prioLeast}, {text: tokens}}, must: true}}
	if s.Meter.Warns() {
		parts = append(parts, one(st.StatusKey.Render(" · ")+st.Warning.Render(s.Meter.View()), prioAlert))
	} else if v := s.Meter.View(); v != "" {
		parts = append(parts, one(st.StatusKey.Render(" · ")+st.StatusValue.Render(v), prioMeter))
	}
	if c := u.CacheReadInputTokens + u.CacheCreationInputTokens; c > 0 {
		parts = append(parts, one(st.StatusValue.Render(fmt.Sprintf(" cache %d", c)), prioLeast))
	}
	switch {
	case s.LastErr != "":
		var forms []form
		for i, f := range failureForms(sanitize.Line(s.LastErr)) {
			prio := prioAlert
			if i == 0 {
				prio = prioDetail // the failure's circumstances, after the settings
			}
			forms = append(forms, form{text: st.ErrorText.Render(" · ✗ " + f), prio: prio})
		}
		parts = append(parts, part{forms: forms})
	case s.LastStop != "":
		prio := prioAlert // max_tokens, refusal…: the reply is not whole
		if s.LastStop == "end_turn" {
			prio = prioMinor
		}
		parts = append(parts, one(st.StatusKey.Render(" · stop ")+st.StatusValue.Render(sanitize.Line(s.LastStop)), prio))
	}
	if b := s.Branches; b != "" {
		parts = append(parts, one(st.StatusKey.Render(" · ")+st.StatusValue.Render(b), prioMinor))
	}
	if v := syncView(s.Sync); s.Sync.Err != "" {
		parts = append(parts, part{forms: []form{{text: st.ErrorText.Render(v), prio: prioDetail}, {text: st.ErrorText.Render(" · sync ✗"), prio: prioAlert}}})
	} else if v != "" {
		parts = append(parts, one(st.StatusValue.Render(v), prioLeast))
	}
	return parts
}

// shortToolPrompts are ToolPrompt in fewer words, shortest last, for a
// narrow line: the key line under the input says which keys answer.
func shortToolPrompts(a Ask) []string {
	name := sanitize.Line(a.Name)
	switch {
	case a.Result && a.HasCommand:
		return []string{"type why " + name + " should not run, or esc", "type why not, or esc"}
	case a.Result:
		return []string{"type the result of " + name + " below", "type its result below"}
	case a.PasteRefused:
		return []string{"answer not taken, right behind a paste: press it again", "not taken (pasted): press it again"}
	}
	return []string{"tool " + name + " waits"}
}

// failureForms are the ways to say the last failure, longest first:
// "failed: overloaded_error (in the stream, after HTTP 200)", "failed:
// overloaded_error", "overloaded_error", and "failed".
func failureForms(text string) []string {
	forms := []string{text}
	add := func(f string) {
		if f = strings.TrimSpace(f); f != "" && f != forms[len(forms)-1] {
			forms = append(forms, f)
		}
	}
	if before, _, ok := strings.Cut(text, " ("); ok {
		add(before)
	}
	if name, ok := strings.CutPrefix(forms[len(forms)-1], "failed: "); ok {
		add(name)
		add("failed")
	}
	return forms
}
