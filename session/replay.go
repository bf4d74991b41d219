package session

// Replaying a journal reads its lines, decodes them with encoding/json (in
// parallel when there are many), and applies the records in order.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"muse/api"
	"muse/session/internal/fileio"
)

// journalSize is what replay learns of a journal's size: all its bytes, and
// those of the records that still count (the others are superseded).
type journalSize struct {
	total, live int64
	// unknown counts the records of types this muse does not know, which
	// a newer one wrote.
	unknown int
	// damaged counts what could not be read but an unfinished last line,
	// which a crash leaves and which holds nothing to recover.
	damaged int
	// cut counts the replies cut at the size limit as they were read: an
	// older muse kept them whole.
	cut int
	// last is the time of the newest record.
	last time.Time
	// cutIDs are the ids of those replies.
	cutIDs []string
	// markers counts the lines of a git conflict left in the journal.
	markers int
	// reordered is set when the lines are not in the order their records
	// apply: another machine's were merged in (merge.go).
	reordered bool
	// torn is set when the last line is unfinished: a crash cut it.
	torn bool
}

// replayStats is replay, also returning the journal's size. light skips
// what a session list does not show: the entries come back with their ids,
// parents, kinds, statuses and times, and replies without their content
// (one that was cut short keeps a placeholder, if anything of it arrived).
func replayStats(r io.Reader, id string, light bool) (*Session, journalSize, error) {
	return replayWith(r, id, light, nil, 0)
}

// errStopped is the error of a replay that was stopped.
var errStopped = errors.New("replay stopped")

// replayWith is replayStats decoding with at most workers goroutines (0
// for as many as there are processors), that gives up with errStopped once
// stop, when not nil, is set.
func replayWith(r io.Reader, id string, light bool, stop *atomic.Bool, workers int) (*Session, journalSize, error) {
	if stop != nil && stop.Load() {
		return nil, journalSize{}, errStopped
	}
	rp := replayer{
		sess: &Session{ID: id},
		pos:  make(map[string]int),
		live: make(map[string]int64),
	}
	br := readers.Get().(*bufio.Reader)
	br.Reset(r)
	defer func() {
		br.Reset(nil)
		readers.Put(br)
	}()
	var lines []rawLine
	var buf []byte
	// The lines are decoded a batch at a time, as they are read, so that
	// what a replay holds of the journal as it was read is a batch, beside
	// what it decodes to: a list decodes a few bytes of each reply.
	decoded, batch := 0, 0
	decode := func() bool {
		ok := decodeLines(lines[decoded:], light, stop, workers)
		decoded, batch = len(lines), 0
		return ok
	}
	for n := 1; ; n++ {
		l, err := fileio.ReadLine(br, buf, maxLine)
		buf = l.Data
		rp.size += int64(l.Size)
		if err != nil && err != io.EOF {
			return nil, journalSize{}, fmt.Errorf("read journal: %w", err)
		}
		if l.Size == 0 {
			break
		}
		switch {
		case gitMarker(l.Data):
			rp.markers++ // a git conflict left in the file: both sides are read
		case l.TooLong && !l.Newline, !l.Newline && !blank(l.Data) && !json.Valid(l.Data):
			rp.warn(n, "dropped an unfinished last record (%d bytes)", l.Size)
		case l.TooLong:
			rp.warn(n, "line %d: skipped a record larger than %d MiB (%d bytes)", n, maxLine>>20, l.Size)
		case blank(l.Data):
		default:
			lines = append(lines, rawLine{n: n, size: int64(l.Size), data: bytes.Clone(l.Data)})
			if batch += l.Size; batch >= replayBatch && !decode() {
				return nil, journalSize{}, errStopped
			}
		}
		if err == io.EOF {
			break
		}
	}
	if !decode() {
		return nil, journalSize{}, errStopped
	}
	sorted := inTimeOrder(lines)
	reordered := len(sorted) > 0 && len(lines) > 0 && &sorted[0] != &lines[0]
	lines = sorted
	rp.sess.All = make([]Entry, 0, len(lines)) // about one entry a line
	rp.pos = make(map[string]int, len(lines))
	for i := range lines {
		rp.apply(&lines[i])
	}
	sess, err := rp.finish()
	var live int64
	for _, v := range rp.live {
		live += v
	}
	torn := 0
	for _, w := range rp.lineWarns {
		if strings.Contains(w.msg, "unfinished last record") {
			torn++
		}
	}
	return sess, journalSize{total: rp.size, live: live, unknown: rp.unknown, damaged: len(rp.warnings) + len(rp.lineWarns) - torn - len(rp.cut), cut: len(rp.cut), torn: torn > 0, reordered: reordered, last: rp.last, cutIDs: slices.Sorted(maps.Keys(rp.cut)), markers: rp.markers}, err
}

