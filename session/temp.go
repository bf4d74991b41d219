package session

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// Files are replaced whole by writing a temporary file beside them, named
// by os.CreateTemp ".<name>.<digits>.tmp", then renaming it over the file
// (writeAtomic) or linking it to its name (writeFresh). A crash between the
// two leaves the temporary file, as large as what was being saved (an image
// of 60 MB), and nothing else would ever remove it. So those of a session
// (its images, its journal's compaction) are removed when muse opens the
// session, under its lock: no other muse can be writing them then. The
// index's, which muses share without a lock, are removed then too once
// they are staleTemp old: no save takes that long. The prompt history's
// are removed the same way when it is compacted (see PromptHistory).

// staleTemp is the age from which a temporary file nobody locks is left over.
const staleTemp = time.Hour

// tempBase returns the name a temporary file of muse's stands for: "x.png"
// for ".x.png.123.tmp"; ok is false for any other name.
func tempBase(name string) (base string, ok bool) {
	rest, ok := strings.CutPrefix(name, ".")
	if !ok {
		return "", false
	}
	if rest, ok = strings.CutSuffix(rest, ".tmp"); !ok {
		return "", false
	}
	i := strings.LastIndexByte(rest, '.')
	if i <= 0 || i == len(rest)-1 || strings.Trim(rest[i+1:], "0123456789") != "" {
		return "", false
	}
	return rest[:i], true
}

// removeTemps removes the temporary files in dir that stand for a name
// match accepts, and that were last written before before, unless it is
// zero. A directory that does not exist holds none.
func removeTemps(dir string, match func(base string) bool, before time.Time) error {
	des, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return err
	}
	var errs []error
	for _, de := range des {
		base, ok := tempBase(de.Name())
		if !ok || !de.Type().IsRegular() || !match(base) {
			continue
		}
		if !before.IsZero() {
			if fi, err := de.Info(); err != nil || !fi.ModTime().Before(before) {
				continue
			}
		}
		if err := os.Remove(filepath.Join(dir, de.Name())); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

// removeSessionTemps removes what crashes left of the saves of the session
// id, whose lock the caller holds: the temporary files of its images and of
// its journal's compaction, and the index's stale ones.
func (s *Store) removeSessionTemps(id string) error {
	journal := id + journalExt
	err := errors.Join(
		removeTemps(s.dir, func(base string) bool { return base == journal }, time.Time{}),
		removeTemps(s.dir, func(base string) bool { return base == indexName }, s.clock().Add(-staleTemp)),
		removeTemps(s.ImageDir(id), isImageName, time.Time{}),
	)
	if err != nil {
		return fmt.Errorf("remove the temporary files a crash left: %w", err)
	}
	return nil
}

// isImageName reports whether name is one SaveImage gives an image:
// turn-<turn>-image-<index>.<ext>.
func isImageName(name string) bool {
	rest, ok := strings.CutPrefix(name, "turn-")
	if !ok {
		return false
	}
	turn, rest, ok := strings.Cut(rest, "-image-")
	index, ext, ok2 := strings.Cut(rest, ".")
	digits := func(s string) bool { return s != "" && strings.Trim(s, "0123456789") == "" }
	return ok && ok2 && digits(turn) && digits(index) && (ext == imageExt(FormatPNG) || ext == imageExt(FormatJPEG) || ext == imageExt(FormatWebP))
}
