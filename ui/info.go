package ui

import (
	"fmt"
	"strings"

	"muse/api"
	"muse/session"
	"muse/ui/meter"
)

// infoText is what /info shows: the usage of the last reply of es and of
// the session, the cost and the context window of mt, the last notices
// and the settings p.
func infoText(es []session.Entry, usage session.Usage, mt meter.Model, notices string, p session.Params) string {
	a := lastIndex(es, session.KindAssistant)
	var b strings.Builder
	if a >= 0 && es[a].Message != nil {
		e := es[a]
		u := e.Message.Usage
		out := fmt.Sprint(u.OutputTokens)
		if !session.Counted(e.Message) {
			out = "not counted (" + uncountedWhy(e) + ")"
		}
		fmt.Fprintf(&b, "last reply: in %d · out %s · cache read %d · cache write %d", u.InputTokens, out, u.CacheReadInputTokens, u.CacheCreationInputTokens)
		if e.LatencyMS > 0 {
			fmt.Fprintf(&b, " · %.1fs", float64(e.LatencyMS)/1000)
		}
		if s := e.Message.StopReason; s != "" {
			fmt.Fprintf(&b, " · stop %s", s)
		}
		if e.Message.Model != "" {
			fmt.Fprintf(&b, " · %s", e.Message.Model)
		}
		if e.RequestID != "" {
			fmt.Fprintf(&b, " · request %s", e.RequestID)
		}
		b.WriteString("\n")
	} else {
		b.WriteString("no reply yet\n")
	}
	u := usage
	out := fmt.Sprint(u.OutputTokens)
	if u.Uncounted > 0 {
		replies := fmt.Sprintf("%d replies", u.Uncounted)
		if u.Uncounted == 1 {
			replies = "1 reply"
		}
		out = fmt.Sprintf("at least %d (%s not counted: ended before the server's final count)", u.OutputTokens, replies)
	}
	fmt.Fprintf(&b, "session: in %d · out %s · cache read %d · cache write %d", u.InputTokens, out, u.CacheReadInputTokens, u.CacheCreationInputTokens)
	if c := mt.Cost(); c != "" {
		b.WriteString("\n" + c)
	}
	b.WriteString("\n" + mt.Context())
	if notices != "" {
		b.WriteString("\n" + notices)
	}
	fmt.Fprintf(&b, "\nsettings: model %s · max_tokens %d%s", p.Model, p.MaxTokens, optionalParams(p))
	return b.String()
}

// uncountedWhy says why the server never counted the output of the reply
// e (see session.Counted).
func uncountedWhy(e session.Entry) string {
	switch {
	case e.Status == session.StatusCancelled:
		return "cancelled before the server's final count"
	case e.Message.StopReason == api.StopSizeLimit:
		return "cut at the size limit before the server's final count"
	}
	return "broken off before the server's final count"
}

// optionalParams lists the optional settings that are set.
func optionalParams(p session.Params) string {
	var b strings.Builder
	if p.Temperature != nil {
		fmt.Fprintf(&b, " · temperature %g", *p.Temperature)
	}
	if p.TopP != nil {
		fmt.Fprintf(&b, " · top_p %g", *p.TopP)
	}
	if p.TopK != nil {
		fmt.Fprintf(&b, " · top_k %d", *p.TopK)
	}
	if len(p.StopSequences) > 0 {
		fmt.Fprintf(&b, " · stop %q", p.StopSequences)
	}
	if p.System != "" {
		b.WriteString(" · system prompt set")
	}
	return b.String()
}