// replayBatch is how many bytes of lines replay reads before it decodes
// them.
const replayBatch = 4 << 20

// rawLine is one non-blank line of a journal, and the record it decodes to.
type rawLine struct {
	n    int
	size int64
	data []byte
	rec  record
	err  error
}

// decodeLines decodes every line, spreading them over the processors when
// there are many, at most max goroutines unless max is 0. It reports false
// when it stopped because stop, when not nil, was set.
func decodeLines(lines []rawLine, light bool, stop *atomic.Bool, max int) bool {
	decode := decodeLine
	if light {
		decode = decodeLight
	}
	if max <= 0 {
		max = runtime.GOMAXPROCS(0)
	}
	const perWorker = 256 // fewer lines than this are not worth a goroutine
	workers := min(max, (len(lines)+perWorker-1)/perWorker)
	run := func(first, step int) {
		for k, i := 0, first; i < len(lines); k, i = k+1, i+step {
			if k%64 == 0 && stop != nil && stop.Load() {
				return
			}
			decode(&lines[i])
		}
	}
	if workers <= 1 {
		run(0, 1)
	} else {
		var wg sync.WaitGroup
		for w := range workers {
			wg.Go(func() { run(w, workers) })
		}
		wg.Wait()
	}
	return stop == nil || !stop.Load()
}

func decodeLine(l *rawLine) {
	l.err = json.Unmarshal(l.data, &l.rec)
	if l.err == nil {
		l.data = nil
	}
}

// decodeLight makes a record of the line with only what a session list
// shows: it picks the small fields out with api.Fields and decodes those
// alone, so the content of a reply, most of a journal, is skipped, not
// decoded (a reply cut short keeps a placeholder if anything of it arrived).
func decodeLight(l *rawLine) {
	if !json.Valid(l.data) {
		// Only valid lines count, as in a full load, with the same error.
		var v struct{}
		if l.err = json.Unmarshal(l.data, &v); l.err == nil {
			l.err = errors.New("invalid JSON")
		}
		return
	}
	rec := &l.rec
	var errs []error
	str := func(v []byte, dst *string) { errs = append(errs, json.Unmarshal(v, dst)) }
	l.err = api.Fields(l.data, func(k string, v []byte) {
		switch k {
		case "v":
			errs = append(errs, json.Unmarshal(v, &rec.V))
		case "type":
			str(v, &rec.Type)
		case "id":
			str(v, &rec.ID)
		case "time":
			errs = append(errs, json.Unmarshal(v, &rec.Time))
		case "m":
			str(v, &rec.M)
		case "created":
			rec.Created = new(time.Time)
			errs = append(errs, json.Unmarshal(v, rec.Created))
		case "params":
			rec.Params = &Params{}
			errs = append(errs, api.Fields(v, func(k string, v []byte) {
				if k == "model" {
					str(v, &rec.Params.Model)
				}
			}))
		case "title":
			rec.Title = new(string)
			str(v, rec.Title)
		case "head":
			rec.Head = new(string)
			str(v, rec.Head)
		case "fork":
			rec.Fork = &Fork{}
			errs = append(errs, json.Unmarshal(v, rec.Fork))
		case "entry":
			rec.Entry = lightEntry(v, &errs)
		case "chunk":
			rec.Chunk = &chunk{}
			errs = append(errs, api.Fields(v, func(k string, v []byte) {
				switch k {
				case "id":
					str(v, &rec.Chunk.ID)
				case "entry":
					rec.Chunk.Entry = lightEntry(v, &errs)
				case "blocks":
					if len(bytes.TrimSpace(v)) > 2 { // something arrived: keep a placeholder
						rec.Chunk.Blocks = []blockDelta{{I: 0, Block: &api.ContentBlock{Type: api.BlockText, Text: "…"}}}
					}
				}
			}))
		}
	})
	if l.err == nil {
		l.err = errors.Join(errs...)
	}
	if l.err == nil {
		l.data = nil
	}
}

