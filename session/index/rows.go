package index

import (
	"math"
	"strings"
	"time"

	"muse/api"
	"muse/session"
)

// Roles of the entries, as search filters them.
const (
	RoleUser      = "user"
	RoleAssistant = "assistant"
	RoleOther     = "other"
)

// row is one entry as the index keeps it.
type row struct {
	entry, leaf string
	active      bool
	turn        int
	kind, role  string
	model       string
	time        int64 // nanoseconds since 1970
	text        string
}

// rowsOf returns the rows of every entry of every branch of sess.
func rowsOf(sess *session.Session) []row {
	onActive := make(map[string]bool, len(sess.Entries))
	for _, e := range sess.Entries {
		onActive[e.ID] = true
	}
	leaves := leavesOf(sess.All)
	turns := make(map[string]int, len(sess.All))
	rows := make([]row, 0, len(sess.All))
	for i := range sess.All {
		e := &sess.All[i]
		turn := turns[e.Parent]
		if e.Kind == session.KindUser || e.Kind == session.KindImage {
			turn++ // a prompt, for words or for images
		}
		turns[e.ID] = turn
		rows = append(rows, row{
			entry:  e.ID,
			leaf:   leaves[e.ID],
			active: onActive[e.ID],
			turn:   turn,
			kind:   e.Kind,
			role:   roleOf(e.Kind),
			model:  sess.ModelOf(e),
			time:   nanos(e.Time),
			text:   markless(textOf(e)),
		})
	}
	if sess.Title != "" && !titledByPrompt(sess) {
		// The title, found as the words of the session: a row of its own,
		// on no entry, opened at the session's head.
		rows = append(rows, row{kind: KindTitle, role: RoleOther, active: true, model: sess.Params.Model,
			time: nanos(sess.Updated), text: markless(sess.Title)})
	}
	return rows
}

// titledByPrompt reports whether the title of sess is its first prompt, or
// the start of it, as muse titles a session: its words are found in the
// prompt's row, and a row of its own would show every hit twice.
func titledByPrompt(sess *session.Session) bool {
	norm := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	title := norm(strings.TrimSuffix(strings.TrimSpace(sess.Title), "…"))
	for i := range sess.All {
		e := &sess.All[i]
		if e.Kind == session.KindUser || e.Kind == session.KindImage {
			prompt := e.Text
			if e.Kind == session.KindImage {
				prompt = e.ImagePrompt
			}
			return title != "" && strings.HasPrefix(norm(prompt), title)
		}
	}
	return false
}

// KindTitle is the kind of the row that holds a session's title.
const KindTitle = "title"

// The times the index can hold: those of an int64 of nanoseconds.
var (
	minTime = time.Unix(0, math.MinInt64)
	maxTime = time.Unix(0, math.MaxInt64)
)

// nanos is t in nanoseconds since 1970, a time outside the years
// 1678–2262 (a journal's, written by hand) at the nearest end, not wrapped
// around to another date.
func nanos(t time.Time) int64 {
	switch {
	case t.Before(minTime):
		return math.MinInt64
	case t.After(maxTime):
		return math.MaxInt64
	}
	return t.UnixNano()
}

// leavesOf returns, for every entry of all, the end of the latest branch
// through it, as Session.Leaf does, in one pass: an entry's leaf is that
// of its latest child, which is written after it.
func leavesOf(all []session.Entry) map[string]string {
	latest := make(map[string]string, len(all)) // parent → its latest child
	for _, e := range all {
		latest[e.Parent] = e.ID
	}
	leaves := make(map[string]string, len(all))
	var leaf func(id string, depth int) string
	leaf = func(id string, depth int) string {
		if l, ok := leaves[id]; ok {
			return l
		}
		child, ok := latest[id]
		if !ok || depth > len(all) { // no child, or a cycle a damaged journal made
			leaves[id] = id
			return id
		}
		l := leaf(child, depth+1)
		leaves[id] = l
		return l
	}
	for i := len(all) - 1; i >= 0; i-- { // children first: little recursion
		leaf(all[i].ID, 0)
	}
	return leaves
}

// roleOf says whose words an entry of kind holds.
func roleOf(kind string) string {
	switch kind {
	case session.KindUser, session.KindImage:
		return RoleUser
	case session.KindAssistant, session.KindTool:
		return RoleAssistant
	}
	return RoleOther
}

// textOf returns the searchable text of e, its parts on lines of their
// own: the prompt and the names of its attachments, the reply's text,
// thinking and tool calls, the tools' results, the error, and the image
// prompts, the server's revised ones included.
func textOf(e *session.Entry) string {
	var b strings.Builder
	add := func(s string) {
		if s == "" {
			return
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(s)
	}
	add(e.Text)
	for _, a := range e.Attachments {
		add(a.Name)
	}
	if e.Message != nil {
		for _, c := range e.Message.Content {
			switch c.Type {
			case api.BlockText:
				add(c.Text)
			case api.BlockThinking:
				add(c.Thinking)
			case api.BlockToolUse:
				add(c.Name)
				add(string(c.Input))
			}
		}
	}
	for _, r := range e.ToolResults {
		add(r.Name)
		add(r.Output)
	}
	if e.Error != nil {
		add(e.Error.Type)
		add(e.Error.Message)
		add(e.Error.Hint)
	}
	add(e.ImagePrompt)
	for _, img := range e.Images {
		add(img.RevisedPrompt)
	}
	return b.String()
}

// markless returns text without the bytes that mark a snippet's matches
// (markOpen, markClose), control characters no one types, so that a text
// cannot mark its own words.
func markless(text string) string {
	if strings.ContainsAny(text, markOpen+markClose) {
		return strings.NewReplacer(markOpen, " ", markClose, " ").Replace(text)
	}
	return text
}
