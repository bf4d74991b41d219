package index

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"muse/session"
)

// Query is a search of the index.
type Query struct {
	// Text is what to find, in the syntax of query.go.
	Text string
	// Since and Until, when set, keep the entries written in [Since, Until).
	Since, Until time.Time
	// Model keeps the entries whose model holds it, ignoring case.
	Model string
	// Role keeps the entries of RoleUser or RoleAssistant.
	Role string
	// Session keeps the entries of the session with this id.
	Session string
	// ByTime sorts the newest first; else the most relevant (bm25) first.
	ByTime bool
	// Limit is the most hits returned; 0 means 200.
	Limit int
}

// Hit is an entry that matched.
type Hit struct {
	// Session and Title name the session.
	Session, Title string
	// Entry is the id of the entry; Leaf ends the latest branch through
	// it, the one to open, and Active says it is on the active branch.
	Entry, Leaf string
	Active      bool
	// Turn is the number of the user prompt the entry belongs to, from 1.
	Turn              int
	Kind, Role, Model string
	Time              time.Time
	// Snippet is about 80 runes of the entry's text around the first
	// match, on one line, in parts: those with Match set are the words
	// found. It is the session's text, not yet sanitized.
	Snippet []Part
}

// Part is a piece of a snippet.
type Part struct {
	Text  string
	Match bool
}

// SnippetText is the snippet of h as plain text.
func (h Hit) SnippetText() string {
	var b strings.Builder
	for _, p := range h.Snippet {
		b.WriteString(p.Text)
	}
	return b.String()
}

// defaultLimit is how many hits a query without a limit returns.
const defaultLimit = 200

// Search finds q.Text in the index. A query that cannot be read gives a
// *SyntaxError saying why; its text never reaches SQLite unquoted.
func (ix *Index) Search(q Query) ([]Hit, error) {
	p, err := parseQuery(q.Text)
	if err != nil {
		return nil, err
	}
	if q.Role != "" && q.Role != RoleUser && q.Role != RoleAssistant {
		return nil, fmt.Errorf("search: role must be %s or %s, got %q", RoleUser, RoleAssistant, q.Role)
	}
	var where []string
	args := []any{p.match}
	if !q.Since.IsZero() {
		where, args = append(where, "e.time >= ?"), append(args, q.Since.UnixNano())
	}
	if !q.Until.IsZero() {
		where, args = append(where, "e.time < ?"), append(args, q.Until.UnixNano())
	}
	if q.Model != "" {
		where, args = append(where, "instr(lower(e.model), lower(?)) > 0"), append(args, q.Model)
	}
	if q.Role != "" {
		where, args = append(where, "e.role = ?"), append(args, q.Role)
	}
	if q.Session != "" {
		where, args = append(where, "e.session = ?"), append(args, q.Session)
	}
	order := "t.rank"
	if q.ByTime {
		order = "e.time DESC"
	}
	limit := q.Limit
	if limit <= 0 {
		limit = defaultLimit
	}
	args = append(args, limit)
	sql := `SELECT e.session, s.title, e.entry, e.leaf, e.active, e.turn, e.kind, e.role, e.model, e.time, e.text
FROM texts t CROSS JOIN entries e ON e.rowid = t.rowid CROSS JOIN sessions s ON s.id = e.session
WHERE texts MATCH ?`
	for _, w := range where {
		sql += " AND " + w
	}
	sql += " ORDER BY " + order + ", e.rowid LIMIT ?"
	rows, err := ix.db.Query(sql, args...)
	if err != nil {
		return nil, queryError(err)
	}
	defer rows.Close()
	var hits []Hit
	for rows.Next() {
		var h Hit
		var t int64
		var text []byte
		if err := rows.Scan(&h.Session, &h.Title, &h.Entry, &h.Leaf, &h.Active, &h.Turn, &h.Kind, &h.Role, &h.Model, &t, &text); err != nil {
			return nil, queryError(err)
		}
		h.Time = time.Unix(0, t).UTC()
		h.Snippet = snippet(unpack(text), p)
		hits = append(hits, h)
	}
	if err := rows.Err(); err != nil {
		return nil, queryError(err)
	}
	return hits, nil
}

