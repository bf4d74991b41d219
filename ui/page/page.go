package page

import (
	"bufio"
	"encoding/base64"
	"errors"
	"fmt"
	"html"
	"io"
	"strconv"
	"strings"
	"time"

	"muse/api"
	"muse/session"
	"muse/session/transcript"
	"muse/ui/attach"
	"muse/ui/conversation"
	"muse/ui/sanitize"
	"muse/ui/textfmt"
)

// Options say what a page holds.
type Options struct {
	// Files reads the session's attachments and generated images (a
	// *session.Store); with nil, images are named, not shown.
	Files transcript.Files
	// MaxImagePx scales each embedded image whose longest side is over it
	// down to it, for a smaller file; 0 embeds the images as stored.
	MaxImagePx int
	// Redact masks what looks like a secret in every text, and each of
	// Secrets (muse's own credentials); the page says it was redacted.
	Redact  bool
	Secrets []string
	// NoThinking leaves the replies' thinking out; NoTools the tool calls,
	// their results and the server's tool blocks.
	NoThinking, NoTools bool
}

// TOCMin is how many prompts a session has before its page lists them in a
// table of contents.
const TOCMin = 6

// Write writes sess to w as one HTML page (see the package doc). A missing
// or unreadable image is named on the page in its place, not an error; the
// error is w's.
func Write(w io.Writer, sess *session.Session, opt Options) error {
	if sess == nil {
		return errors.New("export page: no session")
	}
	out := bufio.NewWriterSize(w, 64<<10)
	p := newWriter(out, sess, opt)
	p.document()
	if err := out.Flush(); err != nil {
		return fmt.Errorf("export page of %s: %w", sess.ID, err)
	}
	return nil
}

// writer writes one page.
type writer struct {
	out  *bufio.Writer
	md   noFlush
	sess *session.Session
	opt  Options
	red  *redactor // nil without Redact
	// all is every entry of every branch; pos finds one by id; kids lists
	// the children of each entry, by position, in the order written ("" for
	// the first entries).
	all  []session.Entry
	pos  map[string]int
	kids map[string][]int
	// day, minute and model are those of the message written last: a
	// message names its day, its time and its model only when they change.
	day, minute, model string
}

// noFlush is the page's writer for goldmark, which flushes what it writes
// to after each message: the page flushes once, at its end.
type noFlush struct{ *bufio.Writer }

// Flush does nothing.
func (noFlush) Flush() error { return nil }

func newWriter(out *bufio.Writer, sess *session.Session, opt Options) *writer {
	p := &writer{out: out, md: noFlush{out}, sess: sess, opt: opt, all: sess.All}
	if opt.Redact {
		p.red = newRedactor(opt.Secrets)
	}
	if len(p.all) == 0 {
		p.all = sess.Entries
	}
	p.pos = make(map[string]int, len(p.all))
	for i, e := range p.all {
		p.pos[e.ID] = i
	}
	p.kids = map[string][]int{}
	for i := range p.all {
		k := p.parent(&p.all[i])
		p.kids[k] = append(p.kids[k], i)
	}
	return p
}

// parent returns the id of e's parent, or "" when it has none in the session.
func (p *writer) parent(e *session.Entry) string {
	if _, ok := p.pos[e.Parent]; ok && e.Parent != e.ID {
		return e.Parent
	}
	return ""
}

// text returns s, a text of the session, as a page may show it: sanitized,
// and redacted when asked. It is not yet escaped.
func (p *writer) text(s string) string {
	s = sanitize.Plain(s)
	if p.red != nil {
		s = p.red.redact(s)
	}
	return s
}

// esc returns s, a text of the session, ready for the page.
func (p *writer) esc(s string) string { return html.EscapeString(p.text(s)) }

func (p *writer) str(s string) { p.out.WriteString(s) }

// failed reports whether writing has failed, so that the rest is not made.
func (p *writer) failed() bool {
	_, err := p.out.Write(nil)
	return err != nil
}

