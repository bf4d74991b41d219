package index

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
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
	// PrefixLast, when the words as written find fewer than Limit hits,
	// searches the last word as a prefix too (capy finds capybara), as
	// the picker and sessions search do: see asTyped.
	PrefixLast bool
	// Stem finds the other forms of each word too, as SQLite's porter
	// stemmer tells them (whale finds whales, running run), but not of a
	// "quoted phrase" or a prefix*: see stem.go.
	Stem bool
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
	// Snippet is about 80 runes of the entry's text around the best
	// matches, as FTS5's snippet() chooses them, on one line, in parts:
	// those with Match set are the words found. It is the session's
	// text, not yet sanitized.
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
func TrimLead(parts []Part) []Part { return trimLead(parts, leadRunes) }

// trimLead is TrimLead, keeping n runes.
func trimLead(parts []Part, n int) []Part {
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
	if q.Role != "" && q.Role != RoleUser && q.Role != RoleAssistant {
		return Result{}, fmt.Errorf("search: role must be %s or %s, got %q", RoleUser, RoleAssistant, q.Role)
	}
	if q.Limit <= 0 {
		q.Limit = defaultLimit
	}
	res, err := ix.search(ctx, q, false)
	// The last word as a prefix too, but not when the word alone fills
	// the page: a prefix of a common word costs FTS5 the merge of every
	// word it starts (dywq* took 50 ms where dywq takes 15), and finds no
	// better page of hits.
	if prefix := asTyped(q.Text); q.PrefixLast && err == nil && len(res.Hits) < q.Limit && prefix != q.Text {
		q.Text = prefix
		res, err = ix.search(ctx, q, true)
	}
	return res, err
}

// search is SearchContext for q as it is; typed says its last word was
// made a prefix (see parseWords).
func (ix *Index) search(ctx context.Context, q Query, typed bool) (Result, error) {
	var word func(string) (string, error)
	if q.Stem {
		word = func(w string) (string, error) { return ix.stemmed(ctx, w) }
	}
	expr, err := parseWords(q.Text, word, typed)
	if err != nil {
		return Result{}, err
	}
	var where []string
	args := []any{expr}
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
		// Its entries are a range of rowids.
		var first, n int64
		err := ix.db.QueryRowContext(ctx, "SELECT first, entries FROM sessions WHERE id = ?", q.Session).Scan(&first, &n)
		if errors.Is(err, sql.ErrNoRows) || err == nil && n == 0 {
			return Result{}, nil
		}
		if err != nil {
			return Result{}, queryError(err)
		}
		where, args = append(where, "t.rowid BETWEEN ? AND ?"), append(args, first, first+n-1)
	}
	// First the rowids of the hits, in order, reading of the entries only
	// what the filters need; then what is shown of those few, snippets
	// included. The full-text table is walked first (CROSS JOIN): its
	// matches, not all the entries, newest (highest rowid) first, which it
	// does at no cost.
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
		order = "t.rank, t.rowid" // bm25
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
	rowids, err := ix.rowids(ctx, match+" ORDER BY "+order+" LIMIT ?", append(args, q.Limit)...)
	if err != nil || len(rowids) == 0 {
		return res, matchError(err)
	}
	res.Hits, err = ix.hits(ctx, expr, rowids)
	return res, err
}

// DefaultRankWindow is how many of the newest matches Search ranks by
// relevance unless told: some tens of milliseconds of ranking.
const DefaultRankWindow = 10_000

// rowids returns the rowids query finds.
func (ix *Index) rowids(ctx context.Context, query string, args ...any) ([]int64, error) {
	ids, err := column[int64](ctx, ix.db, query, args...)
	if err != nil {
		return nil, queryError(err)
	}
	return ids, nil
}

// hits returns the hits of the entries rowids, in that order, with the
// snippets of the FTS5 expression expr. An entry gone since its rowid was
// found is left out.
func (ix *Index) hits(ctx context.Context, expr string, rowids []int64) ([]Hit, error) {
	// A few hundred at a time: a statement takes only so many values.
	const perQuery = 500
	var hits []Hit
	for len(rowids) > 0 {
		n := min(perQuery, len(rowids))
		some, err := ix.someHits(ctx, expr, rowids[:n])
		if err != nil {
			return nil, err
		}
		hits = append(hits, some...)
		rowids = rowids[n:]
	}
	return hits, nil
}