// queryError wraps an error of SQLite while searching. The query was
// checked and quoted, so this is the index failing, not the query.
func queryError(err error) error {
	return fmt.Errorf("search the index: %w", err)
}

// List returns what a session list shows of every session the index
// holds, the most recently updated first, as session.Store.List does.
func (ix *Index) List() ([]session.Info, error) {
	rows, err := ix.db.Query("SELECT id, title, created, updated, messages, model, damaged FROM sessions ORDER BY updated DESC, id DESC")
	if err != nil {
		return nil, fmt.Errorf("list sessions from the index: %w", err)
	}
	defer rows.Close()
	var out []session.Info
	for rows.Next() {
		var in session.Info
		var created, updated int64
		if err := rows.Scan(&in.ID, &in.Title, &created, &updated, &in.Messages, &in.Model, &in.Damaged); err != nil {
			return nil, fmt.Errorf("list sessions from the index: %w", err)
		}
		in.Created, in.Updated = time.Unix(0, created).UTC(), time.Unix(0, updated).UTC()
		out = append(out, in)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list sessions from the index: %w", err)
	}
	return out, nil
}

// snippetRunes is about how long a snippet is.
const snippetRunes = 80

// snippet returns about snippetRunes runes of text, on one line, around
// the first word p looks for, with the words it looks for marked.
func snippet(text string, p *parsed) []Part {
	line := strings.Join(strings.Fields(text), " ")
	type span struct{ from, to int } // byte offsets in line
	var marks []span
	for i := 0; i < len(line); {
		r, n := utf8.DecodeRuneInString(line[i:])
		if !isWordRune(r) {
			i += n
			continue
		}
		j := i
		for j < len(line) {
			r, n := utf8.DecodeRuneInString(line[j:])
			if !isWordRune(r) {
				break
			}
			j += n
		}
		if p.wants(fold(line[i:j])) {
			marks = append(marks, span{i, j})
		}
		i = j
	}
	// The window: snippetRunes runes around the first mark.
	from, to := 0, len(line)
	if utf8.RuneCountInString(line) > snippetRunes {
		at := 0
		if len(marks) > 0 {
			at = marks[0].from
		}
		from = at
		for k := 0; k < snippetRunes/3 && from > 0; k++ {
			_, n := utf8.DecodeLastRuneInString(line[:from])
			from -= n
		}
		to = from
		for k := 0; k < snippetRunes && to < len(line); k++ {
			_, n := utf8.DecodeRuneInString(line[to:])
			to += n
		}
	}
	var parts []Part
	if from > 0 {
		parts = append(parts, Part{Text: "…"})
	}
	pos := from
	for _, m := range marks {
		if m.to <= from || m.from >= to {
			continue
		}
		a, b := max(m.from, from), min(m.to, to)
		if a > pos {
			parts = append(parts, Part{Text: line[pos:a]})
		}
		parts = append(parts, Part{Text: line[a:b], Match: true})
		pos = b
	}
	if pos < to {
		parts = append(parts, Part{Text: line[pos:to]})
	}
	if to < len(line) {
		parts = append(parts, Part{Text: "…"})
	}
	return parts
}

// wants reports whether the folded word w is one p looks for.
func (p *parsed) wants(w string) bool {
	for _, x := range p.words {
		if w == x {
			return true
		}
	}
	for _, x := range p.prefixes {
		if strings.HasPrefix(w, x) {
			return true
		}
	}
	return false
}

// IsSyntax reports whether err is a query that cannot be read.
func IsSyntax(err error) bool {
	var se *SyntaxError
	return errors.As(err, &se)
}
