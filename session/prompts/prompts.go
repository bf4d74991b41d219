// Package prompts keeps the history of the prompts the user sent, for Up and
// Down in an empty input: one file beside the sessions directory, shared by
// all sessions, and a Recall that walks it.
package prompts

// The prompt history is one file, prompts.jsonl beside the sessions
// directory, shared by all sessions. Each prompt the user sends is one line:
//
//	{"time":T,"session":ID,"text":"..."}
//
// appended with a single write followed by fsync, so a crash can at worst
// leave an unfinished last line; loading skips that line and any other that is
// not valid JSON. When the file holds more than four times the entries kept in
// memory it is rewritten, atomically, with only the newest of them.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"muse/session/internal/fileio"
)

// promptHistoryFile is the name of the prompt history, beside the sessions
// directory.
const promptHistoryFile = "prompts.jsonl"

// defaultPromptMax is the number of prompts kept when Open is
// given no positive max.
const defaultPromptMax = 1000

// maxLine is the largest record the history reads or writes: a prompt may
// be as long as a journal's record.
const maxLine = 64 << 20

// promptCompactFactor is how many times max lines the file may hold before it
// is compacted to the newest max entries.
const promptCompactFactor = 4

// promptRecord is one line of the prompt history.
type promptRecord struct {
	Time    time.Time `json:"time"`
	Session string    `json:"session"`
	Text    string    `json:"text"`
}

// History is the list of prompts the user sent, oldest first, kept in
// one file shared by all sessions. Make one with Open. Its
// methods may be called from several goroutines.
type History struct {
	mu      sync.Mutex
	path    string
	max     int
	entries []promptRecord   // the newest max prompts, oldest first
	lines   int              // lines in the file as far as this history knows
	now     func() time.Time // the clock, replaced by tests
	// seen is the file as last read, which Refresh reads on from; own are
	// the prompts Add appended since, at the end of entries, which Refresh
	// finds in the file among those of other muses.
	seen fileState
	own  []promptRecord
	// read counts the bytes Refresh read, for tests.
	read int64
	// fsync syncs the file after an Add's write (see SetSync).
	fsync func(*os.File) error
	// shown is a copy of entries, published after every change, so that
	// Prompts and Entries never wait for mu, which Add and Refresh hold
	// through their I/O (a write and fsync, a compaction, a read). It is
	// never changed once stored.
	shown atomic.Pointer[[]Entry]
}

// Entry is a prompt of the history: when it was sent, in which session.
type Entry struct {
	Time    time.Time
	Session string
	Text    string
}

// publish stores a copy of entries for Prompts and Entries; mu is held.
func (h *History) publish() {
	out := make([]Entry, len(h.entries))
	for i, e := range h.entries {
		out[i] = Entry(e)
	}
	h.shown.Store(&out)
}

// Entries returns the prompts with their sessions and times, oldest
// first. It takes no lock (see Prompts); the slice is shared, never to be
// changed.
func (h *History) Entries() []Entry {
	if p := h.shown.Load(); p != nil {
		return *p
	}
	return nil
}

// Path returns the file prompts.jsonl beside the sessions
// directory sessionsDir (as dirs.SessionsDir finds it), e.g.
// ~/.local/share/muse/prompts.jsonl.
func Path(sessionsDir string) string {
	return filepath.Join(filepath.Dir(filepath.Clean(sessionsDir)), promptHistoryFile)
}

// Open loads the history file at path, creating nothing until the
// first Add. A missing file is an empty history. Lines that are not valid JSON
// (such as a last line cut short by a crash) and records without text are
// skipped. It keeps at most max entries in memory, the newest; max <= 0 means
// 1000.
func Open(path string, max int) (*History, error) {
	if path == "" {
		return nil, errors.New("open prompt history: no file given")
	}
	if max <= 0 {
		max = defaultPromptMax
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("open prompt history %s: %w", path, err)
	}
	entries, lines, seen, err := readPrompts(abs, max)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("open prompt history %s: %w", abs, err)
	}
	h := &History{path: abs, max: max, entries: entries, lines: lines, seen: seen, now: time.Now, fsync: (*os.File).Sync}
	h.publish()
	return h, nil
}

