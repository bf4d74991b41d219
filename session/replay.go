package session

// Replaying a journal applies its records in order. Entry records, nearly all
// of a journal, are not decoded as they are read: a cheap look at the start
// of the line gives the entry's id and the record's time, which is enough to
// place the entry, and the line is kept. A reply checkpointed while it
// streamed has many records, of which only the last counts, so only that one
// is decoded; and the kept records are decoded in parallel at the end.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sync"
	"time"
	"unicode/utf8"

	"muse/api"
)

// line is one line of a journal as read by readLine.
type line struct {
	data    []byte // the line without its newline; empty when tooLong
	size    int    // bytes read, newline included
	newline bool   // the line ended in a newline
	tooLong bool   // the line held more than max bytes, which were discarded
}

// readLine reads the next line from r into buf[:0], keeping at most max bytes
// of it. It returns io.EOF with the last line when that has no newline, and
// with an empty line at the end of the input.
func readLine(r *bufio.Reader, buf []byte, max int) (line, error) {
	l := line{data: buf[:0]}
	for {
		chunk, err := r.ReadSlice('\n')
		l.size += len(chunk)
		if err == nil {
			chunk = chunk[:len(chunk)-1]
			l.newline = true
		}
		if !l.tooLong {
			if len(l.data)+len(chunk) > max {
				l.tooLong = true
				l.data = l.data[:0]
			} else {
				l.data = append(l.data, chunk...)
			}
		}
		switch {
		case err == nil:
			return l, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		default:
			return l, err
		}
	}
}

// replay rebuilds a session from the journal in r. id is the session's id as
// named by the journal's file; it wins over the id in the header. Damage that
// leaves a usable session is reported in its Warnings; a journal with neither
// a header nor any readable record is a *damageError. A reply still streaming
// when the journal ends was cut short by a crash: it is marked interrupted.
func replay(r io.Reader, id string) (*Session, error) {
	rp := replayer{
		sess:    &Session{ID: id},
		index:   make(map[string]int),
		pending: make(map[string]*pendingEntry),
	}
	br := readers.Get().(*bufio.Reader)
	br.Reset(r)
	defer func() {
		br.Reset(nil)
		readers.Put(br)
	}()
	var buf []byte
	for n := 1; ; n++ {
		l, err := readLine(br, buf, maxLine)
		buf = l.data
		rp.size += int64(l.size)
		if err != nil && err != io.EOF {
			return nil, fmt.Errorf("read journal: %w", err)
		}
		if l.size == 0 {
			break
		}
		switch {
		case l.tooLong && !l.newline, !l.newline && !blank(l.data) && !json.Valid(l.data):
			rp.warn(n, "dropped an unfinished last record (%d bytes)", l.size)
		case l.tooLong:
			rp.warn(n, "line %d: skipped a record larger than %d MiB (%d bytes)", n, maxLine>>20, l.size)
		case blank(l.data):
		default:
			rp.line(n, l.data)
		}
		if err == io.EOF {
			break
		}
	}
	return rp.finish()
}

// readers are the buffered readers of replay, reused: List reads many
// journals.
var readers = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 64<<10) }}

// replayer holds the state of replay.
type replayer struct {
	sess      *Session
	index     map[string]int           // entry id → position in sess.Entries
	pending   map[string]*pendingEntry // entries whose records are not decoded yet, by id
	started   bool                     // a non-blank line was seen
	header    bool                     // a valid header was read
	problem   string                   // why the first line is not a valid header
	records   int                      // records applied, header and pending entries aside
	firstTime time.Time                // time of the first record with one
	warnings  []string                 // warnings about the header, shown first
	lineWarns []lineWarning            // warnings about lines
	size      int64                    // bytes read
	arena     []byte                   // where keep copies pending records
	slab      []pendingEntry           // where deferEntry takes new pending entries from
	slabSize  int                      // the size of the last slab
}

// lineWarning is a warning about line n of the journal.
type lineWarning struct {
	n   int
	msg string
}

// pendingEntry is an entry whose records are kept undecoded until the end of
// the replay, when the newest that decodes is applied.
type pendingEntry struct {
	// fresh means the entry was added by these records: it goes away if none
	// of them decodes. Otherwise the decoded entry at its position stays.
	fresh bool
	// last is the newest record of the entry.
	last pendingRecord
	// older are earlier records, oldest first, kept only while the newer
	// ones might not decode.
	older []pendingRecord
}

