package ui

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"muse/session"
	"muse/ui/attach"
	"muse/ui/clipboard"
	"muse/ui/pending"
	"muse/ui/sanitize"
	"muse/ui/textfmt"
)

// Attachments waiting to be sent are a child (ui/pending), shown as chips
// above the input, sent with the next prompt, removed with /detach or
// backspace in an empty input. Reading and preparing a file (decoding and
// scaling an image) is I/O and work: it runs in a command, and attachedMsg
// brings the result.

// attachedMsg carries prepared attachments, or why one was refused. send,
// when set, is the prompt to send once they are attached (its @mentions).
// retype, when set, is the /attach command put back into an empty input
// when it is refused, to be fixed.
type attachedMsg struct {
	files  []session.File
	err    error
	send   string
	retype string
	// note, when set, is what the status line says once they are attached.
	note string
	// secrets are the mentions left out as secret files (see
	// attach.Secret), each with why; warnings the secret files attached by
	// the user's own command.
	secrets, warnings []string
	// edit, when set, is the prompt being edited they belong to (see
	// forEdit).
	edit string
	// unseen, when set, is the prompt to send if no file is new (see
	// showFirst).
	unseen string
}

// showFirst makes the attachedMsg of cmd, which attaches the mentions of
// prompt, text the user did not type, show them before they are sent: the
// status line says so, and only when none of them is new (all are text,
// or wait as chips already) is prompt sent at once.
func showFirst(cmd tea.Cmd, prompt string) tea.Cmd {
	return func() tea.Msg {
		msg := cmd().(attachedMsg)
		msg.note = "the text names files: attached above, not sent yet · enter sends them · /detach removes"
		msg.unseen = prompt
		return msg
	}
}

// attachSource is where an attachment comes from: a file's path, or bytes
// read by read (the clipboard), or given (stdin).
type attachSource struct {
	path string
	// mention marks a path a prompt's @mention names: when no file is
	// there, the mention is only text, and a secret file (attach.Secret)
	// is never attached from it.
	mention bool
	// own marks a file of muse's own (an image it made, an attachment it
	// stored), which is not looked at as a secret.
	own bool
	// name, for a path, is the name to attach the file by, in place of the
	// one on disk (a stored attachment's original name).
	name string
	data []byte
	read func(context.Context) ([]byte, error)
}

// prepare reads and prepares one attachment.
func (s attachSource) prepare() (session.File, error) {
	switch {
	case s.path != "":
		f, err := attach.Open(expandHome(s.path))
		if err == nil && s.name != "" {
			f.Name = s.name
		}
		return f, err
	case s.read != nil:
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		data, err := s.read(ctx)
		if err != nil {
			return session.File{}, err
		}
		return attach.FromBytes(s.name, data)
	default:
		return attach.FromBytes(s.name, s.data)
	}
}

// prepareAttachments prepares the sources in a command; the first refusal
// stops it, and nothing of it is attached.
func prepareAttachments(sources []attachSource, send, retype string) tea.Cmd {
	return func() tea.Msg {
		files := make([]session.File, 0, len(sources))
		var secrets, warnings []string
		for _, s := range sources {
			if s.mention {
				if _, err := os.Stat(expandHome(s.path)); errors.Is(err, fs.ErrNotExist) {
					continue // @someone, @Override: text, not a file
				}
			}
			why := ""
			if s.path != "" && !s.own {
				why = attach.Secret(expandHome(s.path))
			}
			if why != "" && s.mention {
				secrets = append(secrets, textfmt.ShortPath(s.path)+" is "+why)
				continue
			}
			f, err := s.prepare()
			if err != nil {
				return attachedMsg{err: err, send: send, retype: retype}
			}
			if why != "" {
				warnings = append(warnings, f.Name+" is "+why)
			}
			files = append(files, f)
		}
		return attachedMsg{files: files, send: send, secrets: secrets, warnings: warnings}
	}
}

// startAttach begins attaching the sources: the status line says so until
// attachedMsg arrives.
func (m Model) startAttach(sources []attachSource, send, retype string) (Model, tea.Cmd) {
	if m.pending.Len()+len(sources) > pending.Max {
		m.status = m.status.Note(fmt.Sprintf("at most %d attachments wait for one prompt: /detach some first", pending.Max))
		return m, nil
	}
	m.pending = m.pending.Begin()
	names := make([]string, len(sources))
	for i, s := range sources {
		names[i] = s.name
		if s.path != "" {
			names[i] = textfmt.ShortPath(s.path)
		}
	}
	m.status = m.status.Note("attaching " + textfmt.TruncateRunes(sanitize.Line(strings.Join(names, ", ")), 60) + "…")
	return m.layout(), prepareAttachments(sources, send, retype)
}

