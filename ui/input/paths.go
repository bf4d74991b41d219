package input

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"unicode"
	"unicode/utf8"

	tea "github.com/charmbracelet/bubbletea"

	"muse/ui/notices"
	"muse/ui/sanitize"
)

// Path completion. Tab completes the path typed after "/attach " (the rest
// of the input is the path) and the path of an @ mention at the cursor
// (see Mentions for their syntax). Listing a folder is I/O, which Update
// never does: Tab returns a command that lists it, and the input applies
// what it found (pathsListedMsg) if it still shows what it showed at the
// Tab. One match is completed (a folder with its '/', a file closed with
// its quote and a space after a mention); several extend the path to what
// they have in common and show in the hint, and Tab after Tab puts each in
// turn, as with an ambiguous /command.

// maxListed is how many names of a folder that match what is typed are
// kept to complete a path in it.
const maxListed = 2000

// maxScanned is how many entries of a folder are read, at most, to find
// the names that match: a folder larger than that completes from part of
// it, and says so when that part holds no match.
const maxScanned = 100_000

// scanBatch is how many entries are read from a folder at a time.
const scanBatch = 512

// attachPrefix starts an input whose rest is a path to complete.
const attachPrefix = "/attach "

// pathTarget is a path being typed, to complete: where it is in the input,
// and how it is written.
type pathTarget struct {
	value      string // the input's value at the Tab
	line, col  int    // the cursor: the line, and its rune in that line
	start, end int    // the runes of the line the completion replaces
	dir, base  string // the path typed: its folder, as typed ("" or ending in '/'), and the rest
	mention    bool   // an @ mention, not /attach's argument
	quoted     bool   // a mention in double quotes
}

// pathsListedMsg is what listing the folder of a path being completed
// found: the names of the entries that start as it does, sorted, a
// folder's ending in '/'.
type pathsListedMsg struct {
	seq    int
	target pathTarget
	names  []string
	cut    bool // the folder was read in part (see listPaths)
	err    error
}

// cursorAt is a place in the input: a line, and a rune in it.
type cursorAt struct{ line, col int }

// cursor is where the input's cursor is.
func (m Model) cursor() cursorAt {
	e := &m.ed
	return cursorAt{line: e.row, col: utf8.RuneCountInString(e.lines[e.row][:e.col])}
}

// pathTarget finds the path to complete: the input starts with "/attach ",
// or the word at the cursor is an @ mention.
func (m Model) pathTarget() (pathTarget, bool) {
	value := m.ed.value()
	at := m.cursor()
	t := pathTarget{value: value, line: at.line, col: at.col}
	var typed string
	if trimmed := strings.TrimLeftFunc(value, unicode.IsSpace); strings.HasPrefix(trimmed, attachPrefix) && !strings.Contains(value, "\n") {
		arg := strings.TrimLeftFunc(trimmed[len(attachPrefix):], unicode.IsSpace)
		runes := []rune(value)
		t.start, t.end = len(runes)-len([]rune(arg)), len(runes)
		typed = arg
	} else {
		lines := strings.Split(value, "\n")
		if at.line >= len(lines) {
			return t, false
		}
		runes := []rune(lines[at.line])
		before := runes[:min(at.col, len(runes))]
		start, quoted, ok := mentionStart(before)
		if !ok {
			return t, false
		}
		t.start, t.end, t.mention, t.quoted = start, len(before), true, quoted
		typed = string(before[start+1:])
		if quoted {
			typed = typed[1:]
		}
	}
	t.dir, t.base = splitTyped(typed)
	return t, true
}