// Marks of a snippet's matches, as snippet() writes them: control
// characters that markless keeps out of the text indexed.
const (
	markOpen  = "\x02"
	markClose = "\x03"
)

// snippetTokens is how many words snippet() keeps of an entry (FTS5 keeps
// at most 64): about 80 runes of prose.
const snippetTokens = 14

// sessionOf is the first rowid of the session of the entry e (see
// schema).
const sessionOf = "(SELECT max(first) FROM sessions WHERE first <= e.rowid)"

// someHits is hits for a few rowids. Only their snippets are made: the
// statement reads only these rows of the full-text table.
func (ix *Index) someHits(ctx context.Context, expr string, rowids []int64) ([]Hit, error) {
	args := append([]any{expr}, int64s(rowids)...)
	rows, err := ix.db.QueryContext(ctx, `SELECT e.rowid, s.id, s.title, e.entry, e.leaf, e.active, e.turn, e.kind, e.role, e.model, e.time,
snippet(texts, 0, char(2), char(3), '…', `+strconv.Itoa(snippetTokens)+`)
FROM texts t CROSS JOIN entries e ON e.rowid = t.rowid JOIN sessions s ON s.first = `+sessionOf+`
WHERE texts MATCH ? AND t.rowid IN (?`+strings.Repeat(",?", len(rowids)-1)+")", args...)
	if err != nil {
		return nil, queryError(err)
	}
	defer rows.Close()
	byRowid := make(map[int64]Hit, len(rowids))
	for rows.Next() {
		var h Hit
		var rowid, t int64
		var snip string
		if err := rows.Scan(&rowid, &h.Session, &h.Title, &h.Entry, &h.Leaf, &h.Active, &h.Turn, &h.Kind, &h.Role, &h.Model, &t, &snip); err != nil {
			return nil, queryError(err)
		}
		ix.snippets.Add(1)
		if !session.ValidID(h.Session) {
			continue // not written by muse: the journals have no such id
		}
		if h.Role != RoleUser && h.Role != RoleAssistant {
			h.Role = RoleOther
		}
		h.Time = time.Unix(0, t).UTC()
		h.Snippet = parts(snip)
		byRowid[rowid] = h
	}
	if err := rows.Err(); err != nil {
		return nil, queryError(err)
	}
	hits := make([]Hit, 0, len(byRowid))
	for _, id := range rowids {
		if h, ok := byRowid[id]; ok {
			hits = append(hits, h)
		}
	}
	return hits, nil
}

// maxSnippetRunes is the most runes of a snippet, of which leadMax
// before its first match: snippet() counts words, and a word may be a
// long run of letters (a line of CJK, base64).
const (
	maxSnippetRunes = 160
	leadMax         = 40
)

// parts returns a snippet as snippet() marks it, on one line, in parts:
// the parts of an entry (a prompt and its revised form, a reply and its
// tool calls), on lines of their own, are told apart by " · ".
func parts(snip string) []Part {
	var lines []string
	for l := range strings.Lines(snip) {
		if f := strings.Fields(l); len(f) > 0 {
			lines = append(lines, strings.Join(f, " "))
		}
	}
	line := strings.Join(lines, " · ")
	var out []Part
	for match := false; line != ""; match = !match {
		mark := markOpen
		if match {
			mark = markClose
		}
		i := strings.Index(line, mark)
		if i < 0 {
			i = len(line)
		}
		if i > 0 {
			out = append(out, Part{Text: line[:i], Match: match})
		}
		line = line[min(i+len(mark), len(line)):]
	}
	return clip(trimLead(out, leadMax), maxSnippetRunes)
}

// clip returns parts cut after n runes, with "…".
func clip(parts []Part, n int) []Part {
	for i, p := range parts {
		k := utf8.RuneCountInString(p.Text)
		if k <= n {
			n -= k
			continue
		}
		cut := p.Text
		for range n {
			_, size := utf8.DecodeRuneInString(cut)
			cut = cut[size:]
		}
		p.Text = p.Text[:len(p.Text)-len(cut)]
		return append(parts[:i:i], p, Part{Text: "…"})
	}
	return parts
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
	session.SortInfos(out, ix.now())
	return out, nil
}

// IsSyntax reports whether err is a query that cannot be read.
func IsSyntax(err error) bool {
	var se *SyntaxError
	return errors.As(err, &se)
}
