package index

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"muse/api"
	"muse/session"
)

func TestParseQuery(t *testing.T) {
	for q, want := range map[string]string{
		`zebra`:                  `"zebra"`,
		`zebra unicorn`:          `"zebra" AND "unicorn"`,
		`"exact phrase" uni*`:    `"exact phrase" AND "uni" *`,
		`a OR b c`:               `"a" OR "b" AND "c"`,
		`a NOT b`:                `"a" NOT "b"`,
		`(a OR b) AND c`:         `("a" OR "b") AND "c"`,
		`x"); DROP TABLE s; --`:  ``,
		`and or not`:             `"and" AND "or" AND "not"`,
		`col:val ^start NEAR(a)`: `"col:val" AND "^start" AND "NEAR" AND ("a")`,
	} {
		got, err := parseQuery(q)
		if err != nil {
			if q == `x"); DROP TABLE s; --` {
				continue // an unclosed quote: an error is right too
			}
			t.Errorf("%q: %v", q, err)
			continue
		}
		if got != want {
			t.Errorf("%q became %s, want %s", q, got, want)
		}
	}
}

func TestQuerySyntaxErrors(t *testing.T) {
	for q, want := range map[string]string{
		`"unclosed`:                             "quote is not closed",
		`""`:                                    "empty phrase",
		`NOT a`:                                 "NOT needs a word before it",
		`a OR`:                                  "OR at the end",
		`a AND`:                                 "AND at the end",
		`OR a`:                                  "OR needs a word before it",
		`(a b`:                                  "( is not closed",
		`a b)`:                                  ") has no (",
		`()`:                                    "holds nothing",
		`*`:                                     "a * ends a word",
		`   `:                                   "nothing to search for",
		strings.Repeat("a OR ", maxTerms) + "a": "201 words and phrases are more than the 200",
		strings.Repeat("(", maxDepth+1) + "a" + strings.Repeat(")", maxDepth+1): "more than 10 ( inside each other",
		strings.Repeat("word ", 1<<20/5):                                        "1048575 bytes, more than the 4096 a query may hold",
		strings.Repeat("x", MaxQueryBytes+1):                                    "4097 bytes",
		"zebra\x00":                                                             "NUL byte (at byte 6)",
	} {
		_, err := parseQuery(q)
		if !IsSyntax(err) || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: got %v, want a syntax error saying %q", q, err, want)
		}
	}
}

// seeded returns an index of a few sessions to search.
func seeded(t *testing.T) (*session.Store, *Index) {
	t.Helper()
	store := newStore(t)
	day := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	add := func(title, model string, at time.Time, prompt, reply string) string {
		w := session.NewWriter(store, session.Params{Model: model})
		w.SetTitle(title)
		w.Append(session.Entry{Kind: session.KindUser, Text: prompt, Time: at})
		w.Append(session.Entry{Kind: session.KindAssistant, Time: at.Add(time.Second), Message: &api.Message{Model: model, Content: []api.ContentBlock{{Type: api.BlockText, Text: reply}}}})
		w.Close()
		return w.ID()
	}
	add("zoo trip", "claude-opus", day, "tell me about the zebra", "A zebracorn is not a zebra.")
	add("garden", "claude-haiku", day.AddDate(0, 0, 10), "plant an apple tree", "Apples like sun; zebra grass too.")
	add("café", "claude-haiku", day.AddDate(0, 0, 20), "Crème brûlée recipe", "Use a torch on the CAFÉ table.")
	return store, openCurrent(t, store)
}

