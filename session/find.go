package session

import (
	"fmt"
	"strings"
)

// maxCandidates is how many sessions an ambiguous Find names.
const maxCandidates = 5

// Find returns the session that query names, as for "muse -r query": the
// session with that exact id; else the one whose id starts with it; else the
// one whose title equals it, ignoring case; else the one whose title
// contains it, ignoring case. The first of these that matches anything
// decides: when it matches several sessions the error wraps ErrAmbiguous and
// names up to five of them, newest first, as "id (title)". When nothing
// matches it wraps ErrNotFound. Damaged journals match by id only.
func (s *Store) Find(query string) (Info, error) {
	q := strings.TrimSpace(query)
	if q == "" {
		return Info{}, fmt.Errorf("find session: empty query: %w", ErrNotFound)
	}
	infos, err := s.list()
	if err != nil {
		return Info{}, fmt.Errorf("find session %q: %w", query, err)
	}
	lower := strings.ToLower(q)
	for _, match := range []func(Info) bool{
		func(i Info) bool { return i.ID == q },
		func(i Info) bool { return strings.HasPrefix(i.ID, q) },
		func(i Info) bool { return i.Damaged == "" && strings.EqualFold(i.Title, q) },
		func(i Info) bool { return i.Damaged == "" && strings.Contains(strings.ToLower(i.Title), lower) },
	} {
		var found []Info
		for _, info := range infos {
			if match(info) {
				found = append(found, info)
			}
		}
		switch {
		case len(found) == 1:
			return found[0], nil
		case len(found) > 1:
			return Info{}, fmt.Errorf("find session %q: %w: %s", query, ErrAmbiguous, candidates(found))
		}
	}
	return Info{}, fmt.Errorf("find session %q: %w", query, ErrNotFound)
}

// candidates names the first few of found as "id (title)".
func candidates(found []Info) string {
	var names []string
	for _, info := range found[:min(len(found), maxCandidates)] {
		names = append(names, info.ID+" ("+info.Title+")")
	}
	s := strings.Join(names, ", ")
	if more := len(found) - maxCandidates; more > 0 {
		s += fmt.Sprintf(" and %d more", more)
	}
	return s
}
