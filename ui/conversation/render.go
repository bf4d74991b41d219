package conversation

import (
	"fmt"
	"net/url"
	"strings"

	"github.com/muesli/termenv"

	"muse/api"
	"muse/session"
	"muse/theme"
	"muse/ui/attach"
	"muse/ui/sanitize"
	"muse/ui/textfmt"
)

// AttachmentPreviewKey is the key of an image attachment's preview in
// Renderer.Previews.
func AttachmentPreviewKey(a session.Attachment) string { return "attachment:" + a.SHA256 }

// BodyIndent is the left margin of message bodies under their label.
const BodyIndent = 2

// Renderer turns conversation entries into screen text. A Model made with
// it changes its settings on a copy of its own (see SetExpandThinking).
type Renderer struct {
	th *theme.Theme
	md *markdown
	// ExpandThinking shows thinking blocks in full instead of one line.
	ExpandThinking bool
	// Previews holds the half-block previews of saved images, by path;
	// ShowPreviews shows them under their image.
	Previews     map[string]string
	ShowPreviews bool
	// Linkable reports whether a saved image's path may be a link the
	// terminal opens on a click: a journal that came by sync, or was
	// written by hand, can name any file as its image. Nil links none.
	Linkable func(path string) bool
}

// NewRenderer returns a renderer in the theme th, with markdown in the
// colours of profile, that shows image previews.
func NewRenderer(th *theme.Theme, profile termenv.Profile) *Renderer {
	return &Renderer{th: th, md: newMarkdown(th.Markdown, profile), Previews: map[string]string{}, ShowPreviews: true}
}

// textLines renders the markdown of text block i as indented lines; nil
// means a full render.
type textLines func(i int, text string, width int) []string

// entry renders one entry at width columns.
func (r *Renderer) entry(e *session.Entry, width int, text textLines) string {
	inner := max(width-BodyIndent, 10)
	st := r.th.Styles
	switch e.Kind {
	case session.KindUser:
		out := st.UserLabel.Render("you")
		if e.Text != "" {
			out += "\n" + indent(st.UserText.Render(textfmt.Wrap(sanitize.Text(e.Text), inner)))
		}
		for _, a := range e.Attachments {
			out += "\n" + indent(st.Muted.Render(textfmt.Wrap("+ "+attach.Describe(a), inner)))
			if pv, ok := r.Previews[AttachmentPreviewKey(a)]; ok && r.ShowPreviews && a.Kind == session.AttachImage {
				out += "\n" + indent(pv)
			}
		}
		return out
	case session.KindAssistant:
		return strings.Join(r.assistant(e, inner, text), "\n")
	case session.KindError:
		return r.errorEntry(e, inner)
	case session.KindImage:
		return r.imageEntry(e, inner)
	case session.KindTool:
		return r.toolEntry(e, inner)
	default:
		return st.Notice.Render(textfmt.WrapHanging(sanitize.Text(e.Text), width))
	}
}

// assistant renders a reply as lines: the label on the first block, blocks a
// blank line apart. text renders text blocks; the streaming reply passes one
// that reuses its stable prefix, so a frame costs only the new tail.
func (r *Renderer) assistant(e *session.Entry, inner int, text textLines) []string {
	st := r.th.Styles
	label := "assistant"
	if e.Message != nil && e.Message.Model != "" {
		label += st.Muted.Render(" · " + sanitize.Line(e.Message.Model))
	}
	lines := []string{st.AssistantLabel.Render(label)}
	first := true
	add := func(part []string) {
		if len(part) == 0 {
			return
		}
		if !first {
			lines = append(lines, "")
		}
		first = false
		lines = append(lines, part...)
	}
	if e.Message != nil {
		for i, b := range e.Message.Content {
			if b.Type == api.BlockText {
				if strings.TrimSpace(b.Text) == "" {
					continue
				}
				if text != nil {
					add(text(i, b.Text, inner))
				} else {
					body := b.Text
					if i == len(e.Message.Content)-1 && e.Status != session.StatusComplete {
						body = dropOpenTableRow(body) // cut off mid-row: glamour would draw an empty row
					}
					add(strings.Split(indent(r.md.render(body, inner)), "\n"))
				}
				continue
			}
			if s := r.block(e, i, inner); s != "" {
				add(strings.Split(indent(s), "\n"))
			}
		}
		if cites := CitationLines(e.Message.Content); cites != nil {
			out := st.ToolTitle.Render(textfmt.Wrap(cites[0], inner)) + "\n" +
				st.Muted.Render(textfmt.Wrap(strings.Join(cites[1:], "\n"), inner))
			add(strings.Split(indent(out), "\n"))
		}
	}
	if note := r.stopNote(e); note != "" {
		add([]string{indent(note)})
	}
	return lines
}

