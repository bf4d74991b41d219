// Package pending holds the attachments waiting to be sent with the next
// prompt: shown as chips above the input, numbered for /detach. It is a
// child of the chat screen: it keeps the files the root's commands
// prepared (reading and decoding them is I/O, which runs in commands, not
// here), counts those still being prepared, and remembers the prompt whose
// @mentions were attached last.
package pending

import (
	"fmt"
	"slices"

	"muse/session"
	"muse/theme"
	"muse/ui/sanitize"
	"muse/ui/textfmt"
)

// Max is how many attachments may wait for one prompt.
const Max = 20

// Model is the attachments waiting.
type Model struct {
	files []session.File
	// targets[i], when set, is where a link led the path of files[i]: out
	// of the working folder (see attach.Follow), named on its chip. It may
	// be shorter than files: the rest have none.
	targets []string
	// preparing counts the attachments being prepared.
	preparing int
	// mentioned is the prompt whose @mentions were attached last: sent
	// again, they are not attached again (they may have been detached).
	mentioned string
	st        *theme.Styles
	width     int
	memo      *textfmt.Memo // the chips' view, shared by copies
}

// New returns the attachments files, waiting, drawn in st.
func New(st *theme.Styles, files []session.File) Model {
	return Model{files: slices.Clone(files), st: st, memo: &textfmt.Memo{}}
}

// Target is where a link led the path of attachment i (from 0), out of the
// working folder, as attach.ShortTarget writes it; "" when none did.
func (m Model) Target(i int) string {
	if i < len(m.targets) {
		return m.targets[i]
	}
	return ""
}

// SetStyles draws the chips in st from the next frame.
func (m Model) SetStyles(st *theme.Styles) Model {
	m.st, m.memo = st, &textfmt.Memo{}
	return m
}

// SetSize gives the width the chips wrap in.
func (m Model) SetSize(width int) Model {
	m.width = width
	return m
}

// Files are the attachments waiting, in order; the caller must not change
// them.
func (m Model) Files() []session.File { return m.files }

// Len is how many attachments wait.
func (m Model) Len() int { return len(m.files) }

// Set makes files the attachments waiting (nil for none).
func (m Model) Set(files []session.File) Model {
	m.files, m.targets = files, nil
	return m
}

// Append adds files after those waiting, as they are: those a queued
// prompt brings back.
func (m Model) Append(files []session.File) Model {
	m.files = append(m.files[:len(m.files):len(m.files)], files...)
	return m
}

// Add adds files to those waiting, each once: a file waiting already (the
// same bytes) is not added again. targets[i], when set, is where a link
// led the path of files[i] (see attach.Follow); targets may be shorter
// than files. It returns how many were added and the notes of those that
// were (an image scaled down…), sanitized.
func (m Model) Add(files []session.File, targets []string) (next Model, added int, notes []string) {
	for i, f := range files {
		if slices.IndexFunc(m.files, func(p session.File) bool { return sameFile(p, f) }) >= 0 {
			continue // attached already
		}
		added++
		if i < len(targets) && targets[i] != "" {
			m.targets = append(m.targets[:len(m.targets):len(m.targets)], make([]string, len(m.files)-len(m.targets))...)
			m.targets = append(m.targets, targets[i])
		}
		m.files = append(m.files[:len(m.files):len(m.files)], f)
		if f.Note != "" {
			notes = append(notes, sanitize.Line(f.Name)+": "+sanitize.Line(f.Note))
		}
	}
	return m, added, notes
}

// sameFile reports whether two attachments are the same bytes.
func sameFile(a, b session.File) bool {
	return a.Name == b.Name && a.Bytes == b.Bytes && a.MediaType == b.MediaType && string(a.Data) == string(b.Data)
}

// Detach removes attachment n (from 1); 0 removes all. The notice says
// what was removed, or why nothing was.
func (m Model) Detach(n int) (next Model, notice string) {
	switch {
	case len(m.files) == 0:
		return m, "no attachment waits to be sent"
	case n == 0:
		notice = "removed " + textfmt.Plural(len(m.files), "attachment")
		m.files, m.targets = nil, nil
	case n > len(m.files):
		return m, fmt.Sprintf("no attachment %d: %s waiting", n, textfmt.Plural(len(m.files), "attachment"))
	default:
		notice = "removed " + sanitize.Line(m.files[n-1].Name)
		m.files = slices.Delete(slices.Clone(m.files), n-1, n)
		if n-1 < len(m.targets) {
			m.targets = slices.Delete(slices.Clone(m.targets), n-1, n)
		}
	}
	return m, notice
}

// DropLast removes the last n attachments, those a queued prompt brought
// back; it does nothing if fewer wait.
func (m Model) DropLast(n int) Model {
	if k := len(m.files) - n; k >= 0 {
		m.files = m.files[:k]
		m.targets = m.targets[:min(k, len(m.targets))]
	}
	return m
}

// Begin counts one more set of attachments being prepared.
func (m Model) Begin() Model {
	m.preparing++
	return m
}

// Done counts one set of attachments prepared, or refused.
func (m Model) Done() Model {
	m.preparing = max(m.preparing-1, 0)
	return m
}

// Preparing reports whether attachments are still being prepared.
func (m Model) Preparing() bool { return m.preparing > 0 }

// Mentioned reports whether prompt is the one whose @mentions were
// attached last.
func (m Model) Mentioned(prompt string) bool { return prompt == m.mentioned }

// Mention records prompt as the one whose @mentions are being attached.
func (m Model) Mention(prompt string) Model {
	m.mentioned = prompt
	return m
}

// Retyped forgets the prompt whose mentions were attached: a prompt typed
// again, or refused, attaches its mentions again.
func (m Model) Retyped() Model {
	m.mentioned = ""
	return m
}
