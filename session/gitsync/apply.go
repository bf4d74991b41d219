package gitsync

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"
)

// recvdMax bounds the hashes of received records kept for one journal.
const recvdMax = 50000

// Local is where records pulled from other machines go: the merge of
// journals, session's rules (a union of records, idempotent).
type Local interface {
	// MergeJournal adds to the journal of the session id the records
	// (whole JSONL lines) it does not hold, making it if it is missing, now
	// or by Settle or later, and returns those it adds. An error leaves
	// the bundle to the next sync.
	MergeJournal(id string, records []byte) (added []byte, err error)
	// Settle completes the merges, once a pull has applied its bundles.
	Settle() error
	// RemoveSession deletes the session id, which another machine
	// deleted. A missing session is not an error.
	RemoveSession(id string) error
}

// applier applies the changes of other machines to the data folder.
type applier struct {
	root   *os.Root // the data folder: nothing is written outside it
	local  Local
	st     *state
	images bool
	n      int // files changed
}

// apply applies the changes of one bundle. It returns an error when a
// change could not be applied now (the bundle is tried again), after
// applying the others.
func (a *applier) apply(cs []change) error {
	var errs []error
	for _, c := range cs {
		if err := a.one(c); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", c.Path, err))
		}
	}
	return errors.Join(errs...)
}

// one applies the change c.
func (a *applier) one(c change) error {
	kind, err := kindOf(c.Path)
	if err != nil {
		return err
	}
	if !a.images && !strings.HasPrefix(c.Path, "sessions/") {
		return nil
	}
	if kind == kindJournal {
		id := strings.TrimSuffix(path.Base(c.Path), ".jsonl")
		if c.Op == opGone {
			if err := a.local.RemoveSession(id); err != nil {
				return err
			}
			delete(a.st.Files, c.Path)
			a.st.gone(c.Path)
			a.n++
			return nil
		}
		added, err := a.local.MergeJournal(id, wholeLines(c.Data))
		if err != nil {
			return err
		}
		a.received(c.Path, added) // what the journal gains is not sent back
		a.n++
		return nil
	}
	if c.Op == opGone {
		if err := a.root.Remove(c.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		delete(a.st.Files, c.Path)
		a.st.gone(c.Path)
		return nil
	}
	written, err := a.writeNew(c.Path, c.Data)
	if err != nil || !written {
		return err
	}
	if fi, err := a.root.Lstat(c.Path); err == nil {
		a.st.Files[c.Path] = &fileState{Size: fi.Size(), MTime: fi.ModTime().UnixNano()}
	}
	a.n++
	return nil
}

// received remembers the records of data, which were merged into the
// journal rel, so that they are not sent back.
func (a *applier) received(rel string, data []byte) {
	fs := a.st.Files[rel]
	if fs == nil {
		fs = &fileState{Size: -1}
		a.st.Files[rel] = fs
	}
	for line := range bytes.SplitSeq(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) {
		if len(line) > 0 {
			fs.Recvd = append(fs.Recvd, lineHash(line))
		}
	}
	if len(fs.Recvd) > recvdMax {
		fs.Recvd = fs.Recvd[len(fs.Recvd)-recvdMax:]
	}
}

// wholeLines returns data ending in a newline.
func wholeLines(data []byte) []byte {
	if len(data) > 0 && data[len(data)-1] != '\n' {
		return append(data, '\n')
	}
	return data
}

// writeNew writes data to rel when no file is there, whole or not at all,
// mode 0600, in folders of mode 0700. A file already there is left as it
// is: images, attachments and tombstones are written once.
func (a *applier) writeNew(rel string, data []byte) (bool, error) {
	if _, err := a.root.Lstat(rel); err == nil {
		return false, nil
	}
	if err := a.root.MkdirAll(path.Dir(rel), 0o700); err != nil {
		return false, err
	}
	tmp := path.Join(path.Dir(rel), "."+path.Base(rel)+".sync.tmp")
	f, err := a.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o600)
	if err != nil {
		return false, err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	defer a.root.Remove(tmp)
	if err != nil {
		return false, err
	}
	if err := a.root.Link(tmp, rel); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return false, nil
		}
		return false, err
	}
	return true, nil
}