func TestSearch(t *testing.T) {
	_, ix := seeded(t)
	day := time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		q    Query
		want []string // the snippets' marked words, hit by hit
	}{
		{Query{Text: "zebra"}, []string{"zebra", "zebra", "zebra"}},
		{Query{Text: "zebra", Role: RoleUser}, []string{"zebra"}},
		{Query{Text: "zebra", Model: "HAIKU"}, []string{"zebra"}},
		{Query{Text: "zebra", Since: day.AddDate(0, 0, 5)}, []string{"zebra"}},
		{Query{Text: "zebra", Until: day.AddDate(0, 0, 5)}, []string{"zebra", "zebra"}},
		{Query{Text: "zebra*", Until: day.AddDate(0, 0, 5), Role: RoleAssistant}, []string{"zebracorn zebra"}},
		{Query{Text: `"not a zebra"`}, []string{"not a zebra"}}, // a phrase is marked whole, where its words come in order
		{Query{Text: "zebra NOT zebracorn", ByTime: true}, []string{"zebra", "zebra"}},
		{Query{Text: "apple OR torch", ByTime: true}, []string{"torch", "apple"}},
		{Query{Text: "cafe creme"}, []string{}},
		{Query{Text: "cafe OR creme", ByTime: true}, []string{"café", "CAFÉ", "Crème"}}, // the title first: the session's latest time
	} {
		res, err := ix.Search(c.q)
		if err != nil {
			t.Fatalf("%+v: %v", c.q, err)
		}
		var got []string
		for _, h := range res.Hits {
			var marked []string
			for _, p := range h.Snippet {
				if p.Match {
					marked = append(marked, p.Text)
				}
			}
			got = append(got, strings.Join(marked, " "))
		}
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%+v: found %q, want %q", c.q, got, c.want)
		}
	}
}

// No query, however odd, gives an error from SQLite: only syntax errors,
// or hits.
func TestOddQueriesNeverReachSQLite(t *testing.T) {
	_, ix := seeded(t)
	r := rand.New(rand.NewPCG(7, 8))
	pieces := []string{`"`, `*`, `(`, `)`, `AND`, `OR`, `NOT`, `NEAR`, `:`, `^`, `-`, `+`, `'`, `;`, `zebra`, `zeb*`, ` `, `\x00`, `é`, `{`, `}`, `col:x`}
	for range 2000 {
		var b strings.Builder
		for range 1 + r.IntN(6) {
			b.WriteString(pieces[r.IntN(len(pieces))])
			if r.IntN(2) == 0 {
				b.WriteByte(' ')
			}
		}
		if _, err := ix.Search(Query{Text: b.String()}); err != nil && !IsSyntax(err) {
			t.Fatalf("%q: %v", b.String(), err)
		}
	}
}

// snippetOf returns the snippet of the one hit of query in an index of
// one prompt, text.
func snippetOf(t *testing.T, text, query string) []Part {
	t.Helper()
	store := newStore(t)
	prompt(t, store, text)
	res, err := openCurrent(t, store).Search(Query{Text: query})
	if err != nil || len(res.Hits) != 1 {
		t.Fatalf("%s in %q: %+v, %v", query, text, res.Hits, err)
	}
	return res.Hits[0].Snippet
}

// marked returns the marked parts of a snippet, joined by |.
func marked(parts []Part) string {
	var out []string
	for _, p := range parts {
		if p.Match {
			out = append(out, p.Text)
		}
	}
	return strings.Join(out, "|")
}

// A snippet is a few words around the match, with ellipses where the
// text goes on, however long the entry or its words.
func TestSnippetWindow(t *testing.T) {
	for _, long := range []string{
		strings.Repeat("hay ", 100) + "needle" + strings.Repeat(" straw", 100),
		strings.Repeat("東京", 500) + " needle " + strings.Repeat("長い", 500), // words of 1000 runes
	} {
		parts := snippetOf(t, long, "needle")
		if all := text(parts); !strings.HasPrefix(all, "…") || !strings.HasSuffix(all, "…") {
			t.Fatalf("no ellipses: %+v", parts)
		}
		var n int
		for _, x := range parts {
			n += len([]rune(x.Text))
		}
		if got := marked(parts); got != "needle" || n > maxSnippetRunes+2 {
			t.Fatalf("%d runes, marked %q: %+v", n, got, parts)
		}
	}
}

