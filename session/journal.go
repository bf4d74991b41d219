package session

// The journal of a session is a file <id>.jsonl holding one JSON object per
// line. The first line is a header:
//
//	{"v":1,"type":"header","time":T,"id":ID,"created":T,"params":{...}}
//
// and every later line is a record that changes the session:
//
//	{"type":"entry","time":T,"entry":{...}}   adds an entry, or replaces the one with the same id
//	{"type":"title","time":T,"title":"..."}   sets the title
//	{"type":"params","time":T,"params":{...}} sets the message settings
//
// Records are only ever appended, each with a single write of the whole line
// followed by fsync, so a crash can at worst leave an unfinished last line.
// Replaying drops such a line, skips corrupt lines and ignores record types
// it does not know, so journals written by newer versions still load.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"syscall"
	"time"
)

// formatVersion is the journal format written in the header's "v".
const formatVersion = 1

// maxLine is the largest record replay accepts, and so the largest one
// written. A single reply can be megabytes long.
const maxLine = 64 << 20

// Record types.
const (
	recHeader = "header"
	recEntry  = "entry"
	recTitle  = "title"
	recParams = "params"
	// recRetract removes entries, as when /retry replaces a reply.
	recRetract = "retract"
)

// record is one line of a journal. Fields that do not belong to its type are
// nil and omitted. The entry comes last so that the small fields of a large
// record stay readable at the start of its line.
type record struct {
	V       int        `json:"v,omitempty"`
	Type    string     `json:"type"`
	Time    time.Time  `json:"time"`
	ID      string     `json:"id,omitempty"`
	Created *time.Time `json:"created,omitempty"`
	Params  *Params    `json:"params,omitempty"`
	Title   *string    `json:"title,omitempty"`
	Retract []string   `json:"retract,omitempty"`
	Entry   *Entry     `json:"entry,omitempty"`
}

// knownType reports whether replay understands records of type t.
func knownType(t string) bool {
	switch t {
	case recHeader, recEntry, recTitle, recParams, recRetract:
		return true
	}
	return false
}

// damageError is a journal that cannot be replayed. It wraps ErrDamaged.
type damageError struct {
	reason string
}

func (e *damageError) Error() string { return ErrDamaged.Error() + ": " + e.reason }

func (e *damageError) Unwrap() error { return ErrDamaged }

// encodeRecord returns rec as one line of JSON ending in a newline.
func encodeRecord(rec *record) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // keep <, > and & readable in prompts and code
	if err := enc.Encode(rec); err != nil {
		return nil, fmt.Errorf("encode %s record: %w", rec.Type, err)
	}
	line := buf.Bytes()
	// Encode compacts everything, raw JSON included, so the only newline is
	// the last byte. Check anyway: a stray one would split the record.
	if i := bytes.IndexByte(line, '\n'); i != len(line)-1 {
		return nil, fmt.Errorf("encode %s record: newline inside the record", rec.Type)
	}
	if len(line)-1 > maxLine {
		return nil, fmt.Errorf("encode %s record: %d bytes is more than the %d MiB a record may hold", rec.Type, len(line)-1, maxLine>>20)
	}
	return line, nil
}

// appendLine appends line to the journal at path with a single write and
// syncs the file. If the journal does not end in a newline (an earlier write
// was cut short), the line is preceded by one so that it stays a record of
// its own; the unfinished line is then skipped as corrupt on replay.
func appendLine(path string, line []byte) (err error) {
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return ErrNotFound
		}
		return err
	}
	defer func() {
		if cerr := f.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s is not a regular file", path)
	}
	if fi.Size() > 0 {
		ok, err := endsInNewline(path, fi.Size())
		if err != nil {
			return err
		}
		if !ok {
			line = append([]byte{'\n'}, line...)
		}
	}
	if _, err := f.Write(line); err != nil {
		return err
	}
	return f.Sync()
}

// endsInNewline reports whether byte size-1 of the file at path is a newline.
func endsInNewline(path string, size int64) (bool, error) {
	f, err := os.Open(path)
	if err != nil {
		return false, err
	}
	defer f.Close()
	var b [1]byte
	if _, err := f.ReadAt(b[:], size-1); err != nil {
		return false, err
	}
	return b[0] == '\n', nil
}

// syncDir syncs the directory dir so that a file created in it survives a
// crash. File systems that cannot sync a directory are not an error.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	if err := d.Sync(); err != nil && !errors.Is(err, errors.ErrUnsupported) && !errors.Is(err, syscall.EINVAL) {
		return err
	}
	return nil
}

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
// a header nor any readable record is a *damageError.
func replay(r io.Reader, id string) (*Session, error) {
	rp := replayer{
		sess:  &Session{ID: id},
		index: make(map[string]int),
	}
	br := bufio.NewReaderSize(r, 64<<10)
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
			rp.warn("dropped an unfinished last record (%d bytes)", l.size)
		case l.tooLong:
			rp.warn("line %d: skipped a record larger than %d MiB (%d bytes)", n, maxLine>>20, l.size)
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

// replayer holds the state of replay.
type replayer struct {
	sess      *Session
	index     map[string]int // entry id → position in sess.Entries
	started   bool           // a non-blank line was seen
	header    bool           // a valid header was read
	problem   string         // why the first line is not a valid header
	records   int            // records applied, header aside
	firstTime time.Time      // time of the first record with one
	warnings  []string       // warnings about the header, shown first
	size      int64          // bytes read
}

func blank(b []byte) bool { return len(bytes.TrimSpace(b)) == 0 }

func (rp *replayer) warn(format string, args ...any) {
	rp.sess.Warnings = append(rp.sess.Warnings, fmt.Sprintf(format, args...))
}

// line applies line n of the journal.
func (rp *replayer) line(n int, data []byte) {
	first := !rp.started
	rp.started = true
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
		rp.warn("line %d: skipped a corrupt record: %v", n, err)
		return
	}
	if first && rec.Type != recHeader {
		rp.problem = fmt.Sprintf("line %d is a %q record", n, rec.Type)
	}
	switch rec.Type {
	case recHeader:
		if !first {
			rp.warn("line %d: skipped a second header", n)
			return
		}
		rp.applyHeader(&rec)
		return
	case recEntry:
		if rec.Entry == nil {
			rp.warn("line %d: skipped an entry record without an entry", n)
			return
		}
		rp.putEntry(*rec.Entry)
	case recTitle:
		if rec.Title == nil {
			rp.warn("line %d: skipped a title record without a title", n)
			return
		}
		rp.sess.Title = *rec.Title
	case recParams:
		if rec.Params == nil {
			rp.warn("line %d: skipped a params record without params", n)
			return
		}
		rp.sess.Params = *rec.Params
	case recRetract:
		rp.sess.Entries = removeEntries(rp.sess.Entries, rec.Retract)
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

// putEntry adds e, or replaces the entry with the same id.
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

func (rp *replayer) putEntry(e Entry) {
	s := rp.sess
	if i, ok := rp.index[e.ID]; ok && e.ID != "" {
		s.Entries[i] = e
		return
	}
	if e.ID != "" {
		rp.index[e.ID] = len(s.Entries)
	}
	s.Entries = append(s.Entries, e)
}

func (rp *replayer) finish() (*Session, error) {
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
	if len(rp.warnings) > 0 {
		s.Warnings = append(rp.warnings, s.Warnings...)
	}
	return s, nil
}
