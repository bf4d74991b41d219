package composer

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"muse/session"
	"muse/ui/attach"
	"muse/ui/clipboard"
	"muse/ui/input"
	"muse/ui/pending"
	"muse/ui/sanitize"
	"muse/ui/textfmt"
)

// Attachments waiting to be sent are shown as chips above the input, sent
// with the next prompt, removed with /detach or backspace in an empty
// input. Reading and preparing a file (decoding and scaling an image) is
// I/O and work: it runs in a command, and AttachedMsg brings the result.

// AttachedMsg carries prepared attachments, or why one was refused (Err);
// the root hands it to Attached.
type AttachedMsg struct {
	files []session.File
	// Err is why an attachment was refused: nothing of the set is
	// attached.
	Err error
	// send, when set, is the prompt to send once they are attached (its
	// @mentions); retype, when set, is the /attach command put back into
	// an empty input when it is refused, to be fixed.
	send, retype string
	// Note, when set, is what the status line says once they are attached.
	Note string
	// secrets are the mentions left out as secret files (see
	// attach.Secret), each with why; warnings the secret files attached by
	// the user's own command.
	secrets, warnings []string
	// targets[i] is where a link led the path of files[i] out of the
	// working folder (attach.Follow), "" for none; linked are the mentions
	// such a link led, as shown ("README.md → ~/x"), that the user did not
	// name themselves: their prompt waits for another enter.
	targets, linked []string
	// edit, when set, is the prompt being edited they belong to (see
	// forEdit).
	edit string
	// unseen, when set, is the prompt to send if no file is new (see
	// showFirst).
	unseen string
}

// Source is where an attachment comes from: a file's path, or bytes read
// by Read (the clipboard, an MCP resource), or given (stdin).
type Source struct {
	Path string
	// Mention marks a path a prompt's @mention names: when no file is
	// there, the mention is only text, a secret file (attach.Secret) is
	// never attached from it, and a link out of the working folder
	// (attach.Follow) is shown before it is sent.
	Mention bool
	// Name, for a path, is the name to attach the file by, in place of the
	// one on disk (a stored attachment's original name).
	Name string
	Data []byte
	Read func(context.Context) ([]byte, error)
}

// Clipboard is the image on the system clipboard, as a source.
var Clipboard = []Source{{Name: "clipboard.png", Read: clipboard.ReadImage}}

// stored are the attachments of a prompt of the session of w, read back
// from where the session keeps them, by their own names.
func stored(w *session.Writer, as []session.Attachment) []Source {
	sources := make([]Source, len(as))
	for i, a := range as {
		sources[i] = Source{Name: a.Name, Read: func(context.Context) ([]byte, error) { return w.ReadAttachment(a) }}
	}
	return sources
}

// OfEntry are the files of e, a message of the session of w, as sources:
// the images of an image turn, the attachments of a prompt.
func OfEntry(w *session.Writer, e session.Entry) []Source {
	var sources []Source
	for _, img := range e.Images {
		if img.Path != "" {
			sources = append(sources, Image(w, img))
		}
	}
	return append(sources, stored(w, e.Attachments)...)
}

// Image is img, a generated image of the session of w, as a source: read
// through the session, which reads only muse's images folder, since the
// journal's path may have come from another machine and name any file.
func Image(w *session.Writer, img session.Image) Source {
	return Source{Name: filepath.Base(img.Path), Read: func(context.Context) ([]byte, error) { return w.ReadImage(img) }}
}

// expandHome expands a path that starts with ~/ to the home folder; a ~
// alone, as a mention's, is text.
func expandHome(path string) string {
	if path == "~" {
		return path
	}
	return input.ExpandHome(path)
}

// prepare reads and prepares one attachment that is not a path.
func (s Source) prepare() (session.File, error) {
	if s.Read != nil {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		data, err := s.Read(ctx)
		if err != nil {
			return session.File{}, err
		}
		return attach.FromBytes(s.Name, data)
	}
	return attach.FromBytes(s.Name, s.Data)
}

// taken is what became of a source: a file prepared, with where a link
// led it (link) and the secret file it is (why); or, for a mention,
// nothing (skip: no file is there), or a secret file left out (why).
type taken struct {
	file session.File
	why  string
	link attach.Link
	skip bool
}

// take reads and prepares s. A path is opened once, checked
// (attach.Check) and read from the same open file, so the file checked is
// the file sent; a mention of a secret file is not read.
func (s Source) take() (taken, error) {
	if s.Path == "" {
		f, err := s.prepare()
		return taken{file: f}, err
	}
	path := expandHome(s.Path)
	o, err := attach.Check(path)
	if err != nil {
		if s.Mention && errors.Is(err, fs.ErrNotExist) {
			return taken{skip: true}, nil // @someone, @Override: text, not a file
		}
		if why := attach.Secret(path); why != "" && s.Mention {
			return taken{why: why, skip: true}, nil // ~/.ssh: said as a secret, not a refusal
		}
		return taken{}, err
	}
	defer o.Close()
	t := taken{why: o.Secret, link: o.Link}
	if t.why != "" && s.Mention {
		t.skip = true
		return t, nil
	}
	if t.file, err = o.Read(); err != nil {
		return taken{}, err
	}
	if s.Name != "" {
		t.file.Name = s.Name
	}
	return t, nil
}

