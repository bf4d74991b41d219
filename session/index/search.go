package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
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
	// RankWindow is how many of the newest matches a search by relevance
	// ranks, at some microseconds each; 0 means DefaultRankWindow.
	RankWindow int
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

// Label names what the hit is to a reader: "image" for an image prompt,
// "tool" for tools' results, "title" for the session's title, else its
// role.
func (h Hit) Label() string {
	switch h.Kind {
	case KindTitle:
		return KindTitle
	case session.KindImage:
		return "image"
	case session.KindTool:
		return "tool"
	}
	return h.Role
}

// leadRunes is the most runes TrimLead keeps before a snippet's first
// match.
const leadRunes = 12

// TrimLead returns parts with at most leadRunes runes before the first
// match, cut with "…" at a word's start, so that the match shows early on
// a narrow line: the picker's rows, and search's on a terminal.
func TrimLead(parts []Part) []Part {
	n := leadRunes
	var lead int
	for i, p := range parts {
		if p.Match {
			if lead <= n {
				return parts
			}
			out := []Part{{Text: "…"}}
			keep := []rune(text(parts[:i]))
			lead := string(keep[len(keep)-n:])
			if sp := strings.IndexByte(lead, ' '); sp >= 0 && sp < len(lead)-1 {
				lead = lead[sp+1:] // from a word's start
			}
			out = append(out, Part{Text: lead})
			return append(out, parts[i:]...)
		}
		lead += utf8.RuneCountInString(p.Text)
	}
	return parts
}

// SnippetText is the snippet of h as plain text.
func (h Hit) SnippetText() string { return text(h.Snippet) }

// text is parts as plain text.
func text(parts []Part) string {
	var b strings.Builder
	for _, p := range parts {
		b.WriteString(p.Text)
	}
	return b.String()
}

// defaultLimit is how many hits a query without a limit returns.
const defaultLimit = 200

// Result is what a search found.
type Result struct {
	// Hits are the entries found, best first.
	Hits []Hit
	// Window, when not 0, says that more entries matched than the
	// relevance ranking looks at: the hits are the best of the newest
	// Window matches. (A search by time looks at them all.)
	Window int
}

// Search finds q.Text in the index. A query that cannot be read gives a
// *SyntaxError saying why; its text never reaches SQLite unquoted.
func (ix *Index) Search(q Query) (Result, error) {
	return ix.SearchContext(context.Background(), q)
}

