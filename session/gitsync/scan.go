package gitsync

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"muse/api/regfile"
	"muse/session/internal/fileio"
)

// fileMax is the largest file sent: a larger one is left out and named.
const fileMax = 256 << 20

// tailLen is how many bytes before a journal's sent end its tail hash covers.
const tailLen = 64

// scanned is what a scan found to send: the changes, and the states the
// files have once they are sent.
type scanned struct {
	changes []change
	files   map[string]*fileState // the new state of every file scanned
	gone    []string              // files tracked that are no longer there
	skipped []string              // files too large to send
}

// scan compares the data folder dir with what was sent (files) and returns
// what changed. A file whose size and modification time are as sent is not
// read: a sync with nothing to do reads no journal. images says whether
// images and attachments are sent.
func scan(dir string, files map[string]*fileState, images bool) (*scanned, error) {
	sc := &scanned{files: map[string]*fileState{}}
	present := map[string]bool{}
	visit := func(rel string, fi fs.FileInfo) {
		present[rel] = true
		old := files[rel]
		mt := fi.ModTime().UnixNano()
		if old != nil && old.Size == fi.Size() && old.MTime == mt {
			return
		}
		if fi.Size() > fileMax {
			sc.skipped = append(sc.skipped, rel)
			return
		}
		kind, _ := kindOf(rel)
		ns, c, err := readChange(filepath.Join(dir, filepath.FromSlash(rel)), rel, kind, old, fi.Size(), mt)
		if err != nil {
			return // gone or unreadable now: the next sync tries again
		}
		sc.files[rel] = ns
		if c != nil {
			sc.changes = append(sc.changes, *c)
		}
	}
	des, err := os.ReadDir(filepath.Join(dir, "sessions"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, err
	}
	for _, de := range des {
		rel := "sessions/" + de.Name()
		if _, err := kindOf(rel); err != nil || !de.Type().IsRegular() {
			continue
		}
		if fi, err := de.Info(); err == nil {
			visit(rel, fi)
		}
	}
	if images {
		for _, top := range []string{"images", "attachments"} {
			root := filepath.Join(dir, top)
			filepath.WalkDir(root, func(p string, de fs.DirEntry, err error) error {
				if err != nil || !de.Type().IsRegular() {
					return nil
				}
				r, _ := filepath.Rel(dir, p)
				rel := filepath.ToSlash(r)
				if _, err := kindOf(rel); err != nil {
					return nil
				}
				if fi, err := de.Info(); err == nil {
					visit(rel, fi)
				}
				return nil
			})
		}
	}
	for rel := range files {
		if present[rel] || (!images && !strings.HasPrefix(rel, "sessions/")) {
			continue
		}
		sc.gone = append(sc.gone, rel)
	}
	slices.Sort(sc.gone)
	for _, rel := range sc.gone {
		sc.changes = append(sc.changes, change{Path: rel, Op: opGone})
	}
	slices.SortFunc(sc.changes, func(a, b change) int { return strings.Compare(a.Path, b.Path) })
	return sc, nil
}

// readChange reads what is new in the file at p (rel in the data folder)
// since old, and returns its new state and the change to send, nil when
// there is none.
func readChange(p, rel string, kind int, old *fileState, size, mtime int64) (*fileState, *change, error) {
	f, err := os.OpenFile(p, fileio.NoFollow(os.O_RDONLY), 0)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	ns := &fileState{Size: size, MTime: mtime}
	if kind != kindJournal {
		data, err := regfile.ReadAll(f, fileMax)
		if err != nil {
			return nil, nil, err
		}
		ns.Size = int64(len(data))
		return ns, &change{Path: rel, Op: opFull, Data: data}, nil
	}
	from := int64(0)
	var recvd []string
	if old != nil {
		recvd = old.Recvd
		if old.Off > 0 && old.Off <= size && tailAt(f, old.Off) == old.Tail {
			from = old.Off
		}
	}
	data, err := io.ReadAll(io.NewSectionReader(f, from, size-from))
	if err != nil {
		return nil, nil, err
	}
	// Only whole records: a cut last line is sent once it is whole.
	whole := bytes.LastIndexByte(data, '\n') + 1
	data = data[:whole]
	ns.Off = from + int64(whole)
	ns.Tail = tailAt(f, ns.Off)
	// Records received and not yet merged (their session is open in a
	// muse) are kept for a later scan.
	out, left := dropReceived(data, recvd)
	ns.Recvd = left
	if len(out) == 0 {
		return ns, nil, nil
	}
	return ns, &change{Path: rel, Op: opAppend, Data: out}, nil
}

// tailAt returns the hash of the tailLen bytes of f before off.
func tailAt(f *os.File, off int64) string {
	start := max(0, off-tailLen)
	buf := make([]byte, off-start)
	if _, err := f.ReadAt(buf, start); err != nil && !errors.Is(err, io.EOF) {
		return ""
	}
	return lineHash(buf)
}

// lineHash is the hash that names a record.
func lineHash(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:12])
}

// dropReceived returns the records of data whose hashes are not in recvd,
// and the hashes of recvd not found in data.
func dropReceived(data []byte, recvd []string) (out []byte, left []string) {
	if len(recvd) == 0 {
		return data, nil
	}
	want := make(map[string]int, len(recvd))
	for _, h := range recvd {
		want[h]++
	}
	out = make([]byte, 0, len(data))
	for line := range bytes.SplitAfterSeq(data, []byte("\n")) {
		h := lineHash(bytes.TrimSuffix(line, []byte("\n")))
		if want[h] > 0 {
			want[h]--
			continue
		}
		out = append(out, line...)
	}
	for _, h := range recvd {
		if want[h] > 0 {
			want[h]--
			left = append(left, h)
		}
	}
	return out, left
}