// stopNote tells how a reply ended when that was not a normal end_turn.
func (r *Renderer) stopNote(e *session.Entry) string {
	st := r.th.Styles
	switch e.Status {
	case session.StatusCancelled:
		return st.Warning.Render("■ cancelled")
	case session.StatusInterrupted:
		return st.Warning.Render("■ interrupted")
	case session.StatusFailed:
		return st.ErrorText.Render("■ failed")
	case session.StatusStreaming:
		return ""
	}
	if e.Message == nil {
		return ""
	}
	switch reason := e.Message.StopReason; reason {
	case "", api.StopEndTurn, api.StopToolUse:
		return "" // a tool call shows as its own box
	case api.StopMaxTokens:
		return st.Warning.Render("reply cut at max_tokens · /continue")
	case api.StopPauseTurn:
		return st.Warning.Render("the server paused this turn · /continue")
	case api.StopSequence:
		return st.Muted.Render("stopped at sequence " + fmt.Sprintf("%q", sanitize.Line(e.Message.StopSequence)))
	default:
		return st.Muted.Render("stop reason: " + sanitize.Line(reason))
	}
}

// block renders a block that is not text.
func (r *Renderer) block(e *session.Entry, i, width int) string {
	st := r.th.Styles
	b := e.Message.Content[i]
	switch b.Type {
	case api.BlockThinking:
		text := sanitize.Plain(b.Thinking)
		n := strings.Count(strings.TrimRight(text, "\n"), "\n") + 1
		// Thinking streams live, dimmed, and folds to one line when its block ends.
		live := e.Status == session.StatusStreaming && i == len(e.Message.Content)-1
		if !r.ExpandThinking && !live {
			return st.Thinking.Render("thinking · " + textfmt.Plural(n, "line"))
		}
		return st.Thinking.Render("thinking\n" + textfmt.Wrap(text, width))
	case api.BlockToolUse:
		title := "tool · " + sanitize.Line(b.Name)
		input := textfmt.PrettyJSON(b.Input)
		_, cut := e.Truncated[i]
		if b.Truncated || cut {
			title += " · truncated, not run"
			if p := e.Truncated[i]; p != "" {
				input = p
			} else if b.PartialInput != "" {
				input = b.PartialInput
			}
		} else if b.PartialInput != "" {
			input = b.PartialInput
		}
		body := st.ToolTitle.Render(title) + "\n" + textfmt.Wrap(sanitize.Plain(input), max(width-4, 10))
		return textfmt.Render(st.ToolBox, body)
	default:
		if lines, ok := ServerBlockLines(b); ok {
			style := st.ToolTitle
			if b.Type == blockRedactedThinking {
				style = st.Thinking
			}
			out := style.Render(textfmt.Wrap(lines[0], width))
			if len(lines) > 1 {
				out += "\n" + st.Muted.Render(textfmt.Wrap(strings.Join(lines[1:], "\n"), width))
			}
			return out
		}
		raw := string(b.Raw)
		if raw == "" {
			raw = "{}"
		}
		label := st.Muted.Render("[" + sanitize.Line(b.Type) + " block]")
		return label + "\n" + textfmt.Render(st.RawBlock, textfmt.Wrap(sanitize.Plain(textfmt.TruncateRunes(raw, 400)), width))
	}
}

