package session

// Saving an import as it is read. An export of 100 MB was read as a stream
// but saved with one write of its whole journal, so an import took about
// five times the export in memory. An Import writes each entry to a
// temporary file beside the journals as the export gives it, so it holds
// about one entry: what it keeps beyond that is a few bytes an entry (the
// ids, to check a tree) and what it must fix once the export is read
// whole (the images whose bytes come after the entries, the parents of an
// export of one branch).

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"muse/session/internal/fileio"
)

// MaxRecord is the most bytes a record of a journal may take, and so an
// entry: an import refuses a larger one.
const MaxRecord = maxLine

// An Import saves a session read from an export as a new one, with a new
// id, while the export is read: Add writes each entry to a temporary file
// as it comes, AddFile stores the bytes of an attachment or an image, and
// Finish writes the journal, synced, to another temporary file that it
// links to the journal's name, so that the session appears whole or not at
// all and never replaces another. Abort, or a Finish that fails, removes
// what was written: the temporary files and the files stored. Begin one
// with Store.BeginImport; it must not be used by two goroutines at once.
type Import struct {
	s       *Store
	id      string
	created time.Time
	last    time.Time // the time of the last record written
	params  Params
	// spool holds the records of the entries, one a line, from the
	// header on when header is set (params are known when the first
	// entry comes, as in every export muse writes).
	spool  *os.File
	w      *bufio.Writer
	header bool
	// paramsLate is set when the settings came after the header was
	// written: Finish writes the journal again, as it does to change an
	// entry.
	paramsLate bool
	lines      int // the lines of the spool
	entries    int
	// prev is the id of the entry before; parents[line] is the id of the
	// entry before that of an entry that names another parent: a line of
	// entries (an export of one branch) follows it instead.
	prev    string
	parents map[int]string
	// seen holds the ids written; orphan is the first entry whose parent
	// does not come before it, which only a tree of entries refuses.
	seen   map[string]bool
	orphan error
	// firstPrompt is the title the first prompt gives (see TitleFrom).
	firstPrompt string
	prompted    bool
	turn        int // the image entries so far
	// images are the images of the entries that name their bytes by
	// hash, by hash; attachments likewise the attachments.
	images      map[string][]importedImage
	attachments map[string][]Attachment
	// saved are the paths the images were stored at, by line and index;
	// savedLines the lines of their entries.
	saved      map[[2]int]string
	savedLines map[int]bool
	// early are the bytes of files that came before the entries, by hash.
	early   map[string][]byte
	entered bool // EndEntries was called
	done    bool
}

// importedImage is an image of an imported entry whose bytes the export
// holds: the line of its entry, its index there, and the turn and index
// SaveImage names it by.
type importedImage struct {
	line, j, turn, index int
}

// BeginImport starts saving an import as a new session with the settings
// p, as they are when its first entry comes (SetParams changes them).
func (s *Store) BeginImport(p Params) (*Import, error) {
	im, err := s.beginImport(p)
	if err != nil {
		return nil, fmt.Errorf("import session: %w", writeHint(err))
	}
	return im, nil
}

func (s *Store) beginImport(p Params) (*Import, error) {
	s.removeStaleImports()
	now := s.clock()
	for range 10 {
		id, err := newID(now, s.random)
		if err != nil {
			return nil, err
		}
		if s.taken(id) {
			continue
		}
		f, err := os.CreateTemp(s.dir, "."+id+journalExt+".*.tmp")
		if err != nil {
			return nil, err
		}
		if err := f.Chmod(fileio.FileMode); err != nil { // whatever the umask
			f.Close()
			os.Remove(f.Name())
			return nil, err
		}
		return &Import{
			s: s, id: id, created: now, last: now, params: p.Clone(),
			spool: f, w: bufio.NewWriterSize(f, 64<<10),
			parents: map[int]string{}, seen: map[string]bool{},
			images: map[string][]importedImage{}, attachments: map[string][]Attachment{},
			saved: map[[2]int]string{}, savedLines: map[int]bool{}, early: map[string][]byte{},
		}, nil
	}
	return nil, errors.New("no unused id after 10 attempts")
}