// SearchContext is Search, stopped when ctx ends (SQLite is interrupted),
// with ctx's error: the picker ends the search a new keystroke replaces.
func (ix *Index) SearchContext(ctx context.Context, q Query) (Result, error) {
	p, err := parseQuery(q.Text)
	if err != nil {
		return Result{}, err
	}
	if q.Role != "" && q.Role != RoleUser && q.Role != RoleAssistant {
		return Result{}, fmt.Errorf("search: role must be %s or %s, got %q", RoleUser, RoleAssistant, q.Role)
	}
	var where []string
	args := []any{p.match}
	if !q.Since.IsZero() {
		where, args = append(where, "e.time >= ?"), append(args, nanos(q.Since))
	}
	if !q.Until.IsZero() {
		where, args = append(where, "e.time < ?"), append(args, nanos(q.Until))
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
	limit := q.Limit
	if limit <= 0 {
		limit = defaultLimit
	}
	// First the rowids of the hits, in order, reading of the entries only
	// what the filters need; then what is shown of those few. The
	// full-text table is walked first (CROSS JOIN): its matches, not all
	// the entries, newest (highest rowid) first, which it does at no cost.
	from := "texts t"
	if len(where) > 0 || q.ByTime {
		from += " CROSS JOIN entries e ON e.rowid = t.rowid"
	}
	match := "SELECT t.rowid FROM " + from + " WHERE texts MATCH ?"
	for _, w := range where {
		match += " AND " + w
	}
	var res Result
	order := "e.time DESC, t.rowid"
	if !q.ByTime {
		order = "t.rank, t.rowid"
		// Ranking costs some microseconds a match, which a common word
		// has by the hundred thousand: only the newest window are ranked,
		// found by walking them without ranking.
		window := q.RankWindow
		if window <= 0 {
			window = DefaultRankWindow
		}
		var cutoff int64
		err := ix.db.QueryRowContext(ctx, match+" ORDER BY t.rowid DESC LIMIT 1 OFFSET ?", append(args, window-1)...).Scan(&cutoff)
		switch {
		case err == nil:
			res.Window = window
			match += " AND t.rowid >= ?"
			args = append(args, cutoff)
		case !errors.Is(err, sql.ErrNoRows):
			return Result{}, matchError(queryError(err))
		}
	}
	rowids, err := ix.rowids(ctx, match+" ORDER BY "+order+" LIMIT ?", append(args, limit)...)
	if err != nil || len(rowids) == 0 {
		return res, matchError(err)
	}
	res.Hits, err = ix.hits(ctx, rowids, p)
	return res, err
}

// DefaultRankWindow is how many of the newest matches Search ranks by
// relevance unless told: some tens of milliseconds of ranking.
const DefaultRankWindow = 10_000

// rowids returns the rowids query finds.
func (ix *Index) rowids(ctx context.Context, query string, args ...any) ([]int64, error) {
	rows, err := ix.db.QueryContext(ctx, query, args...)
	if err != nil {
		return nil, queryError(err)
	}
	defer rows.Close()
	var out []int64
	for rows.Next() {
		var id int64
		if err := rows.Scan(&id); err != nil {
			return nil, queryError(err)
		}
		out = append(out, id)
	}
	if err := rows.Err(); err != nil {
		return nil, queryError(err)
	}
	return out, nil
}

// hits returns the hits of the entries rowids, in that order, with their
// snippets for p. An entry gone since its rowid was found is left out.
func (ix *Index) hits(ctx context.Context, rowids []int64, p *parsed) ([]Hit, error) {
	// A few hundred at a time: a statement takes only so many values, and
	// the texts of all the hits of a common word would not fit in memory.
	const perQuery = 500
	var hits []Hit
	for len(rowids) > 0 {
		n := min(perQuery, len(rowids))
		some, err := ix.someHits(ctx, rowids[:n], p)
		if err != nil {
			return nil, err
		}
		hits = append(hits, some...)
		rowids = rowids[n:]
	}
	return hits, nil
}

// someHits is hits for a few rowids.
func (ix *Index) someHits(ctx context.Context, rowids []int64, p *parsed) ([]Hit, error) {
	rows, err := ix.db.QueryContext(ctx, `SELECT e.rowid, e.session, s.title, e.entry, e.leaf, e.active, e.turn, e.kind, e.role, e.model, e.time, e.chunk, e.off, e.len
FROM entries e JOIN sessions s ON s.id = e.session WHERE e.rowid IN (?`+strings.Repeat(",?", len(rowids)-1)+")", int64s(rowids)...)
	if err != nil {
		return nil, queryError(err)
	}
	defer rows.Close()
	type found struct {
		hit   Hit
		where place
	}
	byRowid := make(map[int64]found, len(rowids))
	need := map[int64]int{} // chunk → how much of it the hits need
	for rows.Next() {
		var f found
		var rowid, t, chunk int64
		if err := rows.Scan(&rowid, &f.hit.Session, &f.hit.Title, &f.hit.Entry, &f.hit.Leaf, &f.hit.Active, &f.hit.Turn, &f.hit.Kind, &f.hit.Role,
			&f.hit.Model, &t, &chunk, &f.where.off, &f.where.len); err != nil {
			return nil, queryError(err)
		}
		if !session.ValidID(f.hit.Session) {
			continue // not written by muse: the journals have no such id
		}
		if f.hit.Role != RoleUser && f.hit.Role != RoleAssistant {
			f.hit.Role = RoleOther
		}
		f.hit.Time = time.Unix(0, t).UTC()
		f.where.chunk = int(chunk)
		f.where.len = min(f.where.len, snippetFrom)
		byRowid[rowid] = f
		// A text starts within its chunk's first chunkSize bytes (see
		// packTexts); a place that says otherwise is damage, or another
		// program's, and is not read: its hit has no snippet.
		if f.where.off < 0 || f.where.off >= chunkSize || f.where.len < 0 {
			continue
		}
		need[chunk] = max(need[chunk], f.where.off+f.where.len)
	}
	if err := rows.Err(); err != nil {
		return nil, queryError(err)
	}
	texts, err := ix.chunks(ctx, need)
	if err != nil {
		return nil, err
	}
	hits := make([]Hit, 0, len(byRowid))
	for _, id := range rowids {
		f, ok := byRowid[id]
		if !ok {
			continue
		}
		var text string
		if c, w := texts[int64(f.where.chunk)], f.where; w.off >= 0 && w.len >= 0 && w.off+w.len <= len(c) {
			text = string(c[w.off : w.off+w.len])
		}
		f.hit.Snippet = snippet(text, p)
		hits = append(hits, f.hit)
	}
	return hits, nil
}

// chunks returns, by id, the first need[id] bytes of the chunks need
// names, inflated: a text early in a chunk costs no inflating of the rest.
func (ix *Index) chunks(ctx context.Context, need map[int64]int) (map[int64][]byte, error) {
	out := map[int64][]byte{}
	if len(need) == 0 {
		return out, nil
	}
	ids := make([]int64, 0, len(need))
	for id := range need {
		ids = append(ids, id)
	}
	rows, err := ix.db.QueryContext(ctx, "SELECT rowid, data FROM chunks WHERE rowid IN (?"+strings.Repeat(",?", len(ids)-1)+")", int64s(ids)...)
	if err != nil {
		return nil, queryError(err)
	}
	defer rows.Close()
	for rows.Next() {
		var id int64
		var data []byte
		if err := rows.Scan(&id, &data); err != nil {
			return nil, queryError(err)
		}
		if out[id], err = inflate(data, need[id]); err != nil {
			return nil, queryError(fmt.Errorf("chunk %d: %w", id, err))
		}
	}
	if err := rows.Err(); err != nil {
		return nil, queryError(err)
	}
	return out, nil
}

// int64s returns ids as arguments of a query.
func int64s(ids []int64) []any {
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	return args
}

// matchError is queryError, but for a query FTS5 finds too deep to read,
// whatever the limits of parseQuery let through: a *SyntaxError.
func matchError(err error) error {
	if err != nil && (strings.Contains(err.Error(), "parser stack overflow") || strings.Contains(err.Error(), "expression tree is too large")) {
		return &SyntaxError{Msg: "the query is nested too deeply: write a simpler one"}
	}
	return err
}

// queryError wraps an error of SQLite while searching. The query was
// checked and quoted, so this is the index failing, not the query.
func queryError(err error) error {
	return fmt.Errorf("search the index: %w", err)
}

// List returns what a session list shows of every session the index
// holds, the most recently updated first, as session.Store.List does.
func (ix *Index) List() ([]session.Info, error) {
	// One value, the cards of all the sessions (see card.go), sorted
	// here: SQLite would walk an index of the times, and look up each
	// session from there.
	var n int
	var cards sql.NullString
	if err := ix.db.QueryRow("SELECT count(*), group_concat(card, '') FROM sessions").Scan(&n, &cards); err != nil {
		return nil, fmt.Errorf("list sessions from the index: %w", err)
	}
	out, err := parseCards(cards.String, n)
	if err != nil {
		return nil, fmt.Errorf("list sessions from the index: %w", err)
	}
	slices.SortFunc(out, newestFirst)
	return out, nil
}

// newestFirst orders sessions the most recently updated first, as
// session.Store.List does.
func newestFirst(a, b session.Info) int {
	if c := b.Updated.Compare(a.Updated); c != 0 {
		return c
	}
	return strings.Compare(b.ID, a.ID)
}

// snippetFrom is how much of an entry's text its snippet is cut from: a
// reply of 50 MB costs no more than one of 64 KiB to show. A match past it
// shows the entry's start.
const snippetFrom = 64 << 10

// snippetRunes is about how long a snippet is.
const snippetRunes = 80

// snippet returns about snippetRunes runes of text, on one line, around
// the first phrase p looks for, with the phrases it looks for marked,
// each as a whole where its words come in order.
func snippet(text string, p *parsed) []Part {
	// The parts of an entry (a prompt and its revised form, a reply and
	// its tool calls) are on lines of their own: " · " tells them apart.
	var lines []string
	for l := range strings.Lines(text) {
		if f := strings.Fields(l); len(f) > 0 {
			lines = append(lines, strings.Join(f, " "))
		}
	}
	line := strings.Join(lines, " · ")
	type span struct{ from, to int } // byte offsets in line
	var ws []span
	var folded []string
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
		ws = append(ws, span{i, j})
		folded = append(folded, fold(line[i:j]))
		i = j
	}
	var marks []span
	for i := 0; i < len(ws); {
		if n := p.longestAt(folded[i:]); n > 0 {
			marks = append(marks, span{ws[i].from, ws[i+n-1].to})
			i += n
			continue
		}
		i++
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

// longestAt returns how many words of the longest phrase p looks for that
// words begin with, or 0.
func (p *parsed) longestAt(words []string) int {
	best := 0
	for _, ph := range p.phrases {
		if len(ph.words) > best && ph.at(words) {
			best = len(ph.words)
		}
	}
	return best
}

// at reports whether words begin with the phrase ph.
func (ph phrase) at(words []string) bool {
	if len(words) < len(ph.words) {
		return false
	}
	last := len(ph.words) - 1
	for i, w := range ph.words {
		if i == last && ph.prefix {
			return strings.HasPrefix(words[i], w)
		}
		if words[i] != w {
			return false
		}
	}
	return true
}

// IsSyntax reports whether err is a query that cannot be read.
func IsSyntax(err error) bool {
	var se *SyntaxError
	return errors.As(err, &se)
}
