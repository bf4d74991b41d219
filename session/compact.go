package session

// Compaction drops the records of a journal that later records of the
// same journal supersede, and copies every other line byte for byte. It
// never makes a record and never changes one's time, so the rule that
// keeps it safe beside a sync engine is short:
//
//	a compacted journal holds a subset of the old one's records, and
//	everything the old one held that it dropped, it holds something
//	newer of.
//
// So another machine's copy of the old journal, merged with the compacted
// one (merge.go, which unites their records), replays to the same session
// as the old one would have with that machine's changes: the records
// compaction dropped come back from the copy, and lose again to what
// superseded them. A record superseded is:
//
//   - a title, settings or head record followed by another of its type;
//   - an entry record followed by another of the same entry;
//   - a chunk of a reply followed by an entry record of that reply.
//
// "Followed" is in the order records apply: by time, then machine (see
// order.go). The one record compaction may rewrite is a reply an older
// muse kept far over the size limit (replay.go's limit): it is written cut,
// with its time, as every muse reads it anyway.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"time"

	"muse/api"
	"muse/session/internal/fileio"
)

// compact rewrites the journal of sess, whose lock the caller holds, with
// only the records that are not superseded (see above). The new journal
// replaces the old one atomically, so a crash leaves one or the other;
// when the journal changed since sess was read from it (a sync engine put
// another machine's version in its place), it is left as it is.
func (s *Store) compact(sess *Session, cut []string) error {
	path := s.path(sess.ID)
	before, err := os.Lstat(path)
	if err != nil {
		return fmt.Errorf("compact session %s: %w", sess.ID, err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("compact session %s: %w", sess.ID, err)
	}
	out, err := compactLines(data, sess, cut)
	if err != nil {
		return fmt.Errorf("compact session %s: %w", sess.ID, err)
	}
	if now, err := os.Lstat(path); err != nil || now.Size() != before.Size() || !now.ModTime().Equal(before.ModTime()) || !os.SameFile(now, before) {
		return fmt.Errorf("compact session %s: %w", sess.ID, errors.New("the journal changed while it was compacted; left as it is"))
	}
	if err := fileio.WriteAtomic(path, out); err != nil {
		return fmt.Errorf("compact session %s: %w", sess.ID, err)
	}
	return nil
}

// keyed is a line of a journal with what compaction and merging need of
// its record: what it sets and when.
type keyed struct {
	line []byte // the line, without its newline
	typ  string
	t    time.Time
	m    string
	id   string // the entry of an entry or chunk record
	bad  bool   // not a record this muse can read
}

// keyLine reads of the line what keyed holds, without decoding the
// content of a reply.
func keyLine(line []byte) keyed {
	k := keyed{line: line}
	if !json.Valid(line) {
		k.bad = true
		return k
	}
	err := api.Fields(line, func(name string, v []byte) {
		switch name {
		case "type":
			_ = json.Unmarshal(v, &k.typ)
		case "time":
			_ = json.Unmarshal(v, &k.t)
		case "m":
			_ = json.Unmarshal(v, &k.m)
		case "entry", "chunk":
			_ = api.Fields(v, func(name string, v []byte) {
				if name == "id" {
					_ = json.Unmarshal(v, &k.id)
				}
			})
		}
	})
	if err != nil || !knownType(k.typ) {
		k.bad = true
	}
	return k
}

// splitLines returns the whole lines of data that hold something, without
// their newlines: a last line without one is still being written, and
// the lines of a git conflict are left out.
func splitLines(data []byte) [][]byte {
	var out [][]byte
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			if json.Valid(data) {
				out = append(out, data) // a whole record that lacks only its newline
			}
			break
		}
		line := bytes.TrimRight(data[:i], "\r")
		data = data[i+1:]
		if !blank(line) && !gitMarker(line) {
			out = append(out, line)
		}
	}
	return out
}

// compactLines returns the journal data with its superseded records left
// out, in the order records apply. The replies of sess named by cut
// are written as sess holds them, cut at the size limit.
func compactLines(data []byte, sess *Session, cut []string) ([]byte, error) {
	lines := splitLines(data)
	ks := make([]keyed, 0, len(lines))
	for _, l := range lines {
		ks = append(ks, keyLine(l))
	}
	ks = sortKeyed(ks)
	drop := make([]bool, len(ks))
	last := map[string]int{}     // title, params, head → its newest record
	entry := map[string]int{}    // entry id → its newest entry record
	chunks := map[string][]int{} // entry id → its chunks after that record
	isCut := map[string]bool{}
	for _, id := range cut {
		isCut[id] = true
	}
	for i, k := range ks {
		if k.bad {
			continue
		}
		switch k.typ {
		case recTitle, recParams, recHead:
			if j, ok := last[k.typ]; ok {
				drop[j] = true
			}
			last[k.typ] = i
		case recEntry:
			if j, ok := entry[k.id]; ok {
				drop[j] = true
			}
			for _, j := range chunks[k.id] {
				drop[j] = true
			}
			delete(chunks, k.id)
			entry[k.id] = i
		case recChunk:
			chunks[k.id] = append(chunks[k.id], i)
		case recHeader:
			if i > 0 {
				drop[i] = true // a second header is skipped on replay
			}
		}
	}
	var out []byte
	for i, k := range ks {
		if drop[i] {
			continue
		}
		if isCut[k.id] && (k.typ == recEntry || k.typ == recChunk) {
			if k.typ == recChunk && !lastOf(chunks[k.id], i) {
				continue // folded into the record written for its last chunk
			}
			line, err := cutRecord(sess, k)
			if err != nil {
				return nil, err
			}
			out = append(out, line...)
			continue
		}
		out = append(out, k.line...)
		out = append(out, '\n')
	}
	return out, nil
}

// lastOf reports whether i is the last of is.
func lastOf(is []int, i int) bool { return len(is) > 0 && is[len(is)-1] == i }

// cutRecord is the entry record of the reply k names as sess holds it,
// cut at the size limit, with k's time and machine.
func cutRecord(sess *Session, k keyed) ([]byte, error) {
	for i := range sess.All {
		if sess.All[i].ID == k.id {
			e := sess.All[i]
			return encodeRecord(&record{Type: recEntry, Time: k.t, M: k.m, Entry: &e})
		}
	}
	return nil, fmt.Errorf("reply %s is not in the session", k.id)
}

// sortKeyed puts ks in the order their records apply (see order.go).
func sortKeyed(ks []keyed) []keyed {
	return inApplyOrder(ks, func(k *keyed) (time.Time, string, bool) { return k.t, k.m, !k.bad })
}