// taken reports whether anything of the session id is there already: its
// journal, images or attachments.
func (s *Store) taken(id string) bool {
	for _, p := range []string{s.path(id), s.ImageDir(id), s.AttachmentDir(id)} {
		if _, err := os.Lstat(p); !errors.Is(err, fs.ErrNotExist) {
			return true
		}
	}
	return false
}

// removeStaleImports removes the temporary files of journals that do not
// exist, once they are fileio.StaleTemp old: what an import killed before
// it finished left (no open removes them, as there is no session to open).
// The images and attachments such an import had stored go with them, once
// no temporary journal of the session is left: nothing else would remove
// them, and its id would stay taken for good.
func (s *Store) removeStaleImports() {
	var killed []string
	_ = fileio.RemoveTemps(s.dir, func(base string) bool {
		id, ok := strings.CutSuffix(base, journalExt)
		if !ok || !validID(id) {
			return false
		}
		_, err := os.Lstat(s.path(id))
		if errors.Is(err, fs.ErrNotExist) {
			killed = append(killed, id)
			return true
		}
		return false
	}, s.clock().Add(-fileio.StaleTemp))
	for _, id := range killed {
		if left, err := filepath.Glob(filepath.Join(s.dir, "."+id+journalExt+".*.tmp")); err == nil && len(left) == 0 && !s.Exists(id) {
			s.removeSessionFiles(id) // a young temporary journal: an import under way keeps them
		}
	}
}

// Exists reports whether the store holds a journal of the session id.
func (s *Store) Exists(id string) bool {
	if !validID(id) {
		return false
	}
	_, err := os.Lstat(s.path(id))
	return err == nil
}

// ID returns the id the session will have.
func (im *Import) ID() string { return im.id }

// Entries returns how many entries were added.
func (im *Import) Entries() int { return im.entries }

// now returns the time of the next record: the clock's, but after the
// record before, as Writer.now.
func (im *Import) now() time.Time {
	t := im.s.clock()
	if !t.After(im.last) {
		t = im.last.Add(time.Nanosecond)
	}
	if t.After(maxRecordTime) {
		t = maxRecordTime
	}
	im.last = t
	return t
}

// SetParams sets the session's settings.
func (im *Import) SetParams(p Params) {
	im.params = p.Clone()
	im.paramsLate = im.header // the header written holds others
}

// headerLine is the journal's first line.
func (im *Import) headerLine() ([]byte, error) {
	p := im.params.Clone()
	return encodeRecord(&record{V: formatVersion, Type: recHeader, Time: im.created, M: im.s.machine, ID: im.id, Created: &im.created, Params: &p})
}

// write writes line to the spool.
func (im *Import) write(line []byte) error {
	if _, err := im.w.Write(line); err != nil {
		return err
	}
	im.lines++
	return nil
}

// Add writes the entry e, which has an id no entry before it has. Its
// parent is kept for Finish of a tree; for a line of entries, it follows
// the one before it. An image path outside this store's images folder is
// left out (see ownImages); the images and attachments that name their
// bytes by hash get them from AddFile.
func (im *Import) Add(e Entry) error {
	if im.done {
		return errors.New("import session: finished")
	}
	if !im.header {
		line, err := im.headerLine()
		if err != nil {
			return err
		}
		if err := im.write(line); err != nil {
			return fmt.Errorf("import session: %w", writeHint(err))
		}
		im.header = true
	}
	if e.ID == "" {
		id, err := newEntryID(im.now(), im.s.random)
		if err != nil {
			return fmt.Errorf("import session: %w", err)
		}
		e.ID = id
	}
	e = im.s.ownImages([]Entry{e})[0]
	if e.Parent != "" && !im.seen[e.Parent] && im.orphan == nil {
		im.orphan = fmt.Errorf("entry %q follows %q, which does not come before it", e.ID, e.Parent)
	}
	line := im.lines
	if e.Parent != im.prev {
		im.parents[line] = im.prev
	}
	im.prev = e.ID
	im.seen[e.ID] = true
	if e.Kind == KindUser && !im.prompted {
		im.firstPrompt, im.prompted = TitleFrom(titleText(e.Text)), true
	}
	if e.Kind == KindImage {
		im.turn++
		hashed := false
		for j, img := range e.Images {
			if img.SHA256 == "" {
				continue
			}
			if !hashed {
				e.Images = append([]Image(nil), e.Images...)
				hashed = true
			}
			im.images[img.SHA256] = append(im.images[img.SHA256], importedImage{line: line, j: j, turn: im.turn, index: img.Index})
			e.Images[j].SHA256 = "" // the journal has the path
		}
	}
	for _, a := range e.Files() {
		// One of each kind and media type: they name its file.
		if !slices.ContainsFunc(im.attachments[a.SHA256], func(b Attachment) bool { return b.Kind == a.Kind && b.MediaType == a.MediaType }) {
			im.attachments[a.SHA256] = append(im.attachments[a.SHA256], a)
		}
	}
	t := im.now()
	if e.Time.IsZero() {
		e.Time = t
	}
	rec, err := encodeRecord(&record{Type: recEntry, Time: t, M: im.s.machine, Entry: &e})
	if err != nil {
		return fmt.Errorf("import session: entry %q: %w (shorten it, or take it out of the export)", e.ID, err)
	}
	if err := im.write(rec); err != nil {
		return fmt.Errorf("import session: %w", writeHint(err))
	}
	im.entries++
	return nil
}

