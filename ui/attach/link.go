package attach

import (
	"os"
	"path/filepath"
)

// Links out of the working folder. A file in the working folder may be a
// link to anywhere: README.md in a cloned project may lead to
// ~/.config/gh/hosts.yml, and a folder on the way (docs/ linked to
// ~/.config) does as well as the file itself. Its chip would read
// "README.md · 43 B": a mention of it names one file and sends another, so
// it is not consent. Follow says where such a path leads, for the caller
// to show the target and have it confirmed.
//
// What counts as naming a place: a path written absolute (or from ~) that
// lies outside the working folder names that place itself, links in its
// folders included, as the user typed or pasted it; only a link that is
// the file itself is still shown. A path written relative, or absolute
// inside the working folder, names something in the folder: a link on the
// way (any folder, or the file) that leads out of the folder is shown and
// must be confirmed.

// Link is where a path leads once its links are followed.
type Link struct {
	// Target is the file's real path (every link followed) when a link on
	// the way leads out of the working folder to it; "" when none does,
	// or when the path names nothing.
	Target string
	// Named is set when the path as written is absolute (or from ~) and
	// outside the working folder: the user named the place.
	Named bool
}

// Follow follows the links of path (absolute, or relative to the working
// folder; ~ already expanded) and says whether one leads out of the
// working folder, and where. Like Secret, it looks the path up for itself,
// to say where a path shown leads; Check decides on the file it opens.
func Follow(path string) Link {
	abs, real := resolve(path)
	return follow(path, abs, real)
}

// follow is Follow for path, whose absolute form is abs and real path is
// real ("" when unknown).
func follow(path, abs, real string) Link {
	wd, err := os.Getwd()
	if err != nil {
		return Link{}
	}
	if abs == "" || real == "" {
		return Link{}
	}
	realWd := wd
	if r, err := filepath.EvalSymlinks(wd); err == nil {
		realWd = r
	}
	if within(real, realWd) {
		return Link{} // whatever the links, it stays in the working folder
	}
	inside := within(abs, wd) || within(abs, realWd)
	var plain string // where path leads with only the links it names followed
	switch {
	case filepath.IsAbs(path) && !inside:
		dir, err := filepath.EvalSymlinks(filepath.Dir(abs))
		if err != nil {
			return Link{}
		}
		plain = filepath.Join(dir, filepath.Base(abs))
	case within(abs, wd):
		rel, err := filepath.Rel(wd, abs)
		if err != nil {
			return Link{}
		}
		plain = filepath.Join(realWd, rel)
	case within(abs, realWd):
		plain = abs
	default: // relative, out of the folder with "..": from the real folder
		plain = filepath.Join(realWd, filepath.Clean(path))
	}
	l := Link{Named: filepath.IsAbs(path) && !inside}
	if real != plain {
		l.Target = real
	}
	return l
}
