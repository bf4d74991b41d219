package prompts

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"

	"muse/session/internal/fileio"
)

// fileState is the history file as a History last read it: which file, and
// how far (the bytes up to the end of its last whole line).
type fileState struct {
	info   os.FileInfo // nil: not read yet
	offset int64
}

// Refresh takes in the prompts another muse added to the file since this
// history last read it, so that ↑ finds them. It looks at the file's size
// and time, and reads nothing when they have not changed; it reads only
// what was appended, unless the file was replaced (compacted) or shortened,
// when it reads it whole. It is I/O: a screen calls it off its event loop.
// While an Add holds the history (a write and fsync to a slow disk), or
// another Refresh, it reads nothing and returns at once: the prompts as
// published serve, and ↑ steps now rather than after the disk.
func (h *History) Refresh() error {
	if !h.mu.TryLock() {
		return nil
	}
	defer h.mu.Unlock()
	f, err := os.OpenFile(h.path, fileio.NoFollow(os.O_RDONLY), 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // nothing written yet; a history removed keeps what it has
	}
	if err != nil {
		return fmt.Errorf("refresh prompt history %s: %w", h.path, err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return fmt.Errorf("refresh prompt history %s: %w", h.path, err)
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("refresh prompt history %s: not a regular file", h.path)
	}
	old := h.seen.info
	same := old != nil && os.SameFile(old, fi)
	if same && fi.Size() == old.Size() && fi.ModTime().Equal(old.ModTime()) {
		return nil
	}
	if !same || fi.Size() < h.seen.offset {
		entries, lines, n, err := readLines(&counter{f, &h.read}, h.max, nil, true)
		if err != nil {
			return fmt.Errorf("refresh prompt history %s: %w", h.path, err)
		}
		h.entries, h.lines, h.seen, h.own = entries, lines, fileState{info: fi, offset: n}, nil
		h.publish()
		return nil
	}
	if _, err := f.Seek(h.seen.offset, io.SeekStart); err != nil {
		return fmt.Errorf("refresh prompt history %s: %w", h.path, err)
	}
	added, lines, n, err := readLines(&counter{f, &h.read}, h.max, nil, false)
	if err != nil {
		return fmt.Errorf("refresh prompt history %s: %w", h.path, err)
	}
	// What this history added since it last read is in the file too, among
	// what others added: the file's order replaces it.
	h.entries = append(h.entries[:len(h.entries)-min(len(h.own), len(h.entries))], added...)
	h.own = nil
	if len(h.entries) > h.max {
		h.entries = slices.Delete(h.entries, 0, len(h.entries)-h.max)
	}
	h.publish()
	h.lines += lines
	h.seen = fileState{info: fi, offset: h.seen.offset + n}
	return nil
}

// counter counts the bytes read from r into *n.
type counter struct {
	r io.Reader
	n *int64
}

func (c *counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	*c.n += int64(n)
	return n, err
}