// readPrompts reads the history file at path and returns its newest max
// records, oldest first, the number of lines it holds, skipped ones
// included, and what Refresh needs to read only what is appended later.
func readPrompts(path string, max int) ([]promptRecord, int, fileState, error) {
	f, err := os.OpenFile(path, fileio.NoFollow(os.O_RDONLY), 0)
	if err != nil {
		return nil, 0, fileState{}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, 0, fileState{}, err
	}
	if !fi.Mode().IsRegular() {
		return nil, 0, fileState{}, fmt.Errorf("%s is not a regular file", path)
	}
	entries, lines, n, err := readLines(f, max, nil, true)
	if err != nil {
		return nil, 0, fileState{}, err
	}
	return entries, lines, fileState{info: fi, offset: n}, nil
}

// readLines reads the records of r, keeping the newest max (after those in
// kept, oldest first), and returns them, the number of lines read, and the
// bytes read up to the end of the last whole line. A last line without its
// newline may still be being written: it is read only with last, and is not
// counted in the bytes, so that reading on from them reads it again.
func readLines(r io.Reader, max int, kept []promptRecord, last bool) ([]promptRecord, int, int64, error) {
	entries := kept
	lines := 0
	var consumed int64
	br := bufio.NewReaderSize(r, 64<<10)
	var buf []byte
	for {
		l, err := fileio.ReadLine(br, buf, maxLine)
		buf = l.Data
		if err != nil && err != io.EOF {
			return nil, 0, 0, err
		}
		if l.Size == 0 || !l.Newline && !last {
			break
		}
		if l.Newline {
			consumed += int64(l.Size)
		}
		if !blank(l.Data) || l.TooLong {
			lines++
		}
		if rec, ok := decodePrompt(l); ok {
			entries = append(entries, rec)
			if len(entries) > 2*max {
				entries = slices.Delete(entries, 0, len(entries)-max)
			}
		}
		if err == io.EOF {
			break
		}
	}
	if len(entries) > max {
		entries = slices.Delete(entries, 0, len(entries)-max)
	}
	return entries, lines, consumed, nil
}

// decodePrompt returns the record on the line l, if it holds one with text.
func decodePrompt(l fileio.Line) (promptRecord, bool) {
	var rec promptRecord
	if l.TooLong || blank(l.Data) {
		return rec, false
	}
	if err := json.Unmarshal(l.Data, &rec); err != nil {
		return rec, false
	}
	if strings.TrimSpace(rec.Text) == "" {
		return rec, false
	}
	return rec, true
}

// encodePrompt returns rec as one line of JSON ending in a newline.
func encodePrompt(rec *promptRecord) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false) // keep <, > and & readable in prompts and code
	if err := enc.Encode(rec); err != nil {
		return nil, fmt.Errorf("encode prompt: %w", err)
	}
	line := buf.Bytes()
	if i := bytes.IndexByte(line, '\n'); i != len(line)-1 {
		return nil, errors.New("encode prompt: newline inside the record")
	}
	if len(line)-1 > maxLine {
		return nil, fmt.Errorf("encode prompt: %d bytes is more than the %d MiB a record may hold", len(line)-1, maxLine>>20)
	}
	return line, nil
}