// prepareAttachments prepares the sources in a command; the first refusal
// stops it, and nothing of it is attached.
func prepareAttachments(sources []Source, send, retype string) tea.Cmd {
	return func() tea.Msg {
		files := make([]session.File, 0, len(sources))
		targets := make([]string, 0, len(sources))
		var secrets, warnings, linked []string
		for _, s := range sources {
			t, err := s.take()
			if err != nil {
				return AttachedMsg{Err: err, send: send, retype: retype}
			}
			shown, target := textfmt.ShortPath(s.Path), ""
			if t.link.Target != "" {
				// Shortened here, in the command: ShortTarget reads the
				// file system, which the chips' View must not.
				target = attach.ShortTarget(t.link.Target)
				shown += " → " + target
			}
			if t.skip {
				if t.why != "" {
					secrets = append(secrets, shown+" is "+t.why)
				}
				continue
			}
			if t.why != "" {
				warnings = append(warnings, t.file.Name+" is "+t.why)
			}
			if t.link.Target != "" && !t.link.Named && s.Mention {
				linked = append(linked, shown)
			}
			files, targets = append(files, t.file), append(targets, target)
		}
		return AttachedMsg{files: files, send: send, secrets: secrets, warnings: warnings, targets: targets, linked: linked}
	}
}

// Attach begins attaching the sources: the status line says so until
// AttachedMsg arrives. retype, when set, is put back into an empty input
// if they are refused (the /attach command, to be fixed). Out.Cmd is nil
// when they are refused at once (too many).
func (m Model) Attach(sources []Source, retype string) (Model, Out) {
	return m.attach(sources, "", retype)
}

// attach is Attach, with send the prompt sent once they are attached.
func (m Model) attach(sources []Source, send, retype string) (Model, Out) {
	if m.pending.Len()+len(sources) > pending.Max {
		return m, note(fmt.Sprintf("at most %d attachments wait for one prompt: /detach some first", pending.Max))
	}
	m.pending = m.pending.Begin()
	names := make([]string, len(sources))
	for i, s := range sources {
		names[i] = s.Name
		if s.Path != "" {
			names[i] = textfmt.ShortPath(s.Path)
		}
	}
	out := note("attaching " + textfmt.TruncateRunes(sanitize.Line(strings.Join(names, ", ")), 60) + "…")
	out.Cmd = prepareAttachments(sources, send, retype)
	return m, out
}

// Decorate makes the AttachedMsg of out's command, if it has one, pass
// through f: a caller's own note, or its own words for a refusal.
func Decorate(out Out, f func(AttachedMsg) AttachedMsg) Out {
	if cmd := out.Cmd; cmd != nil {
		out.Cmd = func() tea.Msg { return f(cmd().(AttachedMsg)) }
	}
	return out
}

// Attached adds prepared attachments to those waiting, or says why one was
// refused; the input is kept either way. Once they are attached, the
// prompt that named them is sent, if the input still holds it.
func (m Model) Attached(msg AttachedMsg) (Model, Out) {
	m.pending = m.pending.Done()
	if msg.edit != "" && msg.edit != m.edit.ID() {
		return m, Out{} // the edit they were for has ended
	}
	if msg.Err != nil {
		m.pending = m.pending.Retyped() // the prompt's mentions are tried again when it is sent
		if msg.retype != "" && m.input.Value() == "" {
			m.input = m.input.SetValue(msg.retype)
		}
		return m, note(sanitize.Line(msg.Err.Error()))
	}
	var added int
	var notes []string
	if len(msg.linked) > 0 && msg.send != "" {
		// Typed, but the file is not the one it names: seen first, as a
		// pasted path's (see Send).
		msg.send, msg.unseen = "", msg.send
	}
	m.pending, added, notes = m.pending.Add(msg.files, msg.targets)
	notice := "attached " + textfmt.Plural(m.pending.Len(), "file") + " · /detach removes"
	if len(notes) > 0 {
		notice = strings.Join(notes, " · ")
	}
	if len(msg.files) == 0 {
		notice = ""
	} else if msg.Note != "" {
		notice = msg.Note
	}
	if len(msg.linked) > 0 {
		notice = "a link leads out of the working folder: " + sanitize.Line(strings.Join(msg.linked, ", ")) +
			" · attached above, not sent yet · enter sends it · /detach removes"
	}
	if len(msg.warnings) > 0 {
		notice = "warning: " + sanitize.Line(strings.Join(msg.warnings, "; ")) + " · it is sent with the next prompt · /detach removes"
	}
	if len(msg.secrets) > 0 {
		// Never from a mention: the prompt waits, to be sent as text with
		// another enter, or the file attached with /attach.
		return m, note("not attached: " + sanitize.Line(strings.Join(msg.secrets, "; ")) +
			" · a mention never attaches such a file: /attach it to send it · enter sends the text")
	}
	out := note(notice)
	typed := strings.TrimSpace(m.input.Value())
	switch {
	case msg.send != "" && typed == msg.send:
		out.Send = m.Prompt(msg.send)
	case msg.unseen != "" && added == 0 && typed == msg.unseen:
		out.Send = m.Prompt(msg.unseen) // nothing new to see: @someone, or chips shown already
	}
	return m, out
}

// Detach removes attachment n (from 1); 0 removes all. The notice says
// what was removed, or why nothing was.
func (m Model) Detach(n int) (Model, Out) {
	var notice string
	m.pending, notice = m.pending.Detach(n)
	return m, note(notice)
}

// PutBack makes files wait again, those of a prompt refused before
// anything was saved, unless others wait already.
func (m Model) PutBack(files []session.File) Model {
	if m.pending.Len() == 0 {
		m.pending = m.pending.Set(files)
	}
	return m
}