// lightEntry picks out of an entry what a session list needs.
func lightEntry(v []byte, errs *[]error) *Entry {
	e := &Entry{}
	*errs = append(*errs, api.Fields(v, func(k string, v []byte) {
		switch k {
		case "id":
			*errs = append(*errs, json.Unmarshal(v, &e.ID))
		case "parent":
			*errs = append(*errs, json.Unmarshal(v, &e.Parent))
		case "kind":
			*errs = append(*errs, json.Unmarshal(v, &e.Kind))
		case "status":
			*errs = append(*errs, json.Unmarshal(v, &e.Status))
		case "time":
			*errs = append(*errs, json.Unmarshal(v, &e.Time))
		}
	}))
	return e
}

// readers are the buffered readers of replay, reused: List reads many
// journals.
var readers = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 64<<10) }}

// replayer holds the state of replay.
type replayer struct {
	sess      *Session
	pos       map[string]int   // entry id → position in sess.All
	live      map[string]int64 // bytes of the records that count, by what they set
	head      string           // the end of the active branch
	started   bool             // a non-blank line was seen
	header    bool             // a valid header was read
	problem   string           // why the first line is not a valid header
	records   int              // records applied, the header aside
	firstTime time.Time        // time of the first record with one
	warnings  []string         // warnings about the header, shown first
	lineWarns []lineWarning    // warnings about lines
	size      int64            // bytes read
	unknown   int              // records of unknown types, skipped
	cut       map[string]bool  // replies cut at the size limit, by id
	markers   int              // lines of a git conflict, skipped
	clashes   int              // entries that share an id but are not versions of one
	last      time.Time        // the time of the newest record
}

// lineWarning is a warning about line n of the journal.
type lineWarning struct {
	n   int
	msg string
}

func blank(b []byte) bool { return len(bytes.TrimSpace(b)) == 0 }

// warn notes a warning about line n.
func (rp *replayer) warn(n int, format string, args ...any) {
	rp.lineWarns = append(rp.lineWarns, lineWarning{n, fmt.Sprintf(format, args...)})
}

// apply applies one decoded line of the journal.
func (rp *replayer) apply(l *rawLine) {
	first := !rp.started
	rp.started = true
	n, rec := l.n, &l.rec
	if l.err != nil {
		var head struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(l.data, &head) == nil && head.Type != "" && !knownType(head.Type) {
			rp.unknown++
			return // a record of a newer version; its fields may mean anything
		}
		if first {
			rp.problem = l.err.Error()
			return
		}
		rp.warn(n, "line %d: skipped a corrupt record: %v", n, l.err)
		return
	}
	if rec.Time.After(rp.last) {
		rp.last = rec.Time
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
		rp.applyHeader(rec)
		rp.live[recHeader] = l.size
		return
	case recEntry:
		if rec.Entry == nil || rec.Entry.ID == "" {
			rp.warn(n, "line %d: skipped an entry record without an entry", n)
			return
		}
		rp.putEntry(*rec.Entry)
		delete(rp.live, "c"+rec.Entry.ID)
		rp.live["e"+rec.Entry.ID] = l.size
	case recChunk:
		if rec.Chunk == nil || !rp.putChunk(rec.Chunk) {
			rp.warn(n, "line %d: skipped a chunk of a reply that is not in the journal", n)
			return
		}
		rp.live["c"+rec.Chunk.ID] += l.size
	case recTitle:
		if rec.Title == nil {
			rp.warn(n, "line %d: skipped a title record without a title", n)
			return
		}
		rp.sess.Title = *rec.Title
		rp.live[recTitle] = l.size
		rp.records++
		return // renaming is not using: Updated stays
	case recParams:
		if rec.Params == nil {
			rp.warn(n, "line %d: skipped a params record without params", n)
			return
		}
		rp.sess.Params = *rec.Params
		rp.live[recParams] = l.size
	case recHead:
		if rec.Head == nil {
			rp.warn(n, "line %d: skipped a head record without a head", n)
			return
		}
		if _, ok := rp.pos[*rec.Head]; ok {
			rp.head = *rec.Head
		}
		rp.live[recHead] = l.size
	default:
		rp.unknown++
		return // unknown types are skipped silently
	}
	rp.records++
	rp.touch(rec.Time)
}

