package ui

import (
	"fmt"
	"strings"

	"muse/session"
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