// Add records the prompt text sent in the session sessionID: it is appended
// to the file as one line, with a single write followed by fsync, creating the
// file (mode 0600) and its missing parent directories (mode 0700) if need be.
// A blank prompt, or one equal to the newest prompt, is ignored. When the file
// holds more than 4*max lines it is rewritten atomically with only the newest
// max entries; if that fails the prompt is still recorded and the error says
// the compaction failed.
func (h *History) Add(sessionID, text string) error {
	if strings.TrimSpace(text) == "" {
		return nil
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if n := len(h.entries); n > 0 && h.entries[n-1].Text == text {
		return nil
	}
	rec := promptRecord{Time: h.now().UTC(), Session: sessionID, Text: text}
	line, err := encodePrompt(&rec)
	if err != nil {
		return fmt.Errorf("add to prompt history %s: %w", h.path, err)
	}
	if err := h.append(line); err != nil {
		return fmt.Errorf("add to prompt history %s: %w", h.path, err)
	}
	h.entries = append(h.entries, rec)
	if h.own = append(h.own, rec); len(h.own) > h.max {
		h.own = slices.Delete(h.own, 0, len(h.own)-h.max)
	}
	if len(h.entries) > h.max {
		h.entries = slices.Delete(h.entries, 0, len(h.entries)-h.max)
	}
	h.publish()
	h.lines++
	if h.lines > promptCompactFactor*h.max {
		if err := h.compact(); err != nil {
			return fmt.Errorf("compact prompt history %s: %w", h.path, err)
		}
	}
	return nil
}

// SetSync replaces how Add syncs the file after its write, which it does
// with the history's lock held: a test stands for a slow disk with a sync
// that waits, and shows that what a screen calls never waits for it.
func (h *History) SetSync(sync func(*os.File) error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.fsync = sync
}

// append appends line to the file with a single write and syncs it. If the
// file does not end in a newline (an earlier write was cut short), the line is
// preceded by one so that it stays a line of its own.
func (h *History) append(line []byte) (err error) {
	f, err := h.openAppend()
	if err != nil {
		return err
	}
	defer func() {
		if cerr := f.Close(); cerr != nil && err == nil {
			err = cerr
		}
	}()
	created, err := fileio.AppendLine(f, h.path, line)
	if err != nil {
		return err
	}
	if created {
		if err := f.Chmod(fileio.FileMode); err != nil { // whatever the umask
			return err
		}
	}
	if err := h.fsync(f); err != nil {
		return err
	}
	if created {
		return fileio.SyncDir(filepath.Dir(h.path))
	}
	return nil
}

// openAppend opens the file for appending, creating it, and its directory
// when that is missing.
func (h *History) openAppend() (*os.File, error) {
	// A link at the path is never followed: prompts stay in muse's folder.
	flags := fileio.NoFollow(os.O_CREATE | os.O_APPEND | os.O_RDWR)
	f, err := os.OpenFile(h.path, flags, fileio.FileMode)
	if err == nil || !errors.Is(err, fs.ErrNotExist) {
		return f, err
	}
	dir := filepath.Dir(h.path)
	if _, serr := os.Lstat(dir); !errors.Is(serr, fs.ErrNotExist) {
		return nil, err
	}
	if err := fileio.MakeDir(dir); err != nil {
		return nil, err
	}
	return os.OpenFile(h.path, flags, fileio.FileMode)
}

// compact rewrites the file with only its newest max entries: a temporary
// file in the same directory is written, synced and renamed over it, and
// those an hour old, which crashes left, are removed. The file
// is read again rather than written from memory so that prompts appended by
// another muse since this history was opened are kept.
func (h *History) compact() (err error) {
	entries, _, _, err := readPrompts(h.path, h.max)
	if err != nil {
		return err
	}
	var data []byte
	for i := range entries {
		line, err := encodePrompt(&entries[i])
		if err != nil {
			return err
		}
		data = append(data, line...)
	}
	// What a crash left of an earlier compaction goes first; failing to
	// remove it does not stop this one.
	name := filepath.Base(h.path)
	_ = fileio.RemoveTemps(filepath.Dir(h.path), func(base string) bool { return base == name }, h.now().Add(-fileio.StaleTemp))
	if err := fileio.WriteAtomic(h.path, data); err != nil {
		return err
	}
	h.entries = entries
	h.publish()
	h.lines = len(entries)
	h.seen, h.own = fileState{}, nil // a new file: Refresh reads it whole
	return nil
}

// Prompts returns the prompts, oldest first, as a copy. It takes no lock:
// a screen calls it from its event loop while another goroutine may be
// adding a prompt (writing and syncing the file) or refreshing.
func (h *History) Prompts() []string {
	es := h.Entries()
	out := make([]string, len(es))
	for i, e := range es {
		out[i] = e.Text
	}
	return out
}

// Recall walks a list of prompts from the newest back, for Up and Down in an
// empty input. It starts out not recalling, which stands for the empty input
// below the newest prompt. It is meant for one goroutine.
type Recall struct {
	prompts []string
	pos     int // index of the prompt shown; len(prompts) when not recalling
}

// NewRecall returns a Recall over prompts, oldest first, which it copies.
func NewRecall(prompts []string) *Recall {
	p := slices.Clone(prompts)
	return &Recall{prompts: p, pos: len(p)}
}

// Prev moves to the next older prompt and returns it. At the oldest prompt,
// or with no prompts, it returns "", false and stays where it is.
func (r *Recall) Prev() (string, bool) {
	if r.pos == 0 {
		return "", false
	}
	r.pos--
	return r.prompts[r.pos], true
}

// Next moves to the next newer prompt and returns it. From the newest prompt
// it returns "", true: back to the empty input, no longer recalling. When not
// recalling it returns "", false.
func (r *Recall) Next() (string, bool) {
	if r.pos >= len(r.prompts) {
		return "", false
	}
	r.pos++
	if r.pos == len(r.prompts) {
		return "", true
	}
	return r.prompts[r.pos], true
}

// blank reports whether b holds only white space.
func blank(b []byte) bool { return len(bytes.TrimSpace(b)) == 0 }
