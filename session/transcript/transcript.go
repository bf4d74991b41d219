// Package transcript writes sessions out and reads them back in: the
// plain-text transcript of "muse sessions show", the Markdown and JSON
// exports of "muse sessions export", and the import of a JSON export as a
// new session. It reads the session types and saves through the store;
// the journal itself is session's.
package transcript

import (
	"bufio"
	"fmt"
	"io"
	"strings"

	"muse/api"
	"muse/session"
)

// Text writes sess to w as plain text, for "muse sessions show": the
// title, a line with when the session was created and updated and its
// model, then each entry after a prefix such as "you:" or "assistant
// (model):", its text as it is. Of the settings it shows only the model
// names. It writes the texts unfiltered: a caller printing to a terminal
// must remove the escape sequences they may hold.
func Text(sess *session.Session, w io.Writer) error {
	return plain(sess, w, false)
}

// TextBranches is Text with every branch: the active one, then
// each other branch from where it leaves the active one.
func TextBranches(sess *session.Session, w io.Writer) error {
	return plain(sess, w, true)
}

func plain(sess *session.Session, w io.Writer, all bool) error {
	if sess == nil {
		return fmt.Errorf("show session: no session")
	}
	b := bufio.NewWriter(w)
	title := oneLine(sess.Title)
	if title == "" {
		title = session.Untitled
	}
	fmt.Fprintf(b, "%s\n%s\n", title, header(sess))
	for i := range sess.Entries {
		writeTextEntry(b, sess, &sess.Entries[i])
	}
	if all {
		for n, path := range sess.OtherBranches() {
			fmt.Fprintf(b, "\n── branch %d · after message %d of the active branch ──\n", n+2, path.After)
			for i := range path.Entries {
				writeTextEntry(b, sess, &path.Entries[i])
			}
		}
	}
	if err := b.Flush(); err != nil {
		return fmt.Errorf("show session %s: %w", sess.ID, err)
	}
	return nil
}

// writeTextEntry writes one entry of a plain-text transcript.
func writeTextEntry(b *bufio.Writer, sess *session.Session, e *session.Entry) {
	b.WriteString("\n")
	switch e.Kind {
	case session.KindUser:
		fmt.Fprintf(b, "you:\n%s\n", trimNL(e.Text))
		for _, a := range e.Attachments {
			fmt.Fprintf(b, "+ %s (%s, %d bytes)\n", oneLine(a.Name), attachmentKind(a), a.Bytes)
		}
	case session.KindAssistant:
		writeTextReply(b, sess, e)
	case session.KindError:
		info := e.ErrorOf()
		writeTextError(b, info, e.RequestID)
	case session.KindNotice:
		fmt.Fprintf(b, "notice: %s\n", trimNL(e.Text))
	case session.KindImage:
		writeTextImage(b, sess, e)
	case session.KindTool:
		for _, r := range e.ToolResults {
			fmt.Fprintf(b, "tool %s (%s):\n%s\n", oneLine(r.Name), ToolHow(r), trimNL(r.Output))
		}
	default:
		if e.Text != "" {
			fmt.Fprintf(b, "%s:\n%s\n", e.Kind, trimNL(e.Text))
		}
	}
}

// speaker returns the prefix of an entry: who and, if known, which model.
func speaker(who, model string) string {
	if model == "" {
		return who + ":\n"
	}
	return who + " (" + model + "):\n"
}

func writeTextReply(b *bufio.Writer, sess *session.Session, e *session.Entry) {
	b.WriteString(speaker("assistant", sess.ModelOf(e)))
	writeReplyBody(b, e, textReply)
}

// textReply is how the plain-text transcript writes a reply's parts.
var textReply = replyForm{
	text:       "%s\n",
	thinking:   "[thinking]\n%s\n[end of thinking]\n",
	toolCall:   "[tool call %s%s]\n%s\n",
	cutShort:   ", input cut short, never run",
	input:      trimNL,
	toolResult: "[tool result %s]\n%s\n",
	block:      "[%s block]\n%s\n",
	json:       func(s string) string { return s },
	stop:       "[stop reason: %s]\n",
	status:     "[%s]\n",
}

// replyForm is how a transcript's format writes the parts of a reply.
type replyForm struct {
	text, thinking string // of the text, trimmed
	// toolCall takes the tool's name, cutShort when the input never
	// finished, and the input as input gives it.
	toolCall, cutShort string
	input              func(string) string
	// toolResult and block take a name (the call's id, the block's type)
	// and the block's JSON as json gives it.
	toolResult, block string
	json              func(string) string
	stop, status      string // of the stop reason, of the status note
}

// writeReplyBody writes the blocks of the reply e in the form f, then its
// stop reason, unless it ended its turn, and the note of its status.
func writeReplyBody(b io.StringWriter, e *session.Entry, f replyForm) {
	if e.Message != nil {
		for i, c := range e.Message.Content {
			switch c.Type {
			case api.BlockText:
				if c.Text != "" {
					b.WriteString(fmt.Sprintf(f.text, trimNL(c.Text)))
				}
			case api.BlockThinking:
				if c.Thinking != "" {
					b.WriteString(fmt.Sprintf(f.thinking, trimNL(c.Thinking)))
				}
			case api.BlockToolUse:
				input, cut := ToolInput(e, i, c)
				note := ""
				if cut {
					note = f.cutShort
				}
				b.WriteString(fmt.Sprintf(f.toolCall, c.Name, note, f.input(input)))
			case api.BlockToolResult:
				b.WriteString(fmt.Sprintf(f.toolResult, c.ToolUseID, f.json(prettyJSON(c.ResultContent))))
			default:
				b.WriteString(fmt.Sprintf(f.block, c.Type, f.json(prettyJSON(c.Raw))))
			}
		}
		if r := e.Message.StopReason; r != "" && r != api.StopEndTurn {
			b.WriteString(fmt.Sprintf(f.stop, r))
		}
	}
	if note := statusNote(e.Status); note != "" {
		b.WriteString(fmt.Sprintf(f.status, note))
	}
}

func writeTextError(b *bufio.Writer, info *session.ErrorInfo, requestID string) {
	b.WriteString(trimNL(ErrorLine(info, requestID, false)) + "\n")
	if info.Hint != "" {
		fmt.Fprintf(b, "hint: %s\n", trimNL(info.Hint))
	}
}

func writeTextImage(b *bufio.Writer, sess *session.Session, e *session.Entry) {
	b.WriteString(speaker("image", sess.ModelOf(e)))
	if e.ImagePrompt != "" {
		b.WriteString(trimNL(e.ImagePrompt) + "\n")
	}
	for _, img := range e.Images {
		name := fmt.Sprintf("image %d", img.Index+1)
		if img.Error != "" {
			fmt.Fprintf(b, "%s failed: %s\n", name, oneLine(img.Error))
			continue
		}
		parts := []string{name + ":"}
		if img.Path != "" {
			parts = append(parts, img.Path)
		}
		if img.Width > 0 && img.Height > 0 {
			parts = append(parts, fmt.Sprintf("(%d×%d)", img.Width, img.Height))
		}
		if img.URL != "" {
			parts = append(parts, img.URL)
		}
		b.WriteString(strings.Join(parts, " ") + "\n")
		if img.RevisedPrompt != "" {
			fmt.Fprintf(b, "revised prompt: %s\n", oneLine(img.RevisedPrompt))
		}
	}
	if e.Error != nil {
		writeTextError(b, e.Error, e.RequestID)
	}
	if note := statusNote(e.Status); note != "" {
		fmt.Fprintf(b, "[%s]\n", note)
	}
}