// pendingRecord is one undecoded entry record: line n of the journal.
type pendingRecord struct {
	n    int
	data []byte
	// valid means the record is known to be valid JSON. The first record of
	// an entry is not checked, to save the time.
	valid bool
}

// trim drops the older records of p that can no longer count: p.last is
// valid JSON, so it will almost surely decode; should it not, the newest
// older record that may be valid is kept to fall back on, with the records
// after it. Of the checkpoints of a reply, at most two are then kept.
func (p *pendingEntry) trim() {
	for i := len(p.older) - 1; i >= 0; i-- {
		if r := p.older[i]; r.valid || i == 0 {
			if i > 0 {
				n := copy(p.older, p.older[i:])
				clear(p.older[n:])
				p.older = p.older[:n]
			}
			return
		}
	}
}

func blank(b []byte) bool { return len(bytes.TrimSpace(b)) == 0 }

// warn notes a warning about line n.
func (rp *replayer) warn(n int, format string, args ...any) {
	rp.lineWarns = append(rp.lineWarns, lineWarning{n, fmt.Sprintf(format, args...)})
}

// line applies line n of the journal.
func (rp *replayer) line(n int, data []byte) {
	first := !rp.started
	rp.started = true
	if id, t, ok := entryPrefix(data); ok {
		if first {
			rp.problem = fmt.Sprintf("line %d is a %q record", n, recEntry)
		}
		rp.deferEntry(n, id, data)
		rp.touch(t)
		return
	}
	var rec record
	if err := json.Unmarshal(data, &rec); err != nil {
		var head struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(data, &head) == nil && head.Type != "" && !knownType(head.Type) {
			return // a record of a newer version; its fields may mean anything
		}
		if first {
			rp.problem = err.Error()
			return
		}
		rp.warn(n, "line %d: skipped a corrupt record: %v", n, err)
		return
	}
	if first && rec.Type != recHeader {
		rp.problem = fmt.Sprintf("line %d is a %q record", n, rec.Type)
	}
	switch rec.Type {
	case recHeader:
		if !first {
			rp.warn(n, "line %d: skipped a second header", n)
			return
		}
		rp.applyHeader(&rec)
		return
	case recEntry:
		if rec.Entry == nil {
			rp.warn(n, "line %d: skipped an entry record without an entry", n)
			return
		}
		rp.putEntry(*rec.Entry)
	case recTitle:
		if rec.Title == nil {
			rp.warn(n, "line %d: skipped a title record without a title", n)
			return
		}
		rp.sess.Title = *rec.Title
	case recParams:
		if rec.Params == nil {
			rp.warn(n, "line %d: skipped a params record without params", n)
			return
		}
		rp.sess.Params = *rec.Params
	case recRetract:
		rp.sess.Entries = removeEntries(rp.sess.Entries, rec.Retract)
		for _, id := range rec.Retract {
			delete(rp.pending, id)
		}
		rp.index = make(map[string]int, len(rp.sess.Entries))
		for i, e := range rp.sess.Entries {
			if e.ID != "" {
				rp.index[e.ID] = i
			}
		}
	default:
		return // unknown types are skipped silently
	}
	rp.records++
	rp.touch(rec.Time)
}

// entryPrefixes are how an entry record written by encodeRecord starts: its
// type, its time and the start of its entry, whose first field is the id.
var (
	entryPrefix1 = []byte(`{"type":"entry","time":"`)
	entryPrefix2 = []byte(`,"entry":{"id":"`)
)

// entryPrefix returns the entry id and the time of the record on data when
// it starts as encodeRecord writes an entry record. It checks no more than
// that start: the rest of the record is checked when it is decoded.
func entryPrefix(data []byte) (id string, t time.Time, ok bool) {
	rest, ok := bytes.CutPrefix(data, entryPrefix1)
	if !ok {
		return "", time.Time{}, false
	}
	i := bytes.IndexByte(rest, '"')
	if i < 0 || bytes.IndexByte(rest[:i], '\\') >= 0 || t.UnmarshalText(rest[:i]) != nil {
		return "", time.Time{}, false
	}
	if rest, ok = bytes.CutPrefix(rest[i+1:], entryPrefix2); !ok {
		return "", time.Time{}, false
	}
	i = bytes.IndexByte(rest, '"')
	if i <= 0 || len(rest) < i+2 || (rest[i+1] != ',' && rest[i+1] != '}') || !plainString(rest[:i]) {
		return "", time.Time{}, false
	}
	return string(rest[:i]), t, true
}