// putEntry adds e, or replaces the entry with the same id, finished. A new
// entry becomes the head.
func (rp *replayer) putEntry(e Entry) {
	rp.limit(&e)
	s := rp.sess
	if i, ok := rp.pos[e.ID]; ok {
		if old := s.All[i]; counted(e.ID) && (old.Parent != e.Parent || old.Kind != e.Kind || !old.Time.Equal(e.Time)) {
			// Not a new version of the entry but another entry with its
			// id: two machines that counted ids (an older muse) merged.
			// The newer is shown; the journal keeps both, and is never
			// compacted while it holds them.
			rp.clashes++
			rp.warnings = append(rp.warnings, fmt.Sprintf("two different entries have the id %s (written by an older muse on two machines); the newer is shown, and the journal keeps both", e.ID))
		}
		s.All[i] = e
		return
	}
	rp.pos[e.ID] = len(s.All)
	s.All = append(s.All, e)
	rp.head = e.ID
}

// putChunk applies a chunk to its reply, which its first chunk adds. It
// reports whether the reply was found.
func (rp *replayer) putChunk(c *chunk) bool {
	s := rp.sess
	i, ok := rp.pos[c.ID]
	if !ok {
		if c.Entry == nil || c.Entry.ID != c.ID {
			return false
		}
		e := *c.Entry
		e.Message = nil
		if c.Entry.Message != nil {
			m := *c.Entry.Message
			m.Content = nil
			e.Message = &m
		}
		i = len(s.All)
		rp.pos[c.ID] = i
		s.All = append(s.All, e)
		rp.head = c.ID
	}
	e := &s.All[i]
	e.Status = StatusStreaming
	if !rp.cut[e.ID] { // the rest of a reply cut is dropped unread
		applyChunk(e, c)
		rp.limit(e)
	}
	return true
}

// limit cuts the reply e at the size limit of a reply, which an older muse
// did not have: a reply it kept whole (80 MB of text, streamed by a broken
// server) would make every request too large to send, and the journal too
// large to compact. The cut is noted in a warning, and compaction keeps it.
func (rp *replayer) limit(e *Entry) {
	if e.Kind != KindAssistant || e.Message == nil || api.ContentSize(*e.Message) <= api.DefaultMaxReplySize {
		return
	}
	m, _ := api.CutMessage(*e.Message, api.DefaultMaxReplySize)
	e.Message = &m
	for i := range e.Truncated {
		if i >= len(m.Content) {
			delete(e.Truncated, i)
		}
	}
	if rp.cut == nil {
		rp.cut = map[string]bool{}
	}
	if !rp.cut[e.ID] {
		rp.cut[e.ID] = true
		rp.warnings = append(rp.warnings, e.ID+": "+api.ReplyCutNote(api.DefaultMaxReplySize))
	}
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
	s.ForkedFrom = rec.Fork
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

// settle ends the replies still streaming: interrupted, or gone when
// nothing of them arrived.
func (rp *replayer) settle() {
	s := rp.sess
	drop := map[string]bool{}
	for i := range s.All {
		e := &s.All[i]
		if e.Status != StatusStreaming {
			continue
		}
		if worthKeeping(e) {
			interrupt(e)
			continue
		}
		drop[e.ID] = true
		delete(rp.live, "c"+e.ID)
		if rp.head == e.ID {
			rp.head = e.Parent
		}
	}
	if len(drop) == 0 {
		return
	}
	s.All = slices.DeleteFunc(s.All, func(e Entry) bool { return drop[e.ID] })
	clear(rp.pos)
	for i, e := range s.All {
		rp.pos[e.ID] = i
	}
}

func (rp *replayer) finish() (*Session, error) {
	rp.settle()
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
	s.Head = rp.head
	s.Entries = branch(s.All, rp.pos, s.Head)
	slices.SortStableFunc(rp.lineWarns, func(a, b lineWarning) int { return a.n - b.n })
	for _, w := range rp.lineWarns {
		s.Warnings = append(s.Warnings, w.msg)
	}
	if len(rp.warnings) > 0 {
		s.Warnings = append(rp.warnings, s.Warnings...)
	}
	return s, nil
}

// branch returns the path from the first entry to head through all, whose
// entries pos indexes by id. A parent that is missing (lost to damage) ends
// the path there.
func branch(all []Entry, pos map[string]int, head string) []Entry {
	var rev []int
	seen := map[string]bool{}
	for id := head; id != "" && !seen[id]; {
		i, ok := pos[id]
		if !ok {
			break
		}
		seen[id] = true
		rev = append(rev, i)
		id = all[i].Parent
	}
	out := make([]Entry, len(rev))
	for k, i := range rev {
		out[len(rev)-1-k] = all[i]
	}
	return out
}
