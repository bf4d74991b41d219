package index

// Stemming, an option of a search (Query.Stem): a word also finds the
// other forms of it that the index holds, as SQLite's porter stemmer
// tells them (whale finds whales, run running), and a hit marks the form
// it holds.
//
// The index keeps its one tokenizer, unicode61 with accents folded, and
// the stemming is done at query time: a word is replaced by the words of
// the index (fts5vocab) that the porter tokenizer, in a small database in
// memory, takes to the same stem. An index built with the porter
// tokenizer would break prefix search, which the picker runs at every
// keystroke: it holds stems, so capy* looks for capi (porter's y to i)
// and misses capybaras, and generali* misses generalization (held as
// gener). Done at query time, stemming costs no rebuild when it is turned
// on or off, and no byte of the index, and prefixes and "quoted phrases"
// keep matching exactly what was typed.

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// stemmer is the porter tokenizer of SQLite, over unicode61 as the index
// folds words, in a database in memory of one connection.
type stemmer struct {
	mu sync.Mutex // one word at a time: the table is reused
	db *sql.DB
}

// stemSchema makes the stemmer's table, and its list of stems.
const stemSchema = `
CREATE VIRTUAL TABLE w USING fts5(t, tokenize='porter unicode61 remove_diacritics 2');
CREATE VIRTUAL TABLE wv USING fts5vocab(w, 'row');
`

// maxCandidates is the most words of the index a word's forms are looked
// for among: the words that start as its stem does, in order.
const maxCandidates = 256

// newStemmer opens a stemmer.
func newStemmer() (*stemmer, error) {
	db, err := sql.Open("sqlite", "file::memory:")
	if err != nil {
		return nil, err
	}
	db.SetMaxOpenConns(1) // each connection to :memory: is a database of its own
	db.SetMaxIdleConns(1)
	db.SetConnMaxLifetime(0)
	if _, err := db.Exec(stemSchema); err != nil {
		db.Close()
		return nil, err
	}
	return &stemmer{db: db}, nil
}

// stemmer returns the index's stemmer, opened on first use.
func (ix *Index) stemmer() (*stemmer, error) {
	ix.stemMu.Lock()
	defer ix.stemMu.Unlock()
	if ix.stem == nil {
		s, err := newStemmer()
		if err != nil {
			return nil, fmt.Errorf("stemming: %w", err)
		}
		ix.stem = s
	}
	return ix.stem, nil
}

// forms returns the words of the index that have the stem of word, as
// the porter tokenizer makes them; none when word is not one word to it
// (don't is two) or no word of the index has its stem.
func (ix *Index) forms(ctx context.Context, word string) ([]string, error) {
	s, err := ix.stemmer()
	if err != nil {
		return nil, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	stems, err := s.tokens(ctx, []string{word})
	if err != nil || len(stems) != 1 {
		return nil, err
	}
	// The forms of a stem start as it does, but for its last letter
	// (happy is happi, hoping hope).
	stem := stems[0]
	from := stem
	if n := utf8.RuneCountInString(stem); n > 3 {
		_, last := utf8.DecodeLastRuneInString(stem)
		from = stem[:len(stem)-last]
	}
	cands, err := ix.vocabFrom(ctx, from, nil)
	if err != nil {
		return nil, err
	}
	if len(cands) == maxCandidates && from != stem {
		// Words that start as the stem but for its last letter filled the
		// window (a word list, identifiers): the words that start with the
		// whole stem, where most forms are, get a window of their own.
		if cands, err = ix.vocabFrom(ctx, stem, cands); err != nil {
			return nil, err
		}
	}
	if len(cands) == 0 {
		return nil, nil
	}
	return s.sameStem(ctx, word, cands)
}

// vocabFrom returns cands with, after them, the first maxCandidates words
// of the index that start with p, those in cands left out.
func (ix *Index) vocabFrom(ctx context.Context, p string, cands []string) ([]string, error) {
	terms, err := column[string](ctx, ix.db, "SELECT term FROM vocab WHERE term >= ? AND term < ? LIMIT ?", p, after(p), maxCandidates)
	if err != nil {
		return nil, err
	}
	for _, t := range terms {
		if _, dup := slices.BinarySearch(cands, t); !dup {
			cands = append(cands, t)
		}
	}
	return cands, nil
}

// after returns the least string greater than every string that starts
// with p, for a range of the words that start with it.
func after(p string) string {
	b := []byte(p)
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < 0xff {
			b[i]++
			return string(b[:i+1])
		}
	}
	return "\U0010ffff\xff" // above every word
}

// tokens returns the stems of words, as the porter tokenizer makes them,
// each once, in order.
func (s *stemmer) tokens(ctx context.Context, words []string) ([]string, error) {
	if err := s.put(ctx, words); err != nil {
		return nil, err
	}
	return column[string](ctx, s.db, "SELECT term FROM wv")
}

// sameStem returns those of cands that have the stem of word.
func (s *stemmer) sameStem(ctx context.Context, word string, cands []string) ([]string, error) {
	if err := s.put(ctx, cands); err != nil {
		return nil, err
	}
	ids, err := column[int](ctx, s.db, "SELECT rowid FROM w WHERE w MATCH ? ORDER BY rowid", quote(word))
	if err != nil {
		return nil, err
	}
	out := make([]string, len(ids))
	for k, i := range ids {
		out[k] = cands[i-1]
	}
	return out, nil
}

// put makes words the rows of the stemmer's table, from rowid 1.
func (s *stemmer) put(ctx context.Context, words []string) error {
	if _, err := s.db.ExecContext(ctx, "DELETE FROM w"); err != nil {
		return err
	}
	args := make([]any, 0, 2*len(words))
	for i, w := range words {
		args = append(args, i+1, w)
	}
	_, err := s.db.ExecContext(ctx, "INSERT INTO w(rowid, t) VALUES (?,?)"+strings.Repeat(",(?,?)", len(words)-1), args...)
	return err
}

// stemmed is the FTS5 expression of word with stemming: any of its forms
// in the index, or word itself when the index holds none.
func (ix *Index) stemmed(ctx context.Context, word string) (string, error) {
	forms, err := ix.forms(ctx, word)
	if err != nil {
		return "", fmt.Errorf("stemming %q: %w", word, err)
	}
	// The word as typed is one of them: a word is one of its own forms,
	// but the words looked among may have left it out.
	quoted := []string{quote(word)}
	for _, f := range forms {
		if f != word {
			quoted = append(quoted, quote(f))
		}
	}
	if len(quoted) == 1 {
		return quoted[0], nil
	}
	return "(" + strings.Join(quoted, " OR ") + ")", nil
}