// attached adds prepared attachments to those waiting, or says why one was
// refused; the input is kept either way.
func (m Model) attached(msg attachedMsg) (tea.Model, tea.Cmd) {
	m.pending = m.pending.Done()
	if msg.edit != "" && msg.edit != m.edit.ID() {
		return m.layout(), nil // the edit they were for has ended
	}
	if msg.err != nil {
		m.pending = m.pending.Retyped() // the prompt's mentions are tried again when it is sent
		m.status = m.status.Note(sanitize.Line(msg.err.Error()))
		if msg.retype != "" && m.input.Value() == "" {
			m.input = m.input.SetValue(msg.retype)
		}
		return m.layout(), nil
	}
	var added int
	var notes []string
	m.pending, added, notes = m.pending.Add(msg.files)
	m.status = m.status.Note("attached " + textfmt.Plural(m.pending.Len(), "file") + " · /detach removes")
	if len(notes) > 0 {
		m.status = m.status.Note(strings.Join(notes, " · "))
	}
	if len(msg.files) == 0 {
		m.status = m.status.Note("")
	} else if msg.note != "" {
		m.status = m.status.Note(msg.note)
	}
	if len(msg.warnings) > 0 {
		m.status = m.status.Note("warning: " + sanitize.Line(strings.Join(msg.warnings, "; ")) + " · it is sent with the next prompt · /detach removes")
	}
	if len(msg.secrets) > 0 {
		// Never from a mention: the prompt waits, to be sent as text with
		// another enter, or the file attached with /attach.
		m.status = m.status.Note("not attached: " + sanitize.Line(strings.Join(msg.secrets, "; ")) +
			" · a mention never attaches such a file: /attach it to send it · enter sends the text")
		return m.layout(), nil
	}
	m = m.layout()
	if msg.send != "" && strings.TrimSpace(m.input.Value()) == msg.send {
		return m.sendNow(msg.send)
	}
	if msg.unseen != "" && added == 0 && strings.TrimSpace(m.input.Value()) == msg.unseen {
		return m.sendNow(msg.unseen) // nothing new to see: @someone, or chips shown already
	}
	return m, nil
}

// attachCommand runs /attach: a path, image N of the last image turn, or
// the clipboard's image.
func (m Model) attachCommand(arg string, n int) (tea.Model, tea.Cmd) {
	switch arg {
	case "image":
		path, err := imagePath(m.conv.Entries(), n)
		if err != nil {
			m.status = m.status.Note(err.Error())
			return m, nil
		}
		return m.startAttach([]attachSource{{path: path, own: true}}, "", "")
	case "clipboard":
		return m.startAttach(clipboardImage, "", "")
	}
	return m.startAttach([]attachSource{{path: arg}}, "", "/attach "+arg)
}

// attachSelected attaches, from selection mode, the images of an image
// turn or the attachments of a prompt.
func (m Model) attachSelected(e session.Entry) (tea.Model, tea.Cmd) {
	var sources []attachSource
	for _, img := range e.Images {
		if img.Path != "" {
			sources = append(sources, attachSource{path: img.Path, own: true})
		}
	}
	sources = append(sources, storedSources(m.writer, e.Attachments)...)
	if len(sources) == 0 {
		m.status = m.status.Note("this message has no image or attachment to attach")
		return m, nil
	}
	m = m.leaveSelection()
	return m.startAttach(sources, "", "")
}

// clipboardImage is the image on the system clipboard, as a source.
var clipboardImage = []attachSource{{name: "clipboard.png", read: clipboard.ReadImage}}

// storedSources are the attachments of a prompt of the session of w,
// read back from where the session keeps them, by their own names.
func storedSources(w *session.Writer, as []session.Attachment) []attachSource {
	sources := make([]attachSource, len(as))
	for i, a := range as {
		sources[i] = attachSource{name: a.Name, read: func(context.Context) ([]byte, error) { return w.ReadAttachment(a) }}
	}
	return sources
}
