package cli

import (
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"muse/session"
	"muse/session/index"
	"muse/ui/sanitize"
)

// searchFlags are the options of "muse sessions search".
type searchFlags struct {
	since, until, model, role, session, sort string
	limit                                    int
	asJSON, stem                             bool
}

// searchCmd is "muse sessions search".
func (a *app) searchCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "search QUERY",
		Short: "full-text search of every session, from the index",
		Long: `Search the text of every session: titles, prompts, replies, thinking, tool calls and
their results, errors and image prompts, on every branch. The search reads
the index (index.sqlite in the cache folder; muse doctor shows where), which is
brought up to date first, and built from the sessions when it is missing.
While another program holds its lock, the search reads it as it was, and
says so.

QUERY is words, all of which an entry must hold (case and accents ignored),
each in any of its forms (whale finds whales and whaling, run running), as
SQLite's porter stemmer, made for English, tells them; --stem=false finds a
word only as typed. When they find fewer than --limit, the last word of
three letters or more finds the words it starts too (capy finds capybara),
as in the picker. With:
  "exact phrase"   the words in that order, as typed
  pre*             any word starting with pre
  a OR b           either
  a NOT b          a, without b
  a AND b, ( )     both; grouping

Hits come the most relevant first (bm25), or with --sort time the newest
first; each shows the session, the date, the role and the text around the
match, marked on a terminal. A word in more than 10,000 entries is ranked
among the newest 10,000 of them, which keeps a search of years of history
under a tenth of a second; --sort time looks at every match.

It exits 1 when nothing matched (--json then prints []), 2 for a query or
flag it cannot read.`,
		Example: `  muse sessions search zebra
  muse sessions search '"exact phrase" OR regex*' --since 7d
  muse sessions search deploy --role user --model opus --sort time --json`,
		Args: needArgs(1, "search QUERY [flags]"),
	}
	var f searchFlags
	cmd.Flags().StringVar(&f.since, "since", "", "only entries from `WHEN` on: a date (2025-06-01), a time (2025-06-01T15:04) or a duration ago (30m for minutes, 12h, 7d, 2w, 1y)")
	cmd.Flags().StringVar(&f.until, "until", "", "only entries before `WHEN`, as for --since")
	cmd.Flags().StringVar(&f.model, "model", "", "only entries of a model whose name holds `NAME`")
	cmd.Flags().StringVar(&f.role, "role", "", "only entries of `ROLE`: user or assistant")
	cmd.Flags().StringVar(&f.session, "session", "", "only the session `ID` (an id, a unique prefix or a title)")
	cmd.Flags().StringVar(&f.sort, "sort", "rank", "order of the hits, `BY` rank (most relevant first) or time (newest first)")
	cmd.Flags().IntVar(&f.limit, "limit", 50, "show at most `N` hits")
	cmd.Flags().BoolVar(&f.stem, "stem", true, "a word finds its other forms too (whale finds whales and whaling); --stem=false finds each word only as typed")
	cmd.Flags().BoolVar(&f.asJSON, "json", false, "print JSON: an array of session, title, entry, leaf, active, turn, kind, role, model, time, snippet")
	cmd.RunE = a.withStore(func(store *session.Store, args []string) int {
		return searchSessions(a.env, store, strings.Join(args, " "), f, time.Now())
	})
	return cmd
}

// searchQuery checks the flags f and makes them a query for text, with
// durations counted back from now.
func searchQuery(store *session.Store, text string, f searchFlags, now time.Time) (index.Query, error) {
	// One hit more than shown tells whether there are more.
	q := index.Query{Text: text, Model: f.model, Limit: f.limit + 1, PrefixLast: true, Stem: f.stem}
	var err error
	if q.Since, err = parseWhen(f.since, now); err != nil {
		return q, usagef("--since: %v", err)
	}
	if q.Until, err = parseWhen(f.until, now); err != nil {
		return q, usagef("--until: %v", err)
	}
	if !q.Since.IsZero() && !q.Until.IsZero() && !q.Since.Before(q.Until) {
		return q, usagef("--since %s is not before --until %s: nothing could match (--until is where the range ends, and a date there is the start of that day: for one day, --until the day after)", f.since, f.until)
	}
	switch f.role {
	case "", index.RoleUser, index.RoleAssistant:
		q.Role = f.role
	default:
		return q, usagef("--role must be user or assistant, got %q", f.role)
	}
	switch f.sort {
	case "rank", "":
	case "time":
		q.ByTime = true
	default:
		return q, usagef("--sort must be rank or time, got %q", f.sort)
	}
	if f.limit < 1 {
		return q, usagef("--limit must be at least 1, got %d", f.limit)
	}
	if f.session != "" {
		info, err := store.Find(f.session)
		if err != nil {
			return q, fmt.Errorf("--session: %w", err)
		}
		q.Session = info.ID
	}
	return q, nil
}

