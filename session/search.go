package session

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"muse/api"
)

// snippetRunes is about how long a Match's snippet is.
const snippetRunes = 80

// Match is a place where Search found its query.
type Match struct {
	// ID and Title name the session.
	ID, Title string
	// EntryID is the id of the entry that holds the query.
	EntryID string
	// Turn is the number of the user prompt the entry belongs to, from 1;
	// 0 before the first prompt.
	Turn int
	// Kind is the kind of the entry, such as KindUser.
	Kind string
	// Snippet is about 80 runes of the entry's text around the first hit,
	// on one line.
	Snippet string
	// Head ends the branch that holds the entry: the branch to open when
	// the match is resumed. It is the session's head for the active one.
	Head string
}

// Search finds query, ignoring case, in the prompts, the replies' text and
// thinking, the errors, the notices and the image prompts of every session,
// the most recently updated session first and the entries of each in order,
// with one Match per entry. It stops after limit matches; limit <= 0 means no
// limit. It reads one session at a time, so it holds no more than one in
// memory. Whitespace in the query matches any run of whitespace, newlines
// included. Damaged journals are skipped.
func (s *Store) Search(query string, limit int) ([]Match, error) {
	q := strings.Map(unicode.ToLower, oneLine(query))
	if q == "" {
		return nil, errors.New("search sessions: empty query")
	}
	infos, err := s.list()
	if err != nil {
		return nil, fmt.Errorf("search sessions: %w", err)
	}
	var out []Match
	for _, info := range infos {
		if info.Damaged != "" {
			continue
		}
		sess, err := s.Load(info.ID)
		if errors.Is(err, ErrNotFound) || errors.Is(err, ErrDamaged) {
			continue // changed since it was listed
		}
		if err != nil {
			return nil, fmt.Errorf("search sessions: %w", err)
		}
		out = searchSession(sess, q, out, limit)
		if limit > 0 && len(out) >= limit {
			return out[:limit], nil
		}
	}
	return out, nil
}

// searchSession appends to out a Match for each entry of sess holding q,
// which is lowercase and on one line, up to limit matches in all: the
// active branch first, then the entries only other branches hold.
func searchSession(sess *Session, q string, out []Match, limit int) []Match {
	title := sess.info().Title
	turn := 0
	onActive := make(map[string]bool, len(sess.Entries))
	for _, e := range sess.Entries {
		onActive[e.ID] = true
	}
	entries := append(slices.Clone(sess.Entries), slices.DeleteFunc(slices.Clone(sess.All), func(e Entry) bool { return onActive[e.ID] })...)
	for i := range entries {
		e := &entries[i]
		head := sess.Head
		if !onActive[e.ID] {
			head = sess.Leaf(e.ID)
			turn = userTurns(sess, head, e.ID)
		} else if e.Kind == KindUser {
			turn++
		}
		for _, text := range searchable(e) {
			if snip, ok := snippet(text, q); ok {
				out = append(out, Match{ID: sess.ID, Title: title, EntryID: e.ID, Turn: turn, Kind: e.Kind, Snippet: snip, Head: head})
				break
			}
		}
		if limit > 0 && len(out) >= limit {
			break
		}
	}
	return out
}

// userTurns counts the prompts on the branch ending at head, up to and
// including the entry id.
func userTurns(sess *Session, head, id string) int {
	pos := make(map[string]int, len(sess.All))
	for i, e := range sess.All {
		pos[e.ID] = i
	}
	n := 0
	for _, e := range branch(sess.All, pos, head) {
		if e.Kind == KindUser {
			n++
		}
		if e.ID == id {
			break
		}
	}
	return n
}

// searchable returns the texts of e that Search looks in, in order.
func searchable(e *Entry) []string {
	var texts []string
	add := func(s string) {
		if s != "" {
			texts = append(texts, s)
		}
	}
	add(e.Text)
	if e.Message != nil {
		for _, b := range e.Message.Content {
			switch b.Type {
			case api.BlockText:
				add(b.Text)
			case api.BlockThinking:
				add(b.Thinking)
			}
		}
	}
	if e.Error != nil {
		add(e.Error.Message)
		add(e.Error.Type)
		add(e.Error.Hint)
	}
	add(e.ImagePrompt)
	for _, img := range e.Images {
		add(img.RevisedPrompt)
	}
	return texts
}

// oneLine returns s on one line: runs of whitespace become single spaces.
// Escape sequences stay, whole, for the front end's sanitizer to remove.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// snippet returns about snippetRunes runes of text around the first place
// that holds q, on one line, with "…" where it was cut, and whether there is
// such a place. q is lowercase and on one line.
func snippet(text, q string) (string, bool) {
	line := oneLine(text)
	// Lowering rune by rune keeps every rune at its place.
	lower := strings.Map(unicode.ToLower, line)
	i := strings.Index(lower, q)
	if i < 0 {
		return "", false
	}
	r := []rune(line)
	start := utf8.RuneCountInString(lower[:i])
	end := start + utf8.RuneCountInString(q)
	from, to := start, end
	if room := snippetRunes - (end - start); room > 0 {
		from, to = start-room/2, end+room-room/2
		if from < 0 {
			from, to = 0, to-from
		}
		if to > len(r) {
			from, to = max(from-(to-len(r)), 0), len(r)
		}
	}
	s := strings.TrimSpace(string(r[from:to]))
	if from > 0 {
		s = "…" + s
	}
	if to < len(r) {
		s += "…"
	}
	return s, true
}
