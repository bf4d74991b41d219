package session

// The journal of a session is a file <id>.jsonl holding one JSON object per
// line. The first line is a header:
//
//	{"v":2,"type":"header","time":T,"id":ID,"created":T,"params":{...}}
//
// and every later line is a record that changes the session:
//
//	{"type":"entry","time":T,"entry":{...}}   adds an entry, or replaces the one with the same id
//	{"type":"chunk","time":T,"chunk":{...}}   adds streamed text to a reply not yet finished
//	{"type":"title","time":T,"title":"..."}   sets the title
//	{"type":"params","time":T,"params":{...}} sets the message settings
//	{"type":"head","time":T,"head":ID}        makes the branch ending at entry ID the active one
//
// Entries name their parent, the entry they follow, so a journal holds a
// tree: every edit, retry and regeneration is a new branch, and nothing is
// overwritten. A new entry becomes the head, the end of the active branch.
//
// A reply is written while it streams as chunk records, each holding only
// the text that arrived since the one before (chunk.go), so checkpointing a
// reply costs its length once in all; when it ends, it is written whole as
// an entry record, which supersedes its chunks. Compaction (compact.go)
// rewrites a journal that has grown well past what it holds.
//
// Beside the journals, the store's directory holds <id>.queue while the
// chat screen has prompts queued in it (queue.go). The store's lock folder
// holds <id>.lock while a muse has the session open (lock.go), and its
// cache folder the index of muse/session/index: neither is in the data
// folder (see Places).
//
// Records are only ever appended, each with a single write of the whole line;
// entry, title, params and head records are followed by fsync, so a crash can
// at worst leave an unfinished last line. Chunks are not synced: losing one
// loses about a second of text. Replaying drops an unfinished line, skips
// corrupt lines and ignores record types it does not know, so journals
// written by newer versions still load; a reply whose chunks are not
// followed by its entry record was cut short by a crash and comes back
// interrupted (see replay.go).

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"

	"muse/session/internal/fileio"
)

// formatVersion is the journal format written in the header's "v".
const formatVersion = 2

// maxLine is the largest record replay accepts, and so the largest one
// written. A single reply can be megabytes long.
const maxLine = 64 << 20

// Record types.
const (
	recHeader = "header"
	recEntry  = "entry"
	recChunk  = "chunk"
	recTitle  = "title"
	recParams = "params"
	recHead   = "head"
)

// record is one line of a journal. Fields that do not belong to its type are
// nil and omitted. The entry comes last so that the small fields of a large
// record stay readable at the start of its line.
type record struct {
	V    int       `json:"v,omitempty"`
	Type string    `json:"type"`
	Time time.Time `json:"time"`
	// M is the machine that wrote the record: of two records with the
	// same time, the one of the greater machine id applies last, and so
	// wins a title, settings or head (see order.go).
	M       string     `json:"m,omitempty"`
	ID      string     `json:"id,omitempty"`
	Created *time.Time `json:"created,omitempty"`
	Params  *Params    `json:"params,omitempty"`
	Title   *string    `json:"title,omitempty"`
	Head    *string    `json:"head,omitempty"`
	Fork    *Fork      `json:"fork,omitempty"`
	Chunk   *chunk     `json:"chunk,omitempty"`
	Entry   *Entry     `json:"entry,omitempty"`
}

// knownType reports whether replay understands records of type t.
func knownType(t string) bool {
	switch t {
	case recHeader, recEntry, recChunk, recTitle, recParams, recHead:
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

// encodeRecord returns rec as one line of JSON ending in a newline. The
// large strings of a reply are written into it once (see lift).
func encodeRecord(rec *record) ([]byte, error) {
	small, big := lift(rec)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // keep <, > and & readable in prompts and code
	if err := enc.Encode(small); err != nil {
		return nil, fmt.Errorf("encode %s record: %w", rec.Type, err)
	}
	line := buf.Bytes()
	if len(big) > 0 {
		var err error
		if line, err = splice(line, big); err != nil {
			return nil, fmt.Errorf("encode %s record: %w", rec.Type, err)
		}
	}
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

// appendLine appends line to the journal at path with a single write, and
// syncs the file when sync is set. It costs the same however long the
// journal is: it reads only its last byte. If the journal does not end in a newline (an earlier write
// was cut short), the line is preceded by one so that it stays a record of
// its own; the unfinished line is then skipped as corrupt on replay.
func appendLine(path string, line []byte, sync bool) (err error) {
	// A link planted in a synced folder is never written through: not a
	// symbolic link (not followed), nor a file with other names.
	f, err := os.OpenFile(path, fileio.NoFollow(os.O_APPEND|os.O_RDWR), 0)
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
	if fi, err := f.Stat(); err == nil && fileio.Shared(fi) {
		return fmt.Errorf("%s has other names (a hard link): muse does not write through it; replace it with a copy", path)
	}
	if _, err := fileio.AppendLine(f, path, line); err != nil {
		return err
	}
	if !sync {
		return nil
	}
	return f.Sync()
}
