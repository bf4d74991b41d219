package page

import (
	"html"
	"strconv"
	"strings"

	"muse/api"
	"muse/session"
	"muse/ui/textfmt"
)

// anchor returns the id of e's <article>: "m" and its position in the
// session, whatever its id holds.
func (p *writer) anchor(e *session.Entry) string {
	return "m" + strconv.Itoa(p.pos[e.ID]+1)
}

// messages writes the active branch, and, where another branch leaves it,
// that branch in a closed <details>.
func (p *writer) messages() {
	last := ""
	for i := range p.sess.Entries {
		e := &p.sess.Entries[i]
		p.forks(p.parent(e), e.ID)
		p.entry(e)
		if p.failed() {
			return
		}
		last = e.ID
	}
	p.forks(last, "")
}

// forks writes the branches that start at a child of parent other than the
// one shown, except.
func (p *writer) forks(parent, except string) {
	for _, k := range p.kids[parent] {
		if p.all[k].ID != except {
			p.branch(k)
		}
	}
}

// branch writes the branch that starts at the entry at position k: each
// entry, and at each, its last child, that child's other siblings in
// branches of their own. The branch goes on from where it leaves the one
// around it, and the one around it goes on as if the branch were not
// there: what a message leaves out because the message before said it (its
// day, its model) is told by the messages of its own path.
func (p *writer) branch(k int) {
	day, minute, model := p.day, p.minute, p.model
	defer func() { p.day, p.minute, p.model = day, minute, model }()
	n, first := 0, ""
	for i := k; ; {
		e := &p.all[i]
		if first == "" {
			first = strings.Join(strings.Fields(p.text(firstLine(e.Text+e.ImagePrompt+replyText(e)))), " ")
		}
		n++
		kids := p.kids[e.ID]
		if len(kids) == 0 {
			break
		}
		i = kids[len(kids)-1]
	}
	p.str("<details class=\"branch\"><summary>Another branch from here · " + textfmt.Plural(n, "message"))
	if first != "" {
		p.str(" · “" + html.EscapeString(textfmt.TruncateRunes(first, 60)) + "”")
	}
	p.str("</summary>\n<div class=\"inner\">\n")
	for i := k; ; {
		e := &p.all[i]
		p.entry(e)
		if p.failed() {
			return
		}
		kids := p.kids[e.ID]
		if len(kids) == 0 {
			break
		}
		i = kids[len(kids)-1]
		for _, o := range kids[:len(kids)-1] {
			p.branch(o)
		}
	}
	p.str("</div>\n</details>\n")
}

// replyText returns the first text of a reply, "" for other entries.
func replyText(e *session.Entry) string {
	if e.Message == nil {
		return ""
	}
	for _, c := range e.Message.Content {
		if c.Type == api.BlockText && c.Text != "" {
			return c.Text
		}
	}
	return ""
}
