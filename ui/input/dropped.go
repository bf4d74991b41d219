package input

import (
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"unicode"
	"unicode/utf8"

	tea "github.com/charmbracelet/bubbletea"

	"muse/ui/attach"
	"muse/ui/sanitize"
	"muse/ui/slash"
	"muse/ui/textfmt"
)

// A file dropped on a terminal is pasted as its path: absolute, with its
// spaces escaped with backslashes or the whole in single quotes (as a shell
// would need it), or as a file:// URL. The input keeps the text as pasted,
// and, when the paste is exactly one path of an existing regular file, says
// so with PathPastedMsg, for the screen to offer it as an attachment.

// maxDroppedPath is the longest paste looked at as a path.
const maxDroppedPath = 4096

// PathPastedMsg says a paste was the path of an existing regular file:
// Text is the paste as it is in the input, Path the file's path, unescaped
// and absolute. Secret, when set, says the file is one never attached from
// text (see attach.Secret): what it is. Target, when set, is where the
// file, a link, leads (see attach.Follow), as attach.ShortTarget writes it:
// shortened in the command that made the message, since it reads the file
// system.
type PathPastedMsg struct {
	Text, Path, Secret, Target string
}

// PathPasted offers the file msg reports, pasted as its path, as an
// attachment: the path becomes an @mention, attached when the prompt is
// sent, and notice says so; deleting the @ sends the path as text. A
// secret file's path stays text, and notice says why. The path is left as
// it is, and notice is "", when it was typed over meanwhile, a mention
// cannot hold it, or it is the argument of a command (/attach PATH).
func (m Model) PathPasted(msg PathPastedMsg) (_ Model, notice string) {
	value := m.Value()
	i := strings.LastIndex(value, msg.Text)
	mention := Mention(msg.Path)
	if i < 0 || mention == "" || slash.Is(value) {
		return m, ""
	}
	to := "" // where a link leads
	if msg.Target != "" {
		to = " → " + msg.Target
	}
	if msg.Secret != "" {
		return m, "pasted the path of " + sanitize.Line(textfmt.ShortPath(msg.Path)+to) + ", " + sanitize.Line(msg.Secret) +
			": it stays text · /attach it to send the file"
	}
	// A space ends the mention, as Tab's does, so that what is typed next
	// is a word of its own, not part of the file's name; the cursor stays
	// after it.
	rest := value[i+len(msg.Text):]
	if trimmed := strings.TrimRight(msg.Text, " \t"); trimmed != msg.Text {
		mention += msg.Text[len(trimmed):] // the space a drop ends with
	} else if r, _ := utf8.DecodeRuneInString(rest); rest == "" || !unicode.IsSpace(r) {
		mention += " "
	}
	before := value[:i] + mention
	lines := strings.Split(before, "\n")
	m = m.SetValue(before + rest).moveTo(cursorAt{line: len(lines) - 1, col: utf8.RuneCountInString(lines[len(lines)-1])})
	return m, "pasted a file: " + sanitize.Line(filepath.Base(msg.Path)+to) + " is attached at the next enter, sent at the one after · delete its @ to send the path as text"
}

// pastedPath returns a command that reports PathPastedMsg when text, a
// paste, is the path of an existing regular file; nil when text cannot be
// one path. The file is looked at in the command, off the event loop.
func pastedPath(text string) tea.Cmd {
	candidates := pathsOf(text)
	if len(candidates) == 0 {
		return nil
	}
	return func() tea.Msg {
		for _, c := range candidates {
			p := ExpandHome(c)
			if st, err := os.Stat(p); err == nil && st.Mode().IsRegular() {
				return PathPastedMsg{Text: text, Path: p, Secret: attach.Secret(p), Target: attach.ShortTarget(attach.Follow(p).Target)}
			}
		}
		return nil
	}
}

// pathsOf returns what text may be as one path, most likely first: the
// path of a file:// URL; the one word a shell would make of it (unquoted,
// unescaped); the text as it is. Each is absolute or starts with "~/".
func pathsOf(text string) []string {
	if len(text) > maxDroppedPath {
		return nil
	}
	s := strings.TrimSpace(text)
	if s == "" || strings.ContainsAny(s, "\n\r\x00") {
		return nil
	}
	if strings.HasPrefix(s, "file://") {
		u, err := url.Parse(s)
		if err != nil || (u.Host != "" && u.Host != "localhost") || !strings.HasPrefix(u.Path, "/") {
			return nil
		}
		return []string{u.Path}
	}
	var out []string
	if w, ok := shellWord(s); ok && pathLike(w) {
		out = append(out, w)
	}
	if pathLike(s) && (len(out) == 0 || out[0] != s) {
		out = append(out, s)
	}
	return out
}

// pathLike reports whether s is an absolute path or one in the home folder.
func pathLike(s string) bool {
	return strings.HasPrefix(s, "/") || strings.HasPrefix(s, "~/")
}

// shellWord reads s as a shell would read one word: 'single quotes' keep
// everything, "double quotes" take \" \\ \$ and \` escapes, and a backslash
// outside quotes escapes the next character. It reports false when s is
// not exactly one word.
func shellWord(s string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(s); {
		switch c := s[i]; c {
		case ' ', '\t':
			return "", false // a second word, or spaces after the first
		case '\\':
			if i+1 == len(s) {
				return "", false
			}
			b.WriteByte(s[i+1])
			i += 2
		case '\'':
			end := strings.IndexByte(s[i+1:], '\'')
			if end < 0 {
				return "", false
			}
			b.WriteString(s[i+1 : i+1+end])
			i += end + 2
		case '"':
			i++
			for ; i < len(s) && s[i] != '"'; i++ {
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0 {
					i++
				}
				b.WriteByte(s[i])
			}
			if i == len(s) {
				return "", false
			}
			i++
		default:
			b.WriteByte(c)
			i++
		}
	}
	return b.String(), b.Len() > 0
}
