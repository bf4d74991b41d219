package input

import (
	"os"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"muse/ui/filewalk"
	"muse/ui/menu"
	"muse/ui/slash"
	"muse/ui/textfmt"
)

// The live menu under the input: typing "/" lists the commands with their
// help, and typing "@" the files under the working folder, both filtered
// as more is typed. ↑ and ↓ move, tab or enter take the marked item, esc
// closes it until the text changes. It opens only on a key typed: pasted
// text, a burst of keys and a prompt put back or recalled open none (and
// ↑ ↓ keep walking the prompt history). Taking a file is Tab completion: a
// mention typed and taken is the user's choice, and one in text they did
// not type stays unsent until seen (see Typed).

// maxWalked is how many entries the walk of the working folder reads: a
// folder of 100,000 files costs this much, once per opening of the menu.
const maxWalked = 20000

// maxMenuFiles is how many matching files the menu offers.
const maxMenuFiles = 50

// menuRows is the most items the menu shows at once.
const menuRows = 6

// fileCache is the walk of the working folder, shared by the copies of the
// input, changed only by Update.
type fileCache struct {
	res     filewalk.Result
	err     error
	sources []Source // listed with the files (see Sources)
	listing bool     // a walk is under way
	seq     int      // the walk under way, or that res came from
}

// filesListedMsg ends the walk numbered seq.
type filesListedMsg struct {
	seq     int
	res     filewalk.Result
	err     error
	sources []Source
}

// menuTarget is what the open menu completes: a /command (the whole
// input), or the @ mention before the cursor, from rune start to end of
// line.
type menuTarget struct {
	command          bool
	line, start, end int
	// typed is the mention's text typed after its "@".
	typed string
	// prefix is the text put in the input before a /command typed after
	// it (see CommandAfter), kept when the command is taken.
	prefix string
}

// walkFiles lists the working folder's files, and src's sources (if
// any), in a command.
func walkFiles(seq int, src Sources) tea.Cmd {
	return func() tea.Msg {
		var sources []Source
		if src != nil {
			sources = src.MentionSources()
		}
		dir, err := os.Getwd()
		if err != nil {
			return filesListedMsg{seq: seq, err: err, sources: sources}
		}
		res, err := filewalk.Walk(dir, maxWalked)
		return filesListedMsg{seq: seq, res: res, err: err, sources: sources}
	}
}

// menuOpen reports whether the menu shows.
func (m Model) menuOpen() bool { return m.menu.Open() }

// closeMenu closes the menu.
func (m Model) closeMenu() Model {
	m.menu = m.menu.SetItems(nil, "")
	m.target, m.menuWasFiles = menuTarget{}, false
	return m
}

// menuKey handles a key while the menu is open: ↑ ↓ move its mark, tab
// (and shift+tab, back) takes or moves; ok is false for any other key.
func (m Model) menuKey(k tea.KeyMsg) (Model, bool) {
	if !m.menuOpen() {
		return m, false
	}
	km := m.menu.Keys()
	switch {
	case key.Matches(k, km.Up, km.Down):
		m.menu, _ = m.menu.Update(k)
		return m, true
	case k.Type == tea.KeyShiftTab:
		m.menu, _ = m.menu.Update(tea.KeyMsg{Type: tea.KeyUp})
		return m, true
	case key.Matches(k, m.keys.Complete):
		if it, ok := m.menu.Selected(); ok {
			return m.take(it), true
		}
		return m, m.search != nil // nothing to complete in a search
	}
	return m, false
}

// take puts the item it in place of what the menu completes.
func (m Model) take(it menu.Item) Model {
	if m.search != nil {
		return m.takeSearch(it)
	}
	t := m.target
	m = m.closeMenu()
	m.comp, m.hintHidden = completion{}, ""
	if t.command {
		return m.setText(t.prefix + it.Value)
	}
	lines := strings.Split(m.ed.value(), "\n")
	if t.line >= len(lines) {
		return m
	}
	runes := []rune(lines[t.line])
	rest := string(runes[min(t.end, len(runes)):])
	text := it.Value
	if strings.HasPrefix(rest, " ") {
		text = strings.TrimSuffix(text, " ")
	}
	line := string(runes[:t.start]) + text
	at := cursorAt{line: t.line, col: utf8.RuneCountInString(line)}
	lines[t.line] = line + rest
	return m.setValueAt(strings.Join(lines, "\n"), at)
}

// Enter takes an enter the screen would send with: it takes the menu's
// marked item (a command that needs an argument waits for it; one that
// does not is then run, and a file typed whole is sent: ok false), or adds
// a line after a "\" (see ContinueLine). ok is false when the enter is the
// screen's.
func (m Model) Enter() (next Model, ok bool) {
	if m.search != nil {
		if it, has := m.menu.Selected(); has {
			return m.take(it), true
		}
		return m, true // no prompt matches: nothing to send
	}
	if it, has := m.menu.Selected(); has && m.menuOpen() {
		command, before := m.target.command, m.ed.value()
		m = m.take(it)
		if command {
			return m, needsArgument(it)
		}
		// A path typed whole is sent as it is.
		return m, strings.TrimRight(m.ed.value(), " ") != strings.TrimRight(before, " ")
	}
	return m.ContinueLine()
}

// needsArgument reports whether the command of the menu item it takes an
// argument it cannot do without: its label names one, not in brackets.
func needsArgument(it menu.Item) bool {
	_, args, _ := strings.Cut(it.Label, " ")
	return args != "" && !strings.HasPrefix(args, "[")
}

