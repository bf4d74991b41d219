package ui

import (
	"fmt"
	"strings"

	"muse/api"
	"muse/session"
	"muse/ui/meter"
	"muse/ui/textfmt"
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
		b.WriteString("last reply: " + tally(u.InputTokens, out, u.CacheReadInputTokens, u.CacheCreationInputTokens))
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
		least := fmt.Sprintf("at least %d", u.OutputTokens)
		if u.OutputTokens == 0 {
			least = "not counted" // "at least 0" reads as nothing
		}
		out = fmt.Sprintf("%s (%s not counted: ended before the server's final count)", least, textfmt.Plural(u.Uncounted, "reply"))
	}
	b.WriteString("session: " + tally(u.InputTokens, out, u.CacheReadInputTokens, u.CacheCreationInputTokens))
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

// tally is the token counts of /info. Each label is bound to its figure
// by no-break spaces, so a narrow terminal breaks the line between the
// counts, never between "cache write" and its number.
func tally(in int, out string, cacheRead, cacheWrite int) string {
	pair := func(label, figure string) string {
		return strings.ReplaceAll(label, " ", nbsp) + nbsp + figure
	}
	return strings.Join([]string{
		pair("in", fmt.Sprint(in)),
		pair("out", out),
		pair("cache read", fmt.Sprint(cacheRead)),
		pair("cache write", fmt.Sprint(cacheWrite)),
	}, " · ")
}

// nbsp is the no-break space: a wrap does not break a line at it.
const nbsp = "\u00a0"

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