// mentionStart finds the @ mention that before (a line up to the cursor)
// ends in: where its @ is, and whether it is quoted.
func mentionStart(before []rune) (start int, quoted, ok bool) {
	word := len(before)
	for word > 0 && !unicode.IsSpace(before[word-1]) {
		word--
	}
	if word < len(before) && before[word] == '@' && (word+1 == len(before) || before[word+1] != '"') {
		return word, false, true
	}
	// A quoted mention may hold spaces: the last @" that starts a word,
	// with no quote after it.
	for i := len(before) - 2; i >= 0; i-- {
		if before[i] == '"' && (i == 0 || before[i-1] != '@') {
			return 0, false, false // a closed quote
		}
		if before[i] == '@' && before[i+1] == '"' && (i == 0 || unicode.IsSpace(before[i-1])) {
			return i, true, true
		}
	}
	return 0, false, false
}

// splitTyped splits a path as typed into its folder, ending in '/' (or ""
// for the working folder), and the start of a name in it. "~" and ".."
// are folders already.
func splitTyped(typed string) (dir, base string) {
	if typed == "~" || typed == ".." {
		return typed + "/", ""
	}
	i := strings.LastIndexByte(typed, '/')
	return typed[:i+1], typed[i+1:]
}

// ExpandHome expands a path that starts with ~ (alone or followed by '/')
// to the home folder; other paths, and any path when the home folder is
// unknown, are returned as they are. It reads the environment, not the
// disk.
func ExpandHome(path string) string {
	if path != "~" && !strings.HasPrefix(path, "~/") {
		return path
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return path
	}
	return filepath.Join(home, path[1:])
}

// completePath starts completing the path t: a command lists its folder.
func (m Model) completePath(t pathTarget) (Model, tea.Cmd) {
	m.pathSeq++
	seq := m.pathSeq
	return m, func() tea.Msg {
		names, cut, err := listPaths(t.dir, t.base, maxListed, maxScanned)
		return pathsListedMsg{seq: seq, target: t, names: names, cut: cut, err: err}
	}
}

// listPaths lists the entries of the folder dir (as typed: ~ and a
// relative path work) whose names start with base: at most limit of them,
// sorted, a folder's name ending in '/'. It reads the folder's entries
// until it has limit names or has read scan entries (cut then says that
// entries were left unread), so that a name late in a large folder is
// found. Hidden entries are listed only when base starts with '.', and
// names a person cannot type (with control characters) not at all.
func listPaths(dir, base string, limit, scan int) (names []string, cut bool, err error) {
	d := ExpandHome(dir)
	if d == "" {
		d = "."
	}
	f, err := os.Open(d)
	if err != nil {
		return nil, false, err
	}
	defer f.Close()
	for read := 0; len(names) < limit; {
		if read >= scan {
			cut = true
			break
		}
		entries, err := f.ReadDir(min(scanBatch, scan-read))
		read += len(entries)
		for _, e := range entries {
			if len(names) == limit {
				break
			}
			if name, ok := listedName(d, e, base); ok {
				names = append(names, name)
			}
		}
		if errors.Is(err, io.EOF) || err == nil && len(entries) == 0 {
			break
		}
		if err != nil {
			return nil, false, err
		}
	}
	slices.Sort(names)
	return names, cut, nil
}

// listedName is the entry e of the folder d as listed, a folder's name
// ending in '/', and whether it is listed for base (see [listPaths]).
func listedName(d string, e fs.DirEntry, base string) (string, bool) {
	name := e.Name()
	if !strings.HasPrefix(name, base) || (strings.HasPrefix(name, ".") && !strings.HasPrefix(base, ".")) ||
		sanitize.Line(name) != name {
		return "", false
	}
	isDir := e.IsDir()
	if e.Type()&fs.ModeSymlink != 0 {
		if st, err := os.Stat(filepath.Join(d, name)); err == nil {
			isDir = st.IsDir()
		}
	}
	if isDir {
		name += "/"
	}
	return name, true
}