// titleText returns the start of text that TitleFrom finds a title in: a
// prompt of megabytes on one line would take many times its size there.
func titleText(text string) string {
	const most = 64 << 10
	if len(text) <= most {
		return text
	}
	i := most
	for i > 0 && !utf8.RuneStart(text[i]) {
		i--
	}
	return text[:i]
}

// EndEntries tells that every entry was added: a file AddFile is given
// after it that no entry names is not kept.
func (im *Import) EndEntries() { im.entered = true }

// AddFile stores data, the bytes of the attachments and images whose hash
// is hash, for the entries added. Bytes of another hash, or an image that
// does not decode whole, are not stored: resuming reports them missing.
// Bytes that come before the entries are kept until Finish.
func (im *Import) AddFile(hash string, data []byte) {
	if im.done {
		return
	}
	imgs, atts := im.images[hash], im.attachments[hash]
	if len(imgs) == 0 && len(atts) == 0 {
		if !im.entered {
			im.early[hash] = data
		}
		return
	}
	if hashOf(data) != hash {
		return
	}
	image := checkImage(data) == nil
	for _, at := range imgs {
		if !image {
			break
		}
		if saved, err := im.s.SaveImage(im.id, at.turn, at.index, data); err == nil {
			im.saved[[2]int{at.line, at.j}] = saved.Path
			im.savedLines[at.line] = true
		}
	}
	for _, a := range atts {
		if a.Kind != AttachImage || image {
			_, _ = im.s.saveAttachment(im.id, a, data)
		}
	}
	delete(im.images, hash)
	delete(im.attachments, hash)
}

// Abort removes what the import wrote. It may be called after Finish,
// which it leaves as it is.
func (im *Import) Abort() {
	if im.done {
		return
	}
	im.done = true
	im.spool.Close()
	os.Remove(im.spool.Name())
	im.removeFiles()
}

// removeFiles removes the images and attachments stored for the session.
func (im *Import) removeFiles() {
	im.s.removeSessionFiles(im.id)
}

// removeSessionFiles removes the images and attachments stored for the
// session id, never through a link.
func (s *Store) removeSessionFiles(id string) {
	_ = s.removeImages(id)
	if s.checkOwn(s.AttachmentDir(id)) == nil {
		_ = os.RemoveAll(s.AttachmentDir(id))
	}
}