// A phrase is marked whole where its words come in order, whatever lies
// between them (as the index reads words); its words alone are not; the
// longest phrase wins; excluded words are never marked; case and accents
// are folded as the query's.
func TestSnippetMarksPhrases(t *testing.T) {
	for _, c := range []struct{ query, text, want string }{
		{`"new york"`, "York is not New. New-York, new  York!", "New-York|new York"},
		{`new yo*`, "new yorker, yam", "new|yorker"},
		{`new OR "new york"`, "a new york bagel, new", "new york|new"},
		{`bagel NOT york`, "bagel and more", "bagel"},
		{`café`, "CAFE Café cafés", "CAFE|Café"},
		{`creme`, "Crème brûlée", "Crème"},
	} {
		if got := marked(snippetOf(t, c.text, c.query)); got != c.want {
			t.Errorf("%s in %q: marked %q, want %q", c.query, c.text, got, c.want)
		}
	}
}

// The parts of an entry are told apart in its snippet; a text cannot
// mark its own words with the bytes snippet() marks with.
func TestSnippetParts(t *testing.T) {
	if got := snippetOf(t, "a zebra\n\n  a zebra on a   beach", "zebra"); marked(got) != "zebra|zebra" || text(got) != "a zebra · a zebra on a beach" {
		t.Errorf("snippet %+v", got)
	}
	if got := snippetOf(t, "a \x02forged\x03 mark, zebra", "zebra"); marked(got) != "zebra" || strings.ContainsAny(text(got), "\x02\x03") {
		t.Errorf("snippet %+v", got)
	}
}

