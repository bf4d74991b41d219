package page

import (
	"bufio"
	"errors"
	"fmt"
	"html"
	"io"
	"strings"

	"muse/session"
	"muse/session/transcript"
	"muse/ui/sanitize"
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
	p.str("<style>" + stylesheet() + "</style>\n</head>\n<body>\n<div class=\"wrap\">\n")
	p.header(title)
	p.str("<main>\n")
	p.messages()
	p.str("</main>\n")
	p.str(`<footer class="foot">Written by muse from session ` + p.esc(p.sess.ID) + ".</footer>\n")
	p.str("</div>\n<script>" + script + "</script>\n</body>\n</html>\n")
}