// Finish writes the session's journal: the title (marked as imported, see
// importedTitle), the entries, and for a tree (an export of every branch,
// whose entries follow the parents they name) the head, which ends the
// active branch when it is not "". It refuses a tree whose entries follow
// one that does not come before them. Whatever it returns, the import is
// over: on an error nothing of it is left.
func (im *Import) Finish(title string, tree bool, head string) (err error) {
	if im.done {
		return errors.New("import session: finished")
	}
	defer func() {
		if err != nil {
			im.Abort()
			err = fmt.Errorf("import session: %w", err)
		}
	}()
	switch {
	case tree && im.orphan != nil:
		return im.orphan
	case tree && head != "" && !im.seen[head]:
		return fmt.Errorf("the head %q is not one of the entries", head)
	}
	for hash, data := range im.early {
		im.AddFile(hash, data)
	}
	im.early = nil
	if !tree {
		head = ""
	}
	if !im.header {
		line, err := im.headerLine()
		if err != nil {
			return err
		}
		if err := im.write(line); err != nil {
			return writeHint(err)
		}
		im.header = true
	}
	t := importedTitle(title, im.firstPrompt)
	tail, err := encodeRecord(&record{Type: recTitle, Time: im.created, M: im.s.machine, Title: &t})
	if err != nil {
		return err
	}
	if head != "" {
		rec, err := encodeRecord(&record{Type: recHead, Time: im.now(), M: im.s.machine, Head: &head})
		if err != nil {
			return err
		}
		tail = append(tail, rec...)
	}
	if im.paramsLate || len(im.savedLines) > 0 || !tree && len(im.parents) > 0 {
		f, err := im.rewritten(tree)
		if err != nil {
			return writeHint(err)
		}
		im.spool.Close()
		os.Remove(im.spool.Name())
		im.spool, im.w = f, bufio.NewWriterSize(f, 64<<10) // removed by Abort, if it comes to that
	}
	if _, err := im.w.Write(tail); err != nil {
		return writeHint(err)
	}
	if err := im.w.Flush(); err != nil {
		return writeHint(err)
	}
	if err := im.spool.Sync(); err != nil {
		return writeHint(err)
	}
	if err := im.spool.Close(); err != nil {
		return writeHint(err)
	}
	// Linked, not renamed: a session of the same id that appeared since
	// is not replaced.
	if err := os.Link(im.spool.Name(), im.s.path(im.id)); err != nil {
		return writeHint(err)
	}
	im.done = true
	os.Remove(im.spool.Name())
	im.s.changed(im.id)
	// The journal is there: a directory that cannot be synced is no
	// reason to say the import failed.
	_ = fileio.SyncDir(im.s.dir)
	return nil
}

// rewritten writes the spool again to a new temporary file, which it
// returns open for writing: a new header, and the entries changed as
// Finish needs: for a line of entries each after the one before it, and
// the images AddFile stored with their paths.
func (im *Import) rewritten(tree bool) (*os.File, error) {
	if err := im.w.Flush(); err != nil {
		return nil, err
	}
	if _, err := im.spool.Seek(0, io.SeekStart); err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(im.s.dir, "."+im.id+journalExt+".*.tmp")
	if err != nil {
		return nil, err
	}
	fail := func(err error) (*os.File, error) {
		f.Close()
		os.Remove(f.Name())
		return nil, err
	}
	if err := f.Chmod(fileio.FileMode); err != nil {
		return fail(err)
	}
	out := bufio.NewWriterSize(f, 64<<10)
	hdr, err := im.headerLine()
	if err != nil {
		return fail(err)
	}
	if _, err := out.Write(hdr); err != nil {
		return fail(err)
	}
	in := bufio.NewReaderSize(im.spool, 64<<10)
	var buf []byte
	for n := 0; ; n++ {
		l, err := fileio.ReadLine(in, buf, maxLine+1)
		buf = l.Data
		if err != nil && err != io.EOF {
			return fail(err)
		}
		if l.Size == 0 {
			break
		}
		if n == 0 {
			continue // the old header
		}
		line := append(l.Data, '\n')
		if l.TooLong {
			return fail(fmt.Errorf("line %d: more than %d MiB", n+1, maxLine>>20))
		}
		if parent, moved := im.parents[n]; moved && !tree || im.savedLines[n] {
			var rec record
			if err := json.Unmarshal(l.Data, &rec); err != nil || rec.Entry == nil {
				return fail(fmt.Errorf("read back entry %d: %v", n, err))
			}
			if moved && !tree {
				rec.Entry.Parent = parent
			}
			for j := range rec.Entry.Images {
				if p, ok := im.saved[[2]int{n, j}]; ok {
					rec.Entry.Images[j].Path, rec.Entry.Images[j].Error = p, ""
				}
			}
			if line, err = encodeRecord(&rec); err != nil {
				return fail(err)
			}
		}
		if _, err := out.Write(line); err != nil {
			return fail(err)
		}
		if err == io.EOF {
			break
		}
	}
	if err := out.Flush(); err != nil {
		return fail(err)
	}
	return f, nil
}