// parseWhen reads a date, a time or a duration ago (such as 7d); "" is
// the zero time.
func parseWhen(s string, now time.Time) (time.Time, error) {
	if s == "" {
		return time.Time{}, nil
	}
	for _, layout := range []string{time.RFC3339, "2006-01-02T15:04:05", "2006-01-02T15:04", "2006-01-02 15:04", "2006-01-02"} {
		if t, err := time.ParseInLocation(layout, s, time.Local); err == nil {
			return t, nil
		}
	}
	units := map[byte]time.Duration{'s': time.Second, 'm': time.Minute, 'h': time.Hour, 'd': 24 * time.Hour, 'w': 7 * 24 * time.Hour, 'y': 365 * 24 * time.Hour}
	if n := len(s); n >= 2 {
		if unit, ok := units[s[n-1]]; ok {
			if k, err := strconv.Atoi(s[:n-1]); err == nil && k >= 0 {
				return now.Add(-time.Duration(k) * unit), nil
			}
		}
	}
	return time.Time{}, fmt.Errorf("%q is not a date (2025-06-01), a time (2025-06-01T15:04) or a duration ago (30s, 30m for minutes, 12h, 7d, 2w, 1y)", s)
}

// openIndex opens the index of store, up to date with the journals, with
// its progress on standard error when that is a terminal.
func openIndex(env Env, store *session.Store) (*index.Index, error) {
	return openIndexWith(env, store, index.OpenCurrent)
}

// openIndexWith is openIndex, opening with open: index.OpenCurrent or
// index.OpenKept.
func openIndexWith(env Env, store *session.Store, open func(*session.Store, index.Progress) (*index.Index, error)) (*index.Index, error) {
	var progress index.Progress
	shown := false
	if env.StderrTTY {
		progress = func(done, total int) {
			if total < 200 && !shown {
				return // quick: not worth a line
			}
			shown = true
			fmt.Fprintf(env.Stderr, "\rindexing sessions: %d of %d", done, total)
		}
	}
	ix, err := open(store, progress)
	if shown {
		fmt.Fprint(env.Stderr, "\r\x1b[K")
	}
	return ix, err
}

// indexLister lists the sessions of store from its index (see
// session.Store.SetLister), opened as openIndex does, but never one built
// for this process alone (index.OpenKept): when the cache folder cannot
// hold it, it fails, and the store reads the journals. While another holds
// the index's lock, the index as it was serves, with the journals that
// changed since read anew (index.ListCurrent).
func indexLister(env Env, store *session.Store) session.Lister {
	return func() ([]session.Info, error) {
		ix, err := openIndexWith(env, store, index.OpenKept)
		if err != nil {
			return nil, err
		}
		defer ix.Close()
		if ix.Stale() {
			return ix.ListCurrent()
		}
		return ix.List()
	}
}

// indexNotes tells, on standard error, why the index that answers a
// search may miss something or was slow: another holds its lock, or its
// folder could not hold it.
func indexNotes(env Env, store *session.Store, ix *index.Index) {
	if ix.Stale() {
		fmt.Fprintln(env.Stderr, "muse: the index is busy (another program is writing it): searched as it was, so the newest changes may be missing; search again later for them")
	}
	if ix.Private() {
		fmt.Fprintf(env.Stderr, "muse: the index cannot be kept in %s: this search built one of its own from the sessions\n", sanitize.Line(store.CacheDir()))
	}
}

// hitJSON is one hit of `muse sessions search --json`.
type hitJSON struct {
	Session string    `json:"session"`
	Title   string    `json:"title"`
	Entry   string    `json:"entry"`
	Leaf    string    `json:"leaf"`
	Active  bool      `json:"active"`
	Turn    int       `json:"turn"`
	Kind    string    `json:"kind"`
	Role    string    `json:"role"`
	Model   string    `json:"model"`
	Time    time.Time `json:"time"`
	Snippet string    `json:"snippet"`
}

