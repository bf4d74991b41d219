package ui

import (
	"fmt"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"muse/session"
	"muse/ui/clipboard"
	"muse/ui/sanitize"
	"muse/ui/textfmt"
)

// codeBlock is a fenced code block of a message's markdown.
type codeBlock struct {
	lang, text string
}

// codeBlocks finds the fenced code blocks (``` or ~~~) of markdown source,
// in order. A block still open at the end (a reply cut short) runs to the
// end.
func codeBlocks(md string) []codeBlock {
	var out []codeBlock
	var cur *codeBlock
	var fence string
	var body []string
	for _, line := range strings.Split(md, "\n") {
		trimmed := strings.TrimLeft(line, " ")
		if cur == nil {
			if len(line)-len(trimmed) > 3 {
				continue
			}
			if f := fenceOf(trimmed); f != "" {
				cur = &codeBlock{lang: strings.TrimSpace(strings.TrimLeft(trimmed, f[:1]))}
				if i := strings.IndexAny(cur.lang, " \t{"); i >= 0 {
					cur.lang = cur.lang[:i]
				}
				fence, body = f, nil
			}
			continue
		}
		if f := fenceOf(trimmed); f != "" && f[0] == fence[0] && len(f) >= len(fence) && strings.TrimSpace(trimmed[len(f):]) == "" {
			cur.text = strings.Join(body, "\n")
			out = append(out, *cur)
			cur = nil
			continue
		}
		body = append(body, line)
	}
	if cur != nil {
		cur.text = strings.Join(body, "\n")
		out = append(out, *cur)
	}
	return out
}

// fenceOf returns the fence that starts line (three or more ` or ~), or "".
func fenceOf(line string) string {
	for _, c := range []byte{'`', '~'} {
		n := 0
		for n < len(line) && line[n] == c {
			n++
		}
		if n >= 3 {
			if c == '`' && strings.Contains(line[n:], "`") {
				return "" // an info string with a backtick is not a fence
			}
			return line[:n]
		}
	}
	return ""
}

// entrySource is an entry as markdown source, as y in selection mode and
// /copy N copy it: a prompt or a reply as written, an error as its message,
// an image turn as its prompt and files, tool results as their output.
func entrySource(e session.Entry) string {
	switch e.Kind {
	case session.KindUser, session.KindNotice:
		return e.Text
	case session.KindAssistant:
		if e.Message == nil {
			return ""
		}
		return e.Message.Text()
	case session.KindError:
		if e.Error == nil {
			return e.Text
		}
		return e.Error.Name() + ": " + e.Error.Message
	case session.KindImage:
		var b strings.Builder
		b.WriteString(e.ImagePrompt)
		for _, img := range e.Images {
			if img.Path != "" {
				fmt.Fprintf(&b, "\n\n![image %d](%s)", img.Index+1, img.Path)
			}
		}
		return b.String()
	case session.KindTool:
		var parts []string
		for _, r := range e.ToolResults {
			parts = append(parts, fmt.Sprintf("%s (%s):\n\n```\n%s\n```", r.Name, r.Approval, strings.TrimRight(r.Output, "\n")))
		}
		return strings.Join(parts, "\n\n")
	}
	return e.Text
}

// failedName is what the status bar says of a failed request until the
// next turn starts.
func failedName(info *session.ErrorInfo) string {
	if name := info.Name(); name != "" {
		return "failed: " + name
	}
	return "failed: " + textfmt.TruncateRunes(info.Message, 40)
}

// describe names an entry in notices: "the reply", "the prompt"…
func describe(e session.Entry) string { return "the " + kindName(e) }

// kindName names what an entry is: "reply", "prompt"…
func kindName(e session.Entry) string {
	switch e.Kind {
	case session.KindUser:
		return "prompt"
	case session.KindAssistant:
		return "reply"
	case session.KindError:
		return "error"
	case session.KindImage:
		return "image turn"
	case session.KindTool:
		return "tool results"
	}
	return "notice"
}

// copiedMsg reports a finished copy.
type copiedMsg struct {
	what  string
	chars int
	err   error
}

// copyText copies text to the clipboard, in a command, through the
// terminal and the environment of opts; what names it in the notice.
func copyText(opts Options, text, what string) tea.Cmd {
	// What is copied is what the screen shows: escape sequences hidden in a
	// reply (a command after ESC X … ESC \ that a shell would run on
	// paste, text concealed with SGR 8) never reach the clipboard.
	text = sanitize.Plain(text)
	w, getenv := opts.Terminal, opts.Getenv
	return func() tea.Msg {
		return copiedMsg{what: what, chars: len([]rune(text)), err: clipboard.Copy(w, text, getenv)}
	}
}

// copyChoice is what /copy copies of es: the last reply, message n from
// the end, or code block n of the last reply (its last when n is 0), and
// how it is named; refused says why nothing is, instead.
func copyChoice(es []session.Entry, code bool, n int) (text, what, refused string) {
	a := lastIndex(es, session.KindAssistant)
	switch {
	case code:
		if a < 0 || es[a].Message == nil {
			return "", "", "no reply to copy from yet"
		}
		blocks := codeBlocks(es[a].Message.Text())
		if len(blocks) == 0 {
			return "", "", "the last reply has no code block"
		}
		if n == 0 {
			n = len(blocks)
		}
		if n > len(blocks) {
			return "", "", fmt.Sprintf("the last reply has %s", textfmt.Plural(len(blocks), "code block"))
		}
		return blocks[n-1].text, fmt.Sprintf("code block %d of %d", n, len(blocks)), ""
	case n > 0:
		if n > len(es) {
			return "", "", fmt.Sprintf("the conversation has %s", textfmt.Plural(len(es), "message"))
		}
		e := es[len(es)-n]
		return entrySource(e), fmt.Sprintf("%s, message %d from the end", describe(e), n), ""
	}
	if a < 0 || es[a].Message == nil || es[a].Message.Text() == "" {
		return "", "", "no reply to copy yet"
	}
	return es[a].Message.Text(), replyName(es[a].Status), ""
}

// replyName names the reply /copy and the copy key copy, by how far it
// got: one still streaming, or stopped, is copied only so far.
func replyName(status string) string {
	switch status {
	case session.StatusStreaming:
		return "the reply so far"
	case session.StatusCancelled, session.StatusInterrupted, session.StatusFailed:
		return "the last reply, as far as it got"
	}
	return "the last reply"
}