// pathsListed applies what listing found, if the input still shows what it
// showed at the Tab.
func (m Model) pathsListed(msg pathsListedMsg) (Model, tea.Cmd) {
	t := msg.target
	if msg.seq != m.pathSeq || m.ed.value() != t.value || m.cursor() != (cursorAt{t.line, t.col}) {
		return m, nil // the input changed meanwhile
	}
	switch {
	case errors.Is(msg.err, fs.ErrNotExist):
		return m, notice(fmt.Sprintf("cannot complete the path: no folder %s", t.dir))
	case errors.Is(msg.err, syscall.ENOTDIR):
		return m, notice(fmt.Sprintf("cannot complete the path: %s is not a folder", strings.TrimSuffix(t.dir, "/")))
	case msg.err != nil:
		return m, notice(fmt.Sprintf("cannot complete the path: %v", msg.err))
	}
	names := msg.names
	if t.mention { // a quote cannot be in a mention
		names = slices.DeleteFunc(slices.Clone(names), func(n string) bool { return strings.Contains(n, `"`) })
	}
	switch len(names) {
	case 0:
		where := t.dir
		if where == "" {
			where = "this folder"
		}
		if msg.cut {
			return m, notice(fmt.Sprintf("nothing in the first %d entries of %s starts with %q: type the whole name", maxScanned, where, t.base))
		}
		return m, notice(fmt.Sprintf("nothing in %s starts with %q", where, t.base))
	case 1:
		m.comp = completion{}
		value, at := t.replace(t.render(names[0], true))
		m.hintHidden = ""
		return m.setValueAt(value, at), nil
	}
	c := completion{idx: -1, names: names}
	for _, n := range names {
		value, at := t.replace(t.render(n, true))
		c.options = append(c.options, value)
		c.cursors = append(c.cursors, at)
	}
	var at cursorAt
	c.base, at = t.replace(t.render(commonPrefix(names), false))
	m.comp, m.hintHidden = c, ""
	return m.setValueAt(c.base, at), nil
}

// render writes name, in the folder of t, as t is written. The mention
// of a file, a whole name, is closed (its quote and a space); that of a
// folder, or of the part of several names they share, is left open.
func (t pathTarget) render(name string, whole bool) string {
	path := t.dir + name
	if !t.mention {
		return path
	}
	closed := whole && !strings.HasSuffix(name, "/")
	s := mention(path, t.quoted, closed)
	if closed {
		s += " "
	}
	return s
}

// replace returns t's value with text in place of the path typed, and
// where the cursor goes: after the text.
func (t pathTarget) replace(text string) (string, cursorAt) {
	lines := strings.Split(t.value, "\n")
	runes := []rune(lines[t.line])
	end := runes[t.end:]
	if strings.HasSuffix(text, " ") && len(end) > 0 && unicode.IsSpace(end[0]) {
		text = text[:len(text)-1] // a space is there already
	}
	line := string(runes[:t.start]) + text
	at := cursorAt{line: t.line, col: len([]rune(line))}
	lines[t.line] = line + string(end)
	return strings.Join(lines, "\n"), at
}

// commonPrefix is the longest prefix the names share, in whole runes.
func commonPrefix(names []string) string {
	p := names[0]
	for _, n := range names[1:] {
		i := 0
		for i < len(p) && i < len(n) && p[i] == n[i] {
			i++
		}
		p = p[:i]
	}
	for !utf8.ValidString(p) {
		p = p[:len(p)-1] // a rune cut in the middle
	}
	return p
}

// setValueAt puts value in the input with the cursor at at.
func (m Model) setValueAt(value string, at cursorAt) Model {
	m.ed.setValue(value)
	return m.moveTo(at)
}

// moveTo puts the cursor at at.
func (m Model) moveTo(at cursorAt) Model {
	m.ed.setCursor(pos{at.line, runeByte(m.ed.lines[min(at.line, len(m.ed.lines)-1)], at.col)})
	return m.fit()
}

// runeByte is where the rune n of s starts, in bytes.
func runeByte(s string, n int) int {
	for i := range s {
		if n == 0 {
			return i
		}
		n--
	}
	return len(s)
}

// notice is a command that puts text in the status bar.
func notice(text string) tea.Cmd {
	text = sanitize.Line(text)
	return func() tea.Msg { return notices.Msg{Text: text} }
}
