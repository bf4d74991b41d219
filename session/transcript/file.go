package transcript

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFile writes an export to the file path, mode 0600, through write:
// the one rule of muse sessions export -o and the chat screen's /export.
// It never writes through a symbolic link. Without force it refuses an
// existing path ("use --force to replace it"); with force it writes a
// temporary file beside path and renames it over path, so that path is
// never left half written. A file it fails to write is removed.
func WriteFile(path string, force bool, write func(io.Writer) error) error {
	if fi, err := os.Lstat(path); err == nil {
		switch {
		case fi.Mode()&os.ModeSymlink != 0:
			return fmt.Errorf("%s is a symbolic link, which export does not write through: give the path of a new file", path)
		case !force:
			return fmt.Errorf("%s exists: use --force to replace it", path)
		case !fi.Mode().IsRegular():
			return fmt.Errorf("%s exists and is not a regular file: give the path of a new file", path)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	if !force {
		// O_EXCL fails on any existing path, a symbolic link included, so
		// a file created since the check is not replaced either.
		f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o600)
		if errors.Is(err, fs.ErrExist) {
			return fmt.Errorf("%s exists: use --force to replace it", path)
		}
		if err != nil {
			return err
		}
		return writeSynced(f, write, func() { os.Remove(path) })
	}
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	if err := writeSynced(f, write, func() { os.Remove(tmp) }); err != nil {
		return err
	}
	// rename replaces a symbolic link put at path since the check; it
	// never follows it.
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// writeSynced writes to f through write, syncs and closes it, and calls
// undo when any of that fails.
func writeSynced(f *os.File, write func(io.Writer) error, undo func()) error {
	err := f.Chmod(0o600) // whatever the umask
	if err == nil {
		err = write(f)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		undo()
	}
	return err
}
