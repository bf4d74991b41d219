package status

import (
	"slices"
	"strings"

	"muse/theme"
	"muse/ui/sanitize"
	"muse/ui/textfmt"
)

// ShowsNotice says the status line shows the notice: nothing more
// pressing (a tool to approve, a reply or an image job under way) holds
// it.
func ShowsNotice(s State) bool {
	return s.Notice != "" && ToolPrompt(s.Ask) == "" && s.Turn == nil && s.Image == nil
}

// noticeLines is the notice as the status line shows it, nil when the
// status line does not show it. The notice comes before the settings: it
// is on one line when it fits there beside them, or alone (the header
// still names the model); else it is wrapped at words on two lines, the
// second leaving the model (and the approval mode) its room, a third of
// the line at most, and cut after a word with "…" when there is more. A
// second line goes on the row above the status line, never onto the key
// help.
func noticeLines(s State) []string {
	if s.Notice != "" && ToolPrompt(s.Ask) == "" && (s.Turn != nil || s.Image != nil) {
		// The spinner keeps the status line: the notice goes on the row
		// above it, never hidden.
		return []string{cutAtWord(fitPaths(sanitize.Line(s.Notice), max(s.Width, 10)), max(s.Width, 10)), ""}
	}
	if !ShowsNotice(s) {
		return nil
	}
	width := max(s.Width, 10)
	text := fitPaths(sanitize.Line(s.Notice), width)
	if textfmt.Width(text) <= width {
		return []string{text}
	}
	first, rest, _ := strings.Cut(textfmt.Wrap(text, width), "\n")
	room := width
	if keep := settingsFit(modelFirst(s), width/3); keep != "" {
		room = max(width-textfmt.Width(keep)-gap, 10)
	}
	return []string{first, cutAtWord(strings.ReplaceAll(rest, "\n", " "), room)}
}

// minFitPath is the widest path fitPaths keeps whole, in columns.
const minFitPath = 32

// fitPaths shortens the paths in text (words that start with / or ~/,
// wider than minFitPath), the longest first, leaving folders out of their
// middles (see textfmt.FitPath), until text fits in width, so that a
// notice naming a file takes one row where it can; the file's name is
// kept whole. Text that fits, or that would not fit even so, is returned
// as it is.
func fitPaths(text string, width int) string {
	over := textfmt.Width(text) - width
	if over <= 0 {
		return text
	}
	words := strings.Split(text, " ")
	var paths []int
	for i, w := range words {
		// A short path stays whole: "~/…/id_rsa" saves three columns and
		// hides the folder that says why the file was left out.
		if (strings.HasPrefix(w, "/") || strings.HasPrefix(w, "~/")) && textfmt.Width(w) > minFitPath {
			paths = append(paths, i)
		}
	}
	slices.SortStableFunc(paths, func(a, b int) int { return textfmt.Width(words[b]) - textfmt.Width(words[a]) })
	for _, i := range paths {
		if over <= 0 {
			break
		}
		w := words[i]
		core := strings.TrimRight(w, ".,;:)")
		short := textfmt.FitPath(core, max(textfmt.Width(core)-over, 1))
		over -= textfmt.Width(core) - textfmt.Width(short)
		words[i] = short + w[len(core):]
	}
	if over > 0 {
		// Shortened, it would still wrap: the paths stay whole, which
		// say more than a row saved nowhere ("~/…/id_rsa is in ~/.ssh").
		return text
	}
	return strings.Join(words, " ")
}

// modelFirst is the settings up to the model: the approval mode, when it
// is on, and the model.
func modelFirst(s State) []Setting {
	list := settings(s)
	if s.Approve.Long != "" {
		return list[:2]
	}
	return list[:1]
}

// noticeRight is the settings the status line shows beside a notice, in
// the room its last line leaves: as many as fit, never the model cut.
func noticeRight(s State, lines []string) string {
	return settingsFit(settings(s), s.Width-textfmt.Width(lines[len(lines)-1])-gap)
}

// cutAtWord cuts s, plain text, to width columns, after its last word
// that fits, with "…"; a word longer than the line is cut between
// grapheme clusters.
func cutAtWord(s string, width int) string {
	if textfmt.Width(s) <= width {
		return s
	}
	first, _, _ := strings.Cut(textfmt.Wrap(s, max(width-1, 1)), "\n")
	return textfmt.TruncateWidth(strings.TrimRight(first, " ,;:·-")+"…", width)
}

// noticeMemo holds the notice's lines for the state they were made for,
// so that the layout, Update and every frame (the spinner's, a stream's
// tokens) do not wrap the notice again: it is wrapped once per change of
// what it depends on.
type noticeMemo struct {
	key   noticeKey
	lines []string
	// made counts the times the lines were made (tests count the work).
	made int
}

// noticeKey is what noticeLines depends on: the notice, the width,
// whether something more pressing holds the line, and the settings the
// notice's second line leaves room for.
type noticeKey struct {
	notice, model  string
	approve        Setting
	width          int
	waits, running bool
	set            bool
}

func keyOf(s State) noticeKey {
	return noticeKey{notice: s.Notice, model: s.Params.Model, approve: s.Approve, width: s.Width,
		waits: s.Ask.Result || s.Ask.Approval, running: s.Turn != nil || s.Image != nil, set: true}
}

// NoticeLines is the notice as the status line shows it, nil when the
// status line does not show it (see noticeLines), made once for each
// change of the notice, the width or what holds the line.
func (m Model) NoticeLines(s State) []string {
	if m.memo == nil {
		return noticeLines(s)
	}
	if k := keyOf(s); k != m.memo.key {
		m.memo.key, m.memo.lines = k, noticeLines(s)
		m.memo.made++
	}
	return m.memo.lines
}

// NoticeAbove is the first line of a notice of two, on the row above the
// status line; "" for a notice of one line.
func (m Model) NoticeAbove(st *theme.Styles, s State) string {
	if l := m.NoticeLines(s); len(l) > 1 {
		return st.Warning.Render(l[0])
	}
	return ""
}

// NoticeHeight is how many rows the notice takes above the status line.
func (m Model) NoticeHeight(s State) int {
	if len(m.NoticeLines(s)) > 1 {
		return 1
	}
	return 0
}
