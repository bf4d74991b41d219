package status

import (
	"fmt"
	"strconv"
	"strings"

	"muse/api"
	"muse/ui/sanitize"
	"muse/ui/textfmt"
)

// Setting is one setting the status bar shows, in a long and a short
// form.
type Setting struct{ Long, Short string }

// settings is the model and the settings that are set, those that change
// what is sent first.
func settings(s State) []Setting {
	p := s.Params
	model := sanitize.Line(p.Model)
	list := []Setting{{model, model}}
	if s.Approve.Long != "" { // said all the while it is on, first
		list = []Setting{s.Approve, {model, model}}
	}
	switch {
	case p.Thinking != "":
		long := strings.TrimSpace("think " + p.Thinking + " " + p.Effort)
		list = append(list, Setting{long, strings.TrimSpace("θ " + p.Effort)})
	case p.ThinkingBudget > 0:
		list = append(list, Setting{fmt.Sprintf("think %d", p.ThinkingBudget), "θ" + kilo(p.ThinkingBudget)})
	}
	if p.MaxTokens != 0 && p.MaxTokens != api.DefaultMaxTokens {
		list = append(list, Setting{fmt.Sprintf("max %d", p.MaxTokens), "max" + kilo(p.MaxTokens)})
	}
	if p.Temperature != nil {
		list = append(list, Setting{fmt.Sprintf("temp %g", *p.Temperature), fmt.Sprintf("t%g", *p.Temperature)})
	}
	if p.TopP != nil {
		list = append(list, Setting{fmt.Sprintf("top-p %g", *p.TopP), fmt.Sprintf("p%g", *p.TopP)})
	}
	if p.TopK != nil {
		list = append(list, Setting{fmt.Sprintf("top-k %d", *p.TopK), fmt.Sprintf("k%d", *p.TopK)})
	}
	if p.ToolChoice != "" {
		tc := sanitize.Line(p.ToolChoice)
		list = append(list, Setting{"tools:" + tc, "tc:" + tc})
	}
	if n := len(p.StopSequences); n > 0 {
		list = append(list, Setting{fmt.Sprintf("stop %d", n), fmt.Sprintf("stop%d", n)})
	}
	if p.System != "" {
		list = append(list, Setting{"system", "sys"})
	}
	if ip := s.ImageParams; ip.Model != "" {
		img := "img " + sanitize.Line(ip.Model)
		if ip.Size != "" {
			img += " " + sanitize.Line(ip.Size)
		}
		if ip.NegativePrompt != "" {
			img += " -neg"
		}
		if ip.PromptExtend != nil {
			img += " extend:" + textfmt.OnOff(*ip.PromptExtend)
		}
		if ip.Watermark != nil {
			img += " wm:" + textfmt.OnOff(*ip.Watermark)
		}
		list = append(list, Setting{img, "img " + sanitize.Line(ip.Model)})
	}
	return list
}

// kilo writes n in thousands when it is a whole number of them (8000 is
// 8k), else as it is.
func kilo(n int) string {
	if n >= 1000 && n%1000 == 0 {
		return strconv.Itoa(n/1000) + "k"
	}
	return strconv.Itoa(n)
}

// settingsFit is the settings of list in room columns: in long forms if
// all fit, else in short ones, as many as fit, those that change what is
// sent first. Each is whole or left out:
// a model cut to "demo-ch…" names no model. When the first (the approval
// mode, else the model) does not fit, none is shown.
func settingsFit(list []Setting, room int) (out string) {
	if out := strings.Join(long(list), " · "); textfmt.Width(out) <= room {
		return out
	}
	if len(list) == 0 || textfmt.Width(list[0].Short) > room {
		return ""
	}
	for _, s := range list {
		next := s.Short
		if out != "" {
			next = out + " " + s.Short
		}
		if textfmt.Width(next) <= room {
			out = next
		}
	}
	return out
}

// long is the settings of list in their long forms.
func long(list []Setting) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = s.Long
	}
	return out
}
