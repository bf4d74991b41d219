package page

import (
	"html"
	"strconv"
	"strings"
	"time"

	"muse/session"
	"muse/session/transcript"
	"muse/ui/textfmt"
)

// stamp formats a time of the page, in UTC, in a <time> element.
func stamp(t time.Time) string {
	t = t.UTC()
	return `<time datetime="` + t.Format(time.RFC3339) + `">` + t.Format("2006-01-02 15:04 UTC") + "</time>"
}

// fact writes one fact of the header; value is HTML.
func (p *writer) fact(name, value string) {
	p.str("<div><dt>" + name + "</dt><dd>" + value + "</dd></div>\n")
}

func (p *writer) header(title string) {
	p.str("<header class=\"page-head\">\n<h1>" + html.EscapeString(title) + "</h1>\n<dl class=\"facts\">\n")
	if models := p.models(); len(models) > 0 {
		name := "Model"
		if len(models) > 1 {
			name = "Models"
		}
		p.fact(name, p.esc(strings.Join(models, ", ")))
	}
	created, updated := transcript.Times(p.sess)
	if !created.IsZero() {
		p.fact("Started", stamp(created))
	}
	if !updated.IsZero() && !updated.Equal(created) {
		p.fact("Updated", stamp(updated))
	}
	msgs := 0
	for _, e := range p.sess.Entries {
		switch e.Kind {
		case session.KindUser, session.KindAssistant, session.KindImage:
			msgs++
		}
	}
	count := strconv.Itoa(msgs)
	if n := p.otherBranches(); n > 0 {
		count += " · " + textfmt.Plural(n, "other branch")
	}
	p.fact("Messages", count)
	if u, _ := session.Branch(p.all).Usage(); u != (session.Usage{}) {
		out := thousands(u.OutputTokens) + " out"
		if u.Uncounted > 0 { // the output of a cancelled reply was never counted
			out = "at least " + out
		}
		tokens := thousands(u.InputTokens) + " in · " + out
		if u.CacheReadInputTokens > 0 {
			tokens += " · " + thousands(u.CacheReadInputTokens) + " read from cache"
		}
		if u.CacheCreationInputTokens > 0 {
			tokens += " · " + thousands(u.CacheCreationInputTokens) + " written to cache"
		}
		p.fact("Tokens", tokens)
	}
	p.str("</dl>\n")
	if p.opt.Redact {
		p.str("<p class=\"note\">Redacted: what looked like a secret (API keys, tokens, private keys, muse's own credentials) shows as " + Mask + ".</p>\n")
	}
	var left []string
	if p.opt.NoThinking {
		left = append(left, "thinking")
	}
	if p.opt.NoTools {
		left = append(left, "tool calls and their results")
	}
	if len(left) > 0 {
		p.str("<p class=\"note\">Left out of this page: " + strings.Join(left, ", ") + ".</p>\n")
	}
	p.toc()
	p.str("</header>\n")
}

// models lists the models of the session's replies and images, in the
// order they first answered.
func (p *writer) models() []string {
	var out []string
	seen := map[string]bool{}
	for i := range p.all {
		e := &p.all[i]
		if e.Kind != session.KindAssistant && e.Kind != session.KindImage {
			continue
		}
		if m := p.sess.ModelOf(e); m != "" && !seen[m] {
			seen[m] = true
			out = append(out, m)
		}
	}
	if len(out) == 0 && p.sess.Params.Model != "" {
		out = append(out, p.sess.Params.Model)
	}
	return out
}

// otherBranches counts the branches not shown first: the entries that end
// a branch, other than the last of the active one.
func (p *writer) otherBranches() int {
	n := 0
	head := ""
	if k := len(p.sess.Entries); k > 0 {
		head = p.sess.Entries[k-1].ID
	}
	for i := range p.all {
		if id := p.all[i].ID; len(p.kids[id]) == 0 && id != head {
			n++
		}
	}
	return n
}

// thousands writes n with commas between its thousands.
func thousands(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0 && s[i-1] != '-'; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// toc lists the prompts of the active branch, each a link to its message,
// when there are TOCMin or more.
func (p *writer) toc() {
	var prompts []int
	for i := range p.sess.Entries {
		if p.sess.Entries[i].Kind == session.KindUser {
			prompts = append(prompts, i)
		}
	}
	if len(prompts) < TOCMin {
		return
	}
	p.str("<details class=\"toc\"><summary>Prompts · " + strconv.Itoa(len(prompts)) + "</summary>\n<ol>\n")
	for _, i := range prompts {
		e := &p.sess.Entries[i]
		line := textfmt.TruncateRunes(strings.Join(strings.Fields(p.text(firstLine(e.Text))), " "), 48)
		if line == "" {
			line = "(attachments)"
		}
		p.str(`<li><a href="#` + p.anchor(e) + `">` + html.EscapeString(line) + "</a></li>\n")
	}
	p.str("</ol>\n</details>\n")
}

// firstLine returns the first line of s that is not blank.
func firstLine(s string) string {
	for l := range strings.SplitSeq(s, "\n") {
		if strings.TrimSpace(l) != "" {
			return l
		}
	}
	return ""
}