// A search makes the snippets of the hits it returns, not of every
// match it ranks.
func TestSnippetsOnlyOfHits(t *testing.T) {
	store := newStore(t)
	w := session.NewWriter(store, session.Params{})
	for i := range 300 {
		if _, err := w.Append(session.Entry{Kind: session.KindUser, Text: fmt.Sprintf("zebra number %d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	ix := openCurrent(t, store)
	for _, q := range []Query{{Text: "zebra", Limit: 7}, {Text: "zebra", Limit: 7, ByTime: true}, {Text: "zeb", Limit: 7, PrefixLast: true}} {
		before := ix.snippets.Load()
		res, err := ix.Search(q)
		if err != nil || len(res.Hits) != 7 {
			t.Fatalf("%+v: %d hits, %v", q, len(res.Hits), err)
		}
		if made := ix.snippets.Load() - before; made != 7 {
			t.Errorf("%+v: %d snippets made for 7 hits of 300 matches", q, made)
		}
	}
}

// sessions search and the picker find a word by its start, with accents
// folded, and find the same.
func TestPrefixLast(t *testing.T) {
	store := newStore(t)
	prompt(t, store, "the Capybära is large")
	ix := openCurrent(t, store)
	for _, q := range []string{"capy", "CAPYBA", "capybara", "capy*"} {
		res, err := ix.Search(Query{Text: q, PrefixLast: true})
		if err != nil || len(res.Hits) != 1 || marked(res.Hits[0].Snippet) != "Capybära" {
			t.Errorf("%s: %+v, %v", q, res.Hits, err)
		}
	}
	if res, err := ix.Search(Query{Text: "capy"}); err != nil || len(res.Hits) != 0 {
		t.Errorf("capy without PrefixLast: %+v, %v", res.Hits, err)
	}
}

// A hit on a branch that is not the active one names the end of its
// branch, to open, and its turn on that branch.
func TestSearchFindsEveryBranch(t *testing.T) {
	store := newStore(t)
	w := session.NewWriter(store, session.Params{})
	q1, _ := w.Append(session.Entry{Kind: session.KindUser, Text: "first question"})
	w.Append(session.Entry{Kind: session.KindAssistant, Message: &api.Message{Content: []api.ContentBlock{{Type: api.BlockText, Text: "first answer"}}}})
	w.Append(session.Entry{Kind: session.KindUser, Text: "second question"})
	a2, _ := w.Append(session.Entry{Kind: session.KindAssistant, Message: &api.Message{Content: []api.ContentBlock{{Type: api.BlockText, Text: "second answer"}}}})
	// An edit of the first question: the active branch leaves a2 behind.
	w.AppendAt(session.Entry{Kind: session.KindUser, Text: "edited question"}, q1.Parent)
	w.Close()
	ix := openCurrent(t, store)
	res, err := ix.Search(Query{Text: `"second answer"`})
	hits := res.Hits
	if err != nil || len(hits) != 1 {
		t.Fatalf("hits %+v, %v", hits, err)
	}
	if h := hits[0]; h.Entry != a2.ID || h.Leaf != a2.ID || h.Active || h.Turn != 2 {
		t.Errorf("hit %+v: want %s, on its own branch, turn 2", h, a2.ID)
	}
	res, _ = ix.Search(Query{Text: "edited"})
	hits = res.Hits
	if len(hits) != 1 || !hits[0].Active || hits[0].Turn != 1 {
		t.Errorf("hit on the active branch: %+v", hits)
	}
}

// A search may return more hits than a statement takes values.
func TestSearchManyHits(t *testing.T) {
	store := newStore(t)
	w := session.NewWriter(store, session.Params{})
	for i := range 1200 {
		if _, err := w.Append(session.Entry{Kind: session.KindUser, Text: fmt.Sprintf("zebra number %d", i)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	ix := openCurrent(t, store)
	res, err := ix.Search(Query{Text: "zebra", Limit: 5000})
	hits := res.Hits
	if err != nil || len(hits) != 1200 || res.Window != 0 {
		t.Fatalf("%d hits, %v; want 1200", len(hits), err)
	}
	seen := map[string]bool{}
	for _, h := range hits {
		seen[h.SnippetText()] = true
	}
	for i := range 1200 {
		if want := fmt.Sprintf("zebra number %d", i); !seen[want] {
			t.Fatalf("no hit %q", want)
		}
	}
}

// A word in more entries than the rank window is ranked among the newest
// of them, with or without filters, and the result says so; a search by
// time looks at them all.
func TestRankWindow(t *testing.T) {
	store := newStore(t)
	w := session.NewWriter(store, session.Params{})
	// The oldest are the most relevant: short, and the word twice.
	for i := range 8 {
		text := "zebra zebra"
		if i >= 4 {
			text = fmt.Sprintf("a long entry of many words, entry %d, with one zebra in it", i)
		}
		if _, err := w.Append(session.Entry{Kind: session.KindUser, Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	ix := openCurrent(t, store)
	for _, q := range []Query{{Text: "zebra", RankWindow: 3}, {Text: "zebra", Role: RoleUser, RankWindow: 3}} {
		res, err := ix.Search(q)
		if err != nil || res.Window != 3 || len(res.Hits) != 3 {
			t.Fatalf("%+v: %d hits, window %d, %v; want 3 hits, window 3", q, len(res.Hits), res.Window, err)
		}
		for _, h := range res.Hits {
			if !strings.Contains(h.SnippetText(), "entry 5") && !strings.Contains(h.SnippetText(), "entry 6") && !strings.Contains(h.SnippetText(), "entry 7") {
				t.Errorf("%+v: hit %q is not one of the newest three", q, h.SnippetText())
			}
		}
	}
	if res, err := ix.Search(Query{Text: "zebra", ByTime: true, RankWindow: 3}); err != nil || res.Window != 0 || len(res.Hits) != 8 {
		t.Fatalf("by time: %d hits, window %d, %v; want all 8", len(res.Hits), res.Window, err)
	}
	if res, err := ix.Search(Query{Text: "zebra", Role: RoleAssistant, RankWindow: 3}); err != nil || res.Window != 0 || len(res.Hits) != 0 {
		t.Fatalf("no assistant entries: %d hits, window %d, %v", len(res.Hits), res.Window, err)
	}
}

// The index finds what a query means: NOT binds tightest, then AND, then
// OR, each from the left, as a small evaluator here says, for random
// queries of three words over entries holding each set of them; and the
// longest and deepest queries allowed reach SQLite and work.
func TestQueryMeaning(t *testing.T) {
	store := newStore(t)
	w := session.NewWriter(store, session.Params{})
	var docs []map[string]bool
	for set := range 8 {
		doc := map[string]bool{}
		text := "filler"
		for i, word := range []string{"ant", "bee", "cow"} {
			if set&(1<<i) != 0 {
				doc[word] = true
				text += " " + word
			}
		}
		docs = append(docs, doc)
		if _, err := w.Append(session.Entry{Kind: session.KindUser, Text: text}); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	ix := openCurrent(t, store)
	r := rand.New(rand.NewPCG(3, 4))
	for range 300 {
		q := randomQuery(r, 3)
		res, err := ix.Search(Query{Text: q, Limit: 100})
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		var want []string
		for _, doc := range docs {
			ev := evaluator{toks: strings.Fields(strings.NewReplacer("(", " ( ", ")", " ) ").Replace(q)), doc: doc}
			if ev.or() {
				text := "filler"
				for _, word := range []string{"ant", "bee", "cow"} {
					if doc[word] {
						text += " " + word
					}
				}
				want = append(want, text)
			}
		}
		var got []string
		for _, h := range res.Hits {
			got = append(got, h.SnippetText())
		}
		slices.Sort(got)
		slices.Sort(want)
		if !slices.Equal(got, want) {
			t.Fatalf("%q found %q, want %q", q, got, want)
		}
	}
	for _, q := range []string{
		strings.Repeat("ant NOT ", maxTerms-1) + "bee",
		strings.Repeat("ant OR ", maxTerms-1) + "bee",
		strings.Repeat("(", maxDepth) + "ant" + strings.Repeat(")", maxDepth),
		strings.Repeat("(ant OR ", maxDepth) + "bee" + strings.Repeat(")", maxDepth),
		strings.Repeat("ant OR bee cow NOT (", maxDepth) + "bee" + strings.Repeat(")", maxDepth),
		strings.Repeat("ant OR bee OR cow AND ant NOT (", maxDepth) + "bee" + strings.Repeat(")", maxDepth),
	} {
		if _, err := ix.Search(Query{Text: q}); err != nil {
			t.Errorf("%.40q…: %v", q, err)
		}
	}
}

// randomQuery returns a query of the words ant, bee and cow, the
// operators and parentheses, that can be read, nested at most depth deep.
func randomQuery(r *rand.Rand, depth int) string {
	term := func() string {
		if depth > 0 && r.IntN(4) == 0 {
			return "(" + randomQuery(r, depth-1) + ")"
		}
		return []string{"ant", "bee", "cow"}[r.IntN(3)]
	}
	q := term()
	for range r.IntN(4) {
		q += " " + []string{"AND", "OR", "NOT", ""}[r.IntN(4)] + " " + term()
	}
	return strings.Join(strings.Fields(q), " ")
}

// evaluator says whether a document, a set of words, matches a query of
// words, AND, OR, NOT and parentheses: NOT binds tightest, then AND (or
// nothing), then OR, each from the left.
type evaluator struct {
	toks []string
	i    int
	doc  map[string]bool
}

func (e *evaluator) peek() string {
	if e.i < len(e.toks) {
		return e.toks[e.i]
	}
	return ""
}

func (e *evaluator) or() bool {
	v := e.and()
	for e.peek() == "OR" {
		e.i++
		v = e.and() || v
	}
	return v
}

func (e *evaluator) and() bool {
	v := e.not()
	for t := e.peek(); t != "" && t != "OR" && t != ")"; t = e.peek() {
		if t == "AND" {
			e.i++
		}
		v = e.not() && v
	}
	return v
}

func (e *evaluator) not() bool {
	v := e.term()
	for e.peek() == "NOT" {
		e.i++
		v = !e.term() && v
	}
	return v
}

func (e *evaluator) term() bool {
	t := e.toks[e.i]
	e.i++
	if t == "(" {
		v := e.or()
		e.i++ // )
		return v
	}
	return e.doc[t]
}

// A query FTS5 finds too deep is a syntax error, not SQLite's words.
func TestMatchError(t *testing.T) {
	if err := matchError(errors.New("SQL logic error: fts5: parser stack overflow (1)")); !IsSyntax(err) {
		t.Errorf("got %v", err)
	}
	if err := matchError(nil); err != nil {
		t.Errorf("nil became %v", err)
	}
}

// A hit in a huge entry costs no copy of it in Go: SQLite cuts the
// snippet.
func TestSnippetOfAHugeEntry(t *testing.T) {
	store := newStore(t)
	w := session.NewWriter(store, session.Params{})
	huge := "zebra " + strings.Repeat("a ", 4<<20) + "zebra"
	if _, err := w.Append(session.Entry{Kind: session.KindUser, Text: huge}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	ix := openCurrent(t, store)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	res, err := ix.Search(Query{Text: "zebra"})
	runtime.ReadMemStats(&after)
	if err != nil || len(res.Hits) != 1 || !strings.HasPrefix(res.Hits[0].SnippetText(), "zebra a a") {
		t.Fatalf("%+v, %v", res.Hits, err)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 { // 768 MB when the whole entry was read
		t.Errorf("the search allocated %d bytes for an entry of 8 MiB", grew)
	}
}

// A session's title is found as its words, on a row of its own that
// opens the session at its head, and follows a rename.
func TestTitlesAreFound(t *testing.T) {
	store := newStore(t)
	w := session.NewWriter(store, session.Params{})
	w.SetTitle("okapi stripes puzzle")
	w.Append(session.Entry{Kind: session.KindUser, Text: "hello"})
	w.Close()
	ix := openCurrent(t, store)
	res, err := ix.Search(Query{Text: "okapi"})
	if err != nil || len(res.Hits) != 1 || res.Hits[0].Label() != "title" || res.Hits[0].Entry != "" {
		t.Fatalf("%+v, %v", res.Hits, err)
	}
	if err := store.Rename(w.ID(), "Giraffe cousin notes"); err != nil {
		t.Fatal(err)
	}
	if _, err := ix.Sync(nil); err != nil {
		t.Fatal(err)
	}
	if res, err := ix.Search(Query{Text: "okapi"}); err != nil || len(res.Hits) != 0 {
		t.Errorf("the old title is still found: %+v (%v)", res.Hits, err)
	}
	if res, err := ix.Search(Query{Text: "giraffe", Role: RoleUser}); err != nil || len(res.Hits) != 0 {
		t.Errorf("a title is not the user's words: %+v (%v)", res.Hits, err)
	}
	if res, _ := ix.Search(Query{Text: "giraffe"}); len(res.Hits) != 1 || res.Hits[0].Title != "Giraffe cousin notes" {
		t.Errorf("the new title is not found: %+v", res.Hits)
	}
	// A title that is the first prompt, or its start, has no row: each
	// hit would show twice.
	w = session.NewWriter(store, session.Params{})
	w.SetTitle("tell me about the capybara, the…")
	w.Append(session.Entry{Kind: session.KindUser, Text: "tell me about the capybara, the largest rodent"})
	w.Close()
	if _, err := ix.Sync(nil); err != nil {
		t.Fatal(err)
	}
	if res, _ := ix.Search(Query{Text: "capybara"}); len(res.Hits) != 1 || res.Hits[0].Label() != RoleUser {
		t.Errorf("a title made of the prompt: %+v", res.Hits)
	}
}

// A search whose context has ended stops with the context's error, and
// leaves the index as it was for the next one.
func TestSearchContextEnds(t *testing.T) {
	_, ix := seeded(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := ix.SearchContext(ctx, Query{Text: "zebra"}); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled search gave %v", err)
	}
	if res, err := ix.Search(Query{Text: "zebra"}); err != nil || len(res.Hits) == 0 {
		t.Errorf("the next search: %+v, %v", res, err)
	}
}

// While a query is typed, its last word of three runes or more is also a
// prefix; not inside a phrase, not an operator, not a shorter word.
func TestAsTyped(t *testing.T) {
	for in, want := range map[string]string{
		"capy":        "capy*",
		"ca":          "ca",
		"capybara ho": "capybara ho",
		"hot spr":     "hot spr*",
		`"hot spr`:    `"hot spr`,
		`"hot spr"`:   `"hot spr"`,
		"zebra OR":    "zebra OR",
		"zeb*":        "zeb*",
		"(a OR zeb)":  "(a OR zeb)",
		"café·crè":    "café·crè*",
		"été":         "été*",
	} {
		if got := asTyped(in); got != want {
			t.Errorf("asTyped(%q) = %q, want %q", in, got, want)
		}
	}
}
