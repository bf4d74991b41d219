package attach

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"

	"muse/session"
)

// One look at a file. A path looked up once to check it and again to read
// it may name two files: one swapped in between (notes.txt flipped from a
// plain file to a link to ~/.ssh/id_ed25519) is sent unchecked. Check
// opens the file once, works out where the file it opened really is, runs
// the secret and link checks on that, and Read reads the same open file:
// what is checked is what is sent. Every path attached (a mention typed,
// pasted or from the editor, /attach, --attach) goes through it.

// Unplaced is the Secret of a file whose real path muse cannot work out
// (see Opened.Unplaced).
const Unplaced = "a file muse cannot find under any name (deleted, or replaced as it was opened), which may be a key"

// Opened is a file opened to be attached, with what the checks found of
// it. Read reads it; Close closes it.
type Opened struct {
	file *os.File
	name string
	info fs.FileInfo
	// Secret is what the file is when it must not be attached from a
	// mention (see [Secret]), or "".
	Secret string
	// Link is where a link on the way led (see [Follow]).
	Link Link
	// Unplaced is set when the real path of the file opened is unknown:
	// it has no name left (a deleted file a link through /proc/self/fd
	// reaches), or no path names it any more. Secret then says so, as
	// nothing else about it can be told.
	Unplaced bool
}

// Test hooks: afterOpen runs once the file is opened, before it is
// checked; openPath is where the system says an open file is.
var (
	afterOpen = func() {}
	openPath  = fdPath
)

// Check opens the file at path (absolute, or relative to the working
// folder; ~ already expanded), following its links as the system does,
// and checks the file it opened: a missing file, a directory, a pipe or a
// device is refused (a [RefusedError]; a missing file's wraps
// fs.ErrNotExist); what may be opened is checked by its real path. The
// caller closes it.
func Check(path string) (*Opened, error) {
	name := filepath.Base(path)
	st, err := os.Stat(path)
	if err != nil {
		return nil, statRefusal(name, err)
	}
	if err := checkMode(name, st.Mode()); err != nil {
		return nil, err // a device is never opened
	}
	// O_NONBLOCK: should the path become a named pipe after the Stat, the
	// open does not wait for a writer; the Stat of the open file decides.
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, statRefusal(name, err)
	}
	o := &Opened{file: f, name: name}
	if o.info, err = f.Stat(); err != nil {
		f.Close()
		return nil, refuse(name, "cannot read it: %v", err)
	}
	if err := checkMode(name, o.info.Mode()); err != nil {
		f.Close()
		return nil, err
	}
	afterOpen()
	abs, err := filepath.Abs(path)
	if err != nil {
		f.Close()
		return nil, refuse(name, "cannot read it: %v", err)
	}
	real := realPath(f, path, o.info)
	if real == "" {
		o.Unplaced, o.Secret = true, Unplaced
		return o, nil
	}
	o.Secret, o.Link = secretOf(abs, real, o.info), follow(path, abs, real)
	return o, nil
}

// Read reads the file opened, once, and prepares it.
func (o *Opened) Read() (session.File, error) {
	data, err := readFrom(o.file, o.name, o.info)
	if err != nil {
		return session.File{}, err
	}
	return FromBytes(o.name, data)
}

// Close closes the file opened.
func (o *Opened) Close() error { return o.file.Close() }

// realPath is the real path of f, opened from path, of Stat st: where the
// system says the open file is, or else path with its links followed, as
// long as that path names the very file opened now; "" when none does.
func realPath(f *os.File, path string, st fs.FileInfo) string {
	_, followed := resolve(path)
	for _, p := range []string{openPath(f), followed} {
		if p == "" || !filepath.IsAbs(p) {
			continue
		}
		if fi, err := os.Stat(p); err == nil && os.SameFile(fi, st) {
			return filepath.Clean(p)
		}
	}
	return ""
}