// plainString reports whether b, the inside of a JSON string, means itself:
// valid UTF-8 without escapes or control characters.
func plainString(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c == '\\' || c == '"' {
			return false
		}
	}
	return utf8.Valid(b)
}

// deferEntry keeps the entry record on line n, for the entry id, to be
// decoded at the end. The entry takes its place in the session now.
func (rp *replayer) deferEntry(n int, id string, data []byte) {
	rec := pendingRecord{n: n, data: rp.keep(data)}
	if p := rp.pending[id]; p != nil {
		rec.valid = json.Valid(rec.data)
		p.older = append(p.older, p.last)
		p.last = rec
		if rec.valid {
			p.trim()
		}
		return
	}
	if len(rp.slab) == 0 {
		rp.slabSize = min(max(2*rp.slabSize, 16), 256)
		rp.slab = make([]pendingEntry, rp.slabSize)
	}
	p := &rp.slab[0]
	rp.slab = rp.slab[1:]
	p.last = rec
	rp.pending[id] = p
	if _, ok := rp.index[id]; !ok {
		p.fresh = true
		rp.index[id] = len(rp.sess.Entries)
		rp.sess.Entries = append(rp.sess.Entries, Entry{ID: id})
	}
}

// keep returns a copy of data, carved from a larger buffer, so that the
// pending records, thousands of small ones, cost few allocations. The
// buffers start small, for the many short journals List reads, and double
// up to 256 KiB.
func (rp *replayer) keep(data []byte) []byte {
	const maxChunk = 256 << 10
	if len(data) > maxChunk/4 {
		return bytes.Clone(data)
	}
	if cap(rp.arena)-len(rp.arena) < len(data) {
		size := min(max(2*cap(rp.arena), 8<<10), maxChunk)
		rp.arena = make([]byte, 0, max(size, len(data)))
	}
	start := len(rp.arena)
	rp.arena = append(rp.arena, data...)
	return rp.arena[start:len(rp.arena):len(rp.arena)]
}

func (rp *replayer) applyHeader(rec *record) {
	rp.header = true
	s := rp.sess
	if rec.ID != s.ID {
		rp.warnings = append(rp.warnings, fmt.Sprintf("the header names session %q; using %q from the file name", rec.ID, s.ID))
	}
	if rec.V > formatVersion {
		rp.warnings = append(rp.warnings, fmt.Sprintf("written by a newer muse (journal format %d); records it added may be missing", rec.V))
	}
	s.Created = rec.Time
	if rec.Created != nil && !rec.Created.IsZero() {
		s.Created = *rec.Created
	}
	if rec.Params != nil {
		s.Params = *rec.Params
	}
	s.Updated = s.Created
	rp.touch(rec.Time)
}

// touch notes the time of an applied record: the session was updated then.
func (rp *replayer) touch(t time.Time) {
	if t.IsZero() {
		return
	}
	if rp.firstTime.IsZero() {
		rp.firstTime = t
	}
	rp.sess.Updated = t
}

// removeEntries returns entries without those whose ID is in ids.
func removeEntries(entries []Entry, ids []string) []Entry {
	drop := make(map[string]bool, len(ids))
	for _, id := range ids {
		drop[id] = true
	}
	out := entries[:0]
	for _, e := range entries {
		if !drop[e.ID] {
			out = append(out, e)
		}
	}
	return out
}

// putEntry adds e, or replaces the entry with the same id, which a later
// record may no longer leave pending.
func (rp *replayer) putEntry(e Entry) {
	s := rp.sess
	if i, ok := rp.index[e.ID]; ok && e.ID != "" {
		s.Entries[i] = e
		delete(rp.pending, e.ID)
		return
	}
	if e.ID != "" {
		rp.index[e.ID] = len(s.Entries)
	}
	s.Entries = append(s.Entries, e)
}