func (r *Renderer) errorEntry(e *session.Entry, width int) string {
	st := r.th.Styles
	info := e.ErrorOf()
	// Named as -p names it (see errorName): "error 502 bad_gateway".
	head := "error"
	if info.Status != 0 || info.Type != "" {
		head += " " + sanitize.Line(info.Name())
	}
	lines := []string{st.ErrorLabel.Render("✗ " + head)}
	lines = append(lines, indent(st.ErrorText.Render(textfmt.Wrap(sanitize.Plain(info.Message), width))))
	var meta []string
	if e.RequestID != "" {
		meta = append(meta, "request "+sanitize.Line(e.RequestID))
	}
	if info.Hint != "" {
		meta = append(meta, sanitize.Line(info.Hint))
	}
	if len(meta) > 0 {
		lines = append(lines, indent(st.Hint.Render(textfmt.Wrap(strings.Join(meta, " · "), width))))
	}
	return strings.Join(lines, "\n")
}

func indent(s string) string {
	pad := strings.Repeat(" ", BodyIndent)
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		if l != "" {
			lines[i] = pad + l
		}
	}
	return strings.Join(lines, "\n")
}

// imageEntry renders an image turn: the prompt and settings, then one entry
// per image with its size, saved path, link and preview.
func (r *Renderer) imageEntry(e *session.Entry, width int) string {
	st := r.th.Styles
	model := ""
	if e.ImageParams != nil && e.ImageParams.Model != "" {
		model = st.Muted.Render(" · " + sanitize.Line(e.ImageParams.Model))
	}
	lines := []string{st.AssistantLabel.Render("image") + model}
	add := func(s string) { lines = append(lines, indent(s)) }
	add(st.UserText.Render(textfmt.WrapAfter("prompt: ", sanitize.Plain(e.ImagePrompt), width)))
	if p := e.ImageParams; p != nil {
		var set []string
		if p.Size != "" {
			set = append(set, "size "+sanitize.Line(p.Size))
		}
		if p.NegativePrompt != "" {
			set = append(set, "negative: "+sanitize.Line(p.NegativePrompt))
		}
		if p.PromptExtend != nil {
			set = append(set, fmt.Sprintf("extend %v", textfmt.OnOff(*p.PromptExtend)))
		}
		if p.Watermark != nil {
			set = append(set, fmt.Sprintf("watermark %v", textfmt.OnOff(*p.Watermark)))
		}
		if len(set) > 0 {
			add(st.Muted.Render(textfmt.Wrap(strings.Join(set, " · "), width)))
		}
	}
	for _, img := range e.Images {
		head := fmt.Sprintf("%d.", img.Index+1)
		if img.Error != "" {
			add(st.ErrorText.Render(textfmt.Wrap(head+" failed: "+sanitize.Line(img.Error), width)))
			continue
		}
		var parts []string
		if img.Width > 0 {
			parts = append(parts, fmt.Sprintf("%d×%d", img.Width, img.Height))
		}
		if img.URL != "" {
			if link := hyperlink(img.URL, "link"); link != "" {
				parts = append(parts, link)
			} else {
				parts = append(parts, st.Warning.Render("unsafe link not shown"))
			}
		}
		if img.Path == "" && img.URL == "" {
			parts = append(parts, st.Muted.Render("saving…"))
		}
		add(head + " " + strings.Join(parts, st.Muted.Render(" · ")))
		if img.Path != "" {
			// The saved path on a line of its own, a link to the file: never
			// broken, with folders from its middle left out where it does not
			// fit (the link, /open and /copy keep it whole). Only a name too
			// long for the screen is cut into lines.
			target := (&url.URL{Scheme: "file", Path: img.Path}).String()
			linkable := r.Linkable != nil && r.Linkable(img.Path)
			for _, chunk := range chunkRunes(textfmt.FitPath(textfmt.ShortPath(sanitize.Line(img.Path)), max(width-3, 10)), max(width-3, 10)) {
				if linkable {
					if l := hyperlink(target, chunk); l != "" {
						chunk = l
					}
				}
				add("   " + chunk)
			}
		}
		if rp := strings.TrimSpace(img.RevisedPrompt); rp != "" && rp != strings.TrimSpace(e.ImagePrompt) {
			add(st.Muted.Render(textfmt.WrapAfter("   revised: ", sanitize.Plain(rp), width)))
		}
		if pv, ok := r.Previews[img.Path]; ok && r.ShowPreviews && img.Path != "" {
			add(pv)
		}
	}
	switch e.Status {
	case session.StatusStreaming:
		add(st.Muted.Render("generating…"))
	case session.StatusCancelled:
		add(st.Warning.Render("■ cancelled"))
	case session.StatusInterrupted:
		add(st.Warning.Render("■ interrupted"))
	}
	if e.Error != nil {
		ee := session.Entry{Kind: session.KindError, Error: e.Error, RequestID: e.RequestID}
		lines = append(lines, r.errorEntry(&ee, width))
	}
	return strings.Join(lines, "\n")
}

