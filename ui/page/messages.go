package page

import (
	"html"
	"strings"

	"muse/api"
	"muse/session"
	"muse/session/transcript"
	"muse/ui/conversation"
	"muse/ui/mdwrap"
	"muse/ui/textfmt"
)

// open starts the <article> of e: its kind, who spoke (a link to the
// article), the model when it is not the one of the reply before, and the
// time, in UTC, when it is not the minute of the message before, with the
// day when that is not the day before.
func (p *writer) open(e *session.Entry, class, who, model string) {
	id := p.anchor(e)
	p.str(`<article class="` + class + `" id="` + id + `"><header><a href="#` + id + `">` + who + "</a>")
	if model != "" && model != p.model {
		p.model = model
		p.str("<span>" + p.esc(model) + "</span>")
	}
	if !e.Time.IsZero() {
		t := e.Time.UTC()
		day, minute := t.Format("2006-01-02"), t.Format("15:04")
		switch {
		case day != p.day:
			p.str("<time>" + day + " " + minute + " UTC</time>")
		case minute != p.minute:
			p.str("<time>" + minute + "</time>")
		}
		p.day, p.minute = day, minute
	}
	p.str("</header>\n")
}

// markdown writes src, a text of the session, rendered from Markdown.
// Text nested deeper than mdwrap.MaxNest (200,000 '>' took goldmark 14 s,
// quadratic in the depth) is written flat, as the characters it holds, as
// the chat screen shows it. Text the chat screen shows plain at 80
// columns for its many lines (mdwrap.Dense: each line is a few nodes of
// goldmark's tree, and 640 KB of a list took 170 MB), is written plain
// here too.
func (p *writer) markdown(src string) {
	text := p.text(src)
	if mdwrap.Dense(text, plainColumns) {
		p.str(`<p class="raw">` + html.EscapeString(strings.Trim(text, "\n")) + "</p>\n")
		return
	}
	if mdwrap.TooDeep(text) {
		text = mdwrap.Flatten(text)
	}
	if err := markdown().Convert([]byte(text), p.md); err != nil {
		// goldmark fails only when writing fails, which Write reports.
		p.str(p.esc(src))
	}
}

// plainColumns is the width at which the page weighs a text as the chat
// screen does (see markdown).
const plainColumns = 80

// entry writes one entry in an <article>.
func (p *writer) entry(e *session.Entry) {
	switch e.Kind {
	case session.KindUser:
		p.open(e, "user", "You", "")
		if strings.TrimSpace(e.Text) != "" {
			p.markdown(e.Text)
		}
		p.files(e.Attachments)
	case session.KindAssistant:
		p.open(e, "assistant", "Assistant", p.sess.ModelOf(e))
		p.reply(e)
	case session.KindTool:
		if p.opt.NoTools {
			return
		}
		p.open(e, "tool", "Tool results", "")
		for _, r := range e.ToolResults {
			p.str(`<details class="tool"><summary>Result · ` + p.esc(r.Name) + " · " + p.esc(transcript.ToolHow(r)) + "</summary>\n<div class=\"inner\">")
			p.str(`<pre class="out">` + p.esc(r.Output) + "</pre>\n")
			p.files(r.Images)
			p.str("</div></details>\n")
		}
	case session.KindImage:
		p.open(e, "image", "Image", p.sess.ModelOf(e))
		p.images(e)
	case session.KindError:
		p.open(e, "error", "Error", "")
		p.errorInfo(e.ErrorOf(), e.RequestID)
	case session.KindNotice:
		p.open(e, "notice", "Notice", "")
		p.str(`<p class="raw">` + p.esc(strings.TrimRight(e.Text, "\n")) + "</p>\n")
	default:
		if e.Text == "" {
			return
		}
		p.open(e, "notice", p.esc(e.Kind), "")
		p.str(`<p class="raw">` + p.esc(strings.TrimRight(e.Text, "\n")) + "</p>\n")
	}
	p.str("</article>\n")
}

// reply writes the blocks of a reply, and how it ended when that was not
// the end of its turn.
func (p *writer) reply(e *session.Entry) {
	if e.Message != nil {
		for i, c := range e.Message.Content {
			p.block(e, i, c)
		}
		if r := e.Message.StopReason; r != "" && r != api.StopEndTurn {
			p.str(`<p class="label">Stopped: ` + p.esc(r) + "</p>\n")
		}
	}
	switch e.Status {
	case session.StatusCancelled, session.StatusInterrupted, session.StatusFailed, session.StatusStreaming:
		p.str(`<p class="label">(` + p.esc(e.Status) + ")</p>\n")
	}
}

// block writes block i of a reply.
func (p *writer) block(e *session.Entry, i int, c api.ContentBlock) {
	switch c.Type {
	case api.BlockText:
		if strings.TrimSpace(c.Text) != "" {
			p.markdown(c.Text)
		}
	case api.BlockThinking:
		if !p.opt.NoThinking && strings.TrimSpace(c.Thinking) != "" {
			p.str("<details class=\"thinking\"><summary>Thinking</summary>\n<div class=\"inner\">")
			p.markdown(c.Thinking)
			p.str("</div></details>\n")
		}
	case api.BlockToolUse:
		if p.opt.NoTools {
			return
		}
		input, cut := transcript.ToolInput(e, i, c)
		note := ""
		if cut {
			note = " · input cut short, never run"
		}
		p.str(`<details class="tool"><summary>Tool call · ` + p.esc(c.Name) + note + "</summary>\n")
		p.str(`<div class="inner"><pre class="out">` + p.esc(input) + "</pre></div></details>\n")
	case api.BlockToolResult:
		if p.opt.NoTools {
			return
		}
		p.str(`<details class="tool"><summary>Tool result</summary>` + "\n")
		p.str(`<div class="inner"><pre class="out">` + p.esc(textfmt.PrettyJSON(c.ResultContent)) + "</pre></div></details>\n")
	default:
		lines, ok := conversation.ServerBlockLines(c)
		if ok && (c.Type == "redacted_thinking" && p.opt.NoThinking || c.Type != "redacted_thinking" && p.opt.NoTools) {
			return
		}
		label, rest := c.Type+" block", ""
		if ok && len(lines) > 0 {
			label, rest = lines[0], strings.Join(lines[1:], "\n")
		}
		class := "server"
		if c.Type == "redacted_thinking" {
			class, rest = "thinking", "The server sent this thinking encrypted: it cannot be shown."
		} else if rest == "" {
			rest = textfmt.PrettyJSON(c.Raw)
		}
		p.str(`<details class="` + class + `"><summary>` + p.esc(label) + "</summary>\n")
		p.str(`<div class="inner"><pre class="out">` + p.esc(rest) + "</pre></div></details>\n")
	}
}

// errorInfo writes a failed request: "error 529 overloaded_error:
// message (request req_1)", then its hint.
func (p *writer) errorInfo(info *session.ErrorInfo, requestID string) {
	p.str(`<p class="raw">` + p.esc(transcript.ErrorLine(info, requestID, false)) + "</p>\n")
	if info.Hint != "" {
		p.str(`<p class="label">` + p.esc(info.Hint) + "</p>\n")
	}
}