func (p *writer) document() {
	title := strings.Join(strings.Fields(p.text(p.sess.Title)), " ")
	if title == "" {
		title = session.Untitled
	}
	p.str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n")
	p.str(`<meta http-equiv="Content-Security-Policy" content="` + csp() + "\">\n")
	p.str("<meta name=\"referrer\" content=\"no-referrer\">\n")
	p.str("<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\">\n")
	p.str("<meta name=\"generator\" content=\"muse\">\n")
	p.str("<title>" + html.EscapeString(title) + "</title>\n")
	p.str("<style>" + stylesheet + "</style>\n</head>\n<body>\n<div class=\"wrap\">\n")
	p.header(title)
	p.str("<main>\n")
	p.messages()
	p.str("</main>\n")
	p.str(`<footer class="foot">Written by muse from session ` + p.esc(p.sess.ID) + ".</footer>\n")
	p.str("</div>\n<script>" + script + "</script>\n</body>\n</html>\n")
}

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
	var u session.Usage
	for _, e := range p.all {
		if e.Message != nil {
			u.Add(e.Message.Usage)
		}
	}
	if u != (session.Usage{}) {
		tokens := thousands(u.InputTokens) + " in · " + thousands(u.OutputTokens) + " out"
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
func (p *writer) markdown(src string) {
	if err := markdown.Convert([]byte(p.text(src)), p.md); err != nil {
		// goldmark fails only when writing fails, which Write reports.
		p.str(p.esc(src))
	}
}

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

// files writes the files sent with a prompt or a tool's result: each image
// shown, each other file named.
func (p *writer) files(as []session.Attachment) {
	var others []session.Attachment
	for _, a := range as {
		if a.Kind != session.AttachImage {
			others = append(others, a)
			continue
		}
		var data []byte
		err := errors.New("the session's files were not given")
		if p.opt.Files != nil {
			data, err = p.opt.Files.ReadAttachment(p.sess.ID, a)
		}
		caption := a.Name
		if a.Width > 0 {
			caption += fmt.Sprintf(" · %d×%d", a.Width, a.Height)
		}
		p.figure(a.Name, data, err, a.Name, caption)
	}
	if len(others) == 0 {
		return
	}
	p.str(`<ul class="files">`)
	for _, a := range others {
		p.str("<li>Attached " + p.esc(a.Name) + " (" + p.esc(a.Kind) + ", " + thousands(int(a.Bytes)) + " bytes)</li>")
	}
	p.str("</ul>\n")
}

// images writes an image generation: its prompt, its settings and each
// image, or why it failed.
func (p *writer) images(e *session.Entry) {
	if e.ImagePrompt != "" {
		p.str(`<p class="raw">` + p.esc(strings.TrimRight(e.ImagePrompt, "\n")) + "</p>\n")
	}
	if ip := e.ImageParams; ip != nil {
		var opts []string
		if ip.Size != "" {
			opts = append(opts, "size "+ip.Size)
		}
		if ip.NegativePrompt != "" {
			opts = append(opts, "negative prompt: "+ip.NegativePrompt)
		}
		if len(opts) > 0 {
			p.str(`<p class="label">` + p.esc(strings.Join(opts, " · ")) + "</p>\n")
		}
	}
	for _, img := range e.Images {
		name := fmt.Sprintf("Image %d", img.Index+1)
		if img.Error != "" {
			p.str(`<p class="missing">` + name + " failed: " + p.esc(img.Error) + "</p>\n")
			continue
		}
		var data []byte
		err := errors.New("the session's files were not given")
		if p.opt.Files != nil {
			data, err = p.opt.Files.ReadImage(img)
		}
		caption := name
		if img.Width > 0 {
			caption += fmt.Sprintf(" · %d×%d", img.Width, img.Height)
		}
		if img.RevisedPrompt != "" {
			caption += " · revised prompt: " + img.RevisedPrompt
		}
		alt := e.ImagePrompt
		if alt == "" {
			alt = name
		}
		p.figure(name, data, err, alt, caption)
	}
	if e.Error != nil {
		p.errorInfo(e.Error, e.RequestID)
	}
}

// figure writes an image, embedded as a data: URI, scaled down to
// MaxImagePx; or, when it could not be read or is not an image, a line
// saying so in its place. alt and caption are texts of the session. What
// failed is named by the image's name, never by its path, which would tell
// the reader where the user's files are.
func (p *writer) figure(name string, data []byte, readErr error, alt, caption string) {
	if readErr != nil {
		p.str(`<p class="missing">` + p.esc(name) + ": the image file is missing or unreadable, so it is not on this page.</p>\n")
		return
	}
	f, err := attach.Fit(name, data, p.opt.MaxImagePx)
	if err != nil {
		p.str(`<p class="missing">` + p.esc(name) + ": not an image this page can show.</p>\n")
		return
	}
	p.str(`<figure><img alt="` + p.esc(strings.TrimSpace(alt)) + `"`)
	if f.Width > 0 && f.Height > 0 {
		p.str(fmt.Sprintf(` width="%d" height="%d"`, f.Width, f.Height))
	}
	p.str(` decoding="async" src="data:` + f.MediaType + ";base64,")
	enc := base64.NewEncoder(base64.StdEncoding, p.out)
	enc.Write(f.Data)
	enc.Close()
	p.str(`"><figcaption>` + p.esc(caption) + "</figcaption></figure>\n")
}