// hyperlink makes an OSC 8 link to target showing label. Only http, https
// and file links are made, and the target may hold no control character,
// space or quote; anything else gives "".
func hyperlink(target, label string) string {
	lower := strings.ToLower(target)
	if !strings.HasPrefix(lower, "http://") && !strings.HasPrefix(lower, "https://") && !strings.HasPrefix(lower, "file://") {
		return ""
	}
	for _, r := range target {
		if r <= ' ' || r == 0x7f || (r >= 0x80 && r <= 0x9f) || r == '"' || r == '\\' || r > 0x7e {
			return ""
		}
	}
	if len(target) > 2048 {
		return ""
	}
	return "\x1b]8;;" + target + "\x1b\\" + label + "\x1b]8;;\x1b\\"
}

// toolEntry renders the results of tool calls: how each was allowed, its
// exit code and time, its output, and its images with their previews.
func (r *Renderer) toolEntry(e *session.Entry, width int) string {
	st := r.th.Styles
	lines := []string{st.ToolTitle.Render("tool results")}
	for _, res := range e.ToolResults {
		head := sanitize.Line(res.Name) + " · " + sanitize.Line(res.Approval)
		switch {
		case res.Approval == "no" || res.Approval == "typed":
		case res.Server != "": // no exit code: a call to a server
			head = sanitize.Line(res.Name) + " of MCP server " + sanitize.Line(res.Server) + " · " + sanitize.Line(res.Approval) + fmt.Sprintf(" · %dms", res.DurationMS)
		default:
			head += fmt.Sprintf(" · exit %d · %dms", res.ExitCode, res.DurationMS)
		}
		style := st.Muted
		if res.IsError {
			style = st.ErrorText
		}
		out := sanitize.Plain(strings.TrimRight(res.Output, "\n"))
		if n := strings.Count(out, "\n"); n > 20 {
			out = strings.Join(strings.Split(out, "\n")[:20], "\n") + fmt.Sprintf("\n… %d more lines", n-19)
		}
		body := style.Render(head)
		if out != "" {
			body += "\n" + textfmt.Wrap(out, max(width-4, 10))
		}
		lines = append(lines, indent(textfmt.Render(st.ToolBox, body)))
		// An MCP tool's images, each with its preview once it is built.
		for _, a := range res.Images {
			lines = append(lines, indent(st.Muted.Render(textfmt.Wrap("+ "+attach.Describe(a), width))))
			if pv, ok := r.Previews[AttachmentPreviewKey(a)]; ok && r.ShowPreviews {
				lines = append(lines, indent(pv))
			}
		}
	}
	return strings.Join(lines, "\n")
}

// chunkRunes cuts s into pieces of at most n runes.
func chunkRunes(s string, n int) []string {
	r := []rune(s)
	var out []string
	for len(r) > n {
		out = append(out, string(r[:n]))
		r = r[n:]
	}
	return append(out, string(r))
}

// dropOpenTableRow removes the last line of a reply that stopped in the
// middle of a table row (it starts with "|" and has not reached its closing
// "|"), which glamour draws as a row of empty cells. The text is kept whole
// in the session; only the screen leaves the row out.
func dropOpenTableRow(text string) string {
	last := text[strings.LastIndexByte(text, '\n')+1:]
	row := strings.TrimSpace(last)
	if row == "" || row[0] != '|' || (len(row) > 1 && row[len(row)-1] == '|') {
		return text
	}
	return text[:len(text)-len(last)]
}