// syncMenu fits the menu to the text after a key typed: what it lists and
// what it completes, with a command that starts the walk of the working
// folder the first time files are asked for.
func (m Model) syncMenu() (Model, tea.Cmd) {
	if m.search != nil {
		return m.syncSearch(), nil
	}
	value := m.ed.value()
	if value == "" || (m.hintHidden != "" && value == m.hintHidden) {
		return m.closeMenu(), nil
	}
	prefix, rest := "", value
	if m.given != "" && strings.HasPrefix(value, m.given) {
		prefix, rest = m.given, value[len(m.given):] // a command typed after a prompt put back
	}
	if name, ok := commandName(rest); ok {
		var items []menu.Item
		for _, c := range slash.Matching(name) {
			label := "/" + c.Name
			if c.Args != "" {
				label += " " + c.Args
			}
			items = append(items, menu.Item{Label: label, Detail: c.Help, Value: "/" + c.Name + " "})
		}
		m.target, m.menuWasFiles = menuTarget{command: true, prefix: prefix}, false
		m.menu = m.menu.SetItems(items, "")
		return m, nil
	}
	e := &m.ed
	before := []rune(e.lines[e.row][:e.col])
	start, quoted, ok := mentionStart(before)
	typed := string(before[min(start+1, len(before)):])
	if !ok || quoted || strings.HasPrefix(typed, "~") || strings.HasPrefix(typed, "/") {
		return m.closeMenu(), nil // an absolute path: tab completes it
	}
	if m.target.typed != typed {
		// The best match is marked afresh as the mention changes: a
		// source marked first must not hold the mark down the list.
		m.menu = m.menu.SetItems(nil, "")
	}
	m.target = menuTarget{line: e.row, start: start, end: len(before), typed: typed}
	var cmd tea.Cmd
	fc := m.files
	if !m.menuWasFiles && !fc.listing { // the menu opens on files: list them afresh
		fc.seq++
		fc.listing = true
		cmd = walkFiles(fc.seq, m.sources)
	}
	m.menuWasFiles = true
	files, nf := fileItems(fc.res.Files, typed)
	sources, ns := sourceItems(fc.sources, typed)
	m.menu = m.menu.SetItems(mentionItems(sources, files, typed), fileNote(fc, typed, nf+ns)).Matched(nf + ns)
	return m, cmd
}

// commandName is the name typed of a /command being typed: the input is
// one word starting with "/".
func commandName(value string) (string, bool) {
	v := strings.TrimLeft(value, " ")
	if !strings.HasPrefix(v, "/") || strings.ContainsAny(v, " \t\n") {
		return "", false
	}
	return v[1:], true
}

// ranked is items of the @ menu by how well they match what is typed:
// [0] those whose name (a file's, an image's, a resource's label) starts
// with it, [1] those whose path does, [2] those that hold it.
type ranked [3][]menu.Item

// mentionItems are the @ menu's items for typed. With nothing typed yet,
// the generated images and MCP resources lead, ahead of the files: their
// names are hard to type (before, they came after the 50 files, out of
// reach but by ↑ or typing). Once something is typed, the best matches
// come first, and of matches as good, the files first: a letter brings
// the files whose names start with it, then the images and resources
// whose names do, ahead of what merely holds it.
func mentionItems(sources, files ranked, typed string) []menu.Item {
	var items []menu.Item
	for tier := range files { // with nothing typed, every item is of the first
		first, then := files[tier], sources[tier]
		if typed == "" {
			first, then = then, first
		}
		items = append(append(items, first...), then...)
	}
	return items
}

// fileItems are the files that match typed: those whose name starts with
// it, then those whose path does, then those whose path holds it (case
// aside), the shortest first in each, at most maxMenuFiles in all;
// matched counts all that match, a name no mention can hold aside.
func fileItems(files []string, typed string) (items ranked, matched int) {
	q := strings.ToLower(typed)
	var paths [3][]string
	for _, f := range files {
		lf := strings.ToLower(f)
		base := lf[strings.LastIndexByte(lf, '/')+1:]
		switch {
		case strings.HasPrefix(base, q):
			paths[0] = append(paths[0], f)
		case strings.HasPrefix(lf, q):
			paths[1] = append(paths[1], f)
		case strings.Contains(lf, q):
			paths[2] = append(paths[2], f)
		}
	}
	for tier, r := range paths {
		slices.SortStableFunc(r, func(a, b string) int { return len(a) - len(b) })
		for _, f := range r {
			mention := Mention(f)
			if mention == "" {
				continue // a name a mention cannot hold
			}
			if matched < maxMenuFiles {
				items[tier] = append(items[tier], menu.Item{Label: f, Value: mention + " "})
			}
			matched++
		}
	}
	return items, matched
}

// fileNote is the line under the files: the walk under way or failed, or
// cut short, or nothing found.
func fileNote(fc *fileCache, typed string, found int) string {
	switch {
	case fc.listing && len(fc.res.Files) == 0:
		return "listing the files here…"
	case fc.err != nil:
		return "cannot list the files here: " + fc.err.Error()
	case fc.res.Cut:
		return "the first " + textfmt.Plural(len(fc.res.Files), "file") + " only · tab completes any path"
	case found == 0:
		return "no file here matches " + typed
	}
	return ""
}

// filesListed takes the walk's files, and shows them if the menu still
// lists files.
func (m Model) filesListed(msg filesListedMsg) (Model, tea.Cmd) {
	fc := m.files
	if msg.seq != fc.seq {
		return m, nil
	}
	fc.res, fc.err, fc.listing, fc.sources = msg.res, msg.err, false, msg.sources
	if m.menuOpen() && !m.target.command {
		return m.syncMenu()
	}
	return m, nil
}