// interrupt marks e, a reply still streaming at the end of the journal, as
// cut short by a crash. Its tool calls may have been cut too, and were never
// run: they are marked truncated, so that they are not sent again.
func interrupt(e *Entry) {
	e.Status = StatusInterrupted
	if e.Message == nil {
		return
	}
	for i, b := range e.Message.Content {
		if _, ok := e.Truncated[i]; ok || b.Type != api.BlockToolUse {
			continue
		}
		if e.Truncated == nil {
			e.Truncated = make(map[int]string)
		}
		e.Truncated[i] = b.PartialInput
		if b.PartialInput == "" && len(b.Input) > 0 && string(b.Input) != "{}" {
			e.Truncated[i] = string(b.Input)
		}
	}
}

// resolved is the outcome of decoding a pending entry.
type resolved struct {
	id    string
	pos   int
	entry *Entry        // nil when no version decoded
	warns []lineWarning // the versions that did not decode
}

// resolve decodes the pending entries, in parallel when there are many, and
// puts each in its place; one none of whose records decodes is dropped, or
// keeps the entry decoded before them.
func (rp *replayer) resolve() {
	if len(rp.pending) == 0 {
		return
	}
	jobs := make([]resolved, 0, len(rp.pending))
	for id := range rp.pending {
		jobs = append(jobs, resolved{id: id, pos: rp.index[id]})
	}
	decodeAll(jobs, rp.pending)
	drop := []string(nil)
	for _, j := range jobs {
		rp.lineWarns = append(rp.lineWarns, j.warns...)
		switch {
		case j.entry != nil:
			rp.sess.Entries[j.pos] = *j.entry
			rp.records++
		case rp.pending[j.id].fresh:
			drop = append(drop, j.id)
		}
	}
	if len(drop) > 0 {
		rp.sess.Entries = removeEntries(rp.sess.Entries, drop)
	}
	rp.pending = nil
}

// decodeAll decodes the newest version of each job's pending entry that
// decodes, spreading the jobs over the processors when there are many.
func decodeAll(jobs []resolved, pending map[string]*pendingEntry) {
	const perWorker = 64 // fewer jobs than this are not worth a goroutine
	workers := min(runtime.GOMAXPROCS(0), (len(jobs)+perWorker-1)/perWorker)
	if workers <= 1 {
		for i := range jobs {
			decodePending(&jobs[i], pending[jobs[i].id])
		}
		return
	}
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(jobs); i += workers {
				decodePending(&jobs[i], pending[jobs[i].id])
			}
		})
	}
	wg.Wait()
}

// decodePending tries the versions of p from the newest back, noting a
// warning for each that does not decode, until one does.
func decodePending(j *resolved, p *pendingEntry) {
	for i := len(p.older); i >= 0; i-- {
		v := p.last
		if i < len(p.older) {
			v = p.older[i]
		}
		var rec record
		err := decodeEntry(v.data, &rec)
		switch {
		case err != nil:
			j.warns = append(j.warns, lineWarning{v.n, fmt.Sprintf("line %d: skipped a corrupt record: %v", v.n, err)})
		case rec.Type != recEntry || rec.Entry == nil || rec.Entry.ID != j.id:
			j.warns = append(j.warns, lineWarning{v.n, fmt.Sprintf("line %d: skipped a corrupt record: its fields contradict its start", v.n)})
		default:
			j.entry = rec.Entry
			return
		}
	}
}

func (rp *replayer) finish() (*Session, error) {
	rp.resolve()
	s := rp.sess
	if !rp.header {
		reason := "no header"
		if rp.problem != "" {
			reason = "no valid header (" + rp.problem + ")"
		}
		if rp.records == 0 {
			switch {
			case rp.size == 0:
				reason = "empty file"
			case !rp.started:
				reason = "no complete record"
			}
			return nil, &damageError{reason: reason}
		}
		rp.warnings = append(rp.warnings, reason+"; recovered the session from its other records")
		s.Created = rp.firstTime
		if t, ok := idTime(s.ID); ok && s.Created.IsZero() {
			s.Created = t
		}
	}
	for i := range s.Entries {
		if s.Entries[i].Status == StatusStreaming {
			interrupt(&s.Entries[i])
		}
	}
	slices.SortStableFunc(rp.lineWarns, func(a, b lineWarning) int { return a.n - b.n })
	for _, w := range rp.lineWarns {
		s.Warnings = append(s.Warnings, w.msg)
	}
	if len(rp.warnings) > 0 {
		s.Warnings = append(rp.warnings, s.Warnings...)
	}
	return s, nil
}