// searchSessions runs "muse sessions search".
func searchSessions(env Env, store *session.Store, text string, f searchFlags, now time.Time) int {
	q, err := searchQuery(store, text, f, now)
	if err != nil {
		return fail(env, err)
	}
	ix, err := openIndex(env, store)
	if index.IsBusy(err) {
		return fail(env, errors.New("the index is busy (another program is writing it) and cannot be read yet: search again in a moment"))
	}
	if err != nil {
		return fail(env, err)
	}
	defer func() { ix.Close() }()
	indexNotes(env, store, ix)
	res, err := ix.Search(q)
	if index.IsDamaged(err) {
		// Damage only a search reads (the full-text table's pages): the
		// index is built again from the journals, and asked again.
		ix.Close()
		if err = index.Remove(store); err == nil {
			if ix, err = openIndex(env, store); err != nil {
				return fail(env, err)
			}
			res, err = ix.Search(q)
		}
	}
	hits, more := res.Hits, false
	if len(hits) > f.limit {
		hits, more = hits[:f.limit], true
	}
	if index.IsSyntax(err) {
		return fail(env, usagef("%v (see muse sessions search --help)", err))
	}
	if err != nil {
		return fail(env, err)
	}
	if f.asJSON {
		out := make([]hitJSON, 0, len(hits))
		for _, h := range hits {
			out = append(out, hitJSON{Session: h.Session, Title: h.Title, Entry: h.Entry, Leaf: h.Leaf, Active: h.Active, Turn: h.Turn,
				Kind: h.Kind, Role: h.Role, Model: h.Model, Time: h.Time, Snippet: sanitize.Line(h.SnippetText())})
		}
		data, err := json.Marshal(out)
		if err != nil {
			return fail(env, err)
		}
		env.Stdout.Write(append(sanitize.JSON(data), '\n'))
		if len(hits) == 0 {
			return ExitFailed // as without --json: nothing matched
		}
		return ExitOK
	}
	if len(hits) == 0 {
		fmt.Fprintln(env.Stderr, "no matches")
		return ExitFailed
	}
	if err := writeHits(env, hits); err != nil {
		return fail(env, fmt.Errorf("write the hits: %w", err))
	}
	for _, h := range hits {
		if strings.HasSuffix(turnOf(h), "*") {
			fmt.Fprintln(env.Stderr, otherBranchNote)
			break
		}
	}
	if res.Window != 0 {
		fmt.Fprintf(env.Stderr, "over %d matched: the best of the newest %[1]d are shown; --sort time sees all\n", res.Window)
	}
	if more {
		fmt.Fprintf(env.Stderr, "showing the first %d; --limit shows more\n", f.limit)
	}
	return ExitOK
}

// writeHits writes hits: in a pipe, a table of whole lines under a header
// (SESSION DATE ROLE TURN TITLE MATCH); on a terminal, two lines a hit,
// the session, date, role, turn and title, then the snippet indented,
// each cut to the terminal's width, so that the match shows at any width.
// A turn marked * is on a branch that is not the active one.
func writeHits(env Env, hits []index.Hit) error {
	if !env.StdoutTTY {
		rows := make([][]string, 0, len(hits)+1)
		rows = append(rows, []string{"SESSION", "DATE", "ROLE", "TURN", "TITLE", "MATCH"})
		for _, h := range hits {
			rows = append(rows, []string{h.Session, h.Time.Local().Format("2006-01-02 15:04"), h.Label(), turnOf(h),
				truncate(sanitize.Line(h.Title), 40), snippetLine(h.Snippet, false)})
		}
		return writeTable(env.Stdout, rows, 0)
	}
	rows := make([][]string, 0, 2*len(hits))
	for _, h := range hits {
		rows = append(rows, []string{h.Session, h.Time.Local().Format("2006-01-02 15:04"), h.Label(), turnOf(h), sanitize.Line(h.Title)},
			[]string{"  " + snippetLine(h.Snippet, true)})
	}
	return writeTable(env.Stdout, rows, env.Width)
}

// otherBranchNote says what a turn marked * is, under hits that have one.
const otherBranchNote = "* a turn on a branch that is not the session's active one: the picker (ctrl+s, then f) opens it on that branch"

// turnOf is the turn of a hit, marked with * when it is on a branch that
// is not the active one; "-" for a title.
func turnOf(h index.Hit) string {
	if h.Kind == index.KindTitle {
		return "-"
	}
	t := strconv.Itoa(h.Turn)
	if !h.Active {
		t += "*"
	}
	return t
}

// snippetLine is a hit's snippet, sanitized; on a terminal, with its
// matches in bold and underlined, and only a few words before the first,
// so that it shows on a line cut to the terminal's width.
func snippetLine(parts []index.Part, tty bool) string {
	if tty {
		parts = index.TrimLead(parts)
	}
	var b strings.Builder
	for _, p := range parts {
		t := sanitize.Line(p.Text)
		if p.Match && tty {
			b.WriteString("\x1b[1;4m" + t + "\x1b[22;24m")
			continue
		}
		b.WriteString(t)
	}
	return b.String()
}

// listSessions runs "muse sessions list": from the index, through the
// store's Lister (see openStore), or from the journals when the index
// cannot be opened, as in a directory muse may only read.
func listSessions(env Env, store *session.Store, asJSON bool) int {
	infos, err := store.List()
	if err != nil {
		return fail(env, err)
	}
	return printSessions(env, infos, asJSON)
}
