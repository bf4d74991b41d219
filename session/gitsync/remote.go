package gitsync

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
)

// urlScheme matches the start of a URL git reads: scheme://.
var urlScheme = regexp.MustCompile(`^[a-zA-Z][a-zA-Z0-9+.-]*://`)

// LocalPath returns the path of the repository remote names on this
// machine, as git reads a remote: a file:// URL, or what is neither
// another URL (scheme://) nor scp-like (host:path, a colon before any
// slash). ok is false for a remote on another machine.
func LocalPath(remote string) (path string, ok bool) {
	if p, ok := strings.CutPrefix(remote, "file://"); ok {
		return p, true
	}
	if urlScheme.MatchString(remote) {
		return "", false
	}
	colon, slash := strings.IndexByte(remote, ':'), strings.IndexByte(remote, '/')
	if colon >= 0 && (slash < 0 || colon < slash) {
		return "", false
	}
	return remote, true
}

// absRemote returns remote with a relative local path made absolute: git
// runs in muse's own folder, where a relative path would name another
// place, and every later sync runs from wherever it is started.
func absRemote(remote string) (string, error) {
	p, ok := LocalPath(remote)
	if !ok || filepath.IsAbs(p) || strings.HasPrefix(remote, "file://") {
		return remote, nil
	}
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", fmt.Errorf("find the remote %s: %w", p, err)
	}
	return abs, nil
}

// unreachable is the error of a remote that ls-remote could not read:
// what is wrong with a local one, as far as muse can tell, else what git
// said.
func unreachable(remote string, err error) error {
	if p, ok := LocalPath(remote); ok {
		fi, serr := os.Stat(p)
		switch {
		case errors.Is(serr, fs.ErrNotExist):
			return &MissingRemoteError{Path: p}
		case serr == nil && !fi.IsDir():
			return fmt.Errorf("the remote %s is a file, not a git repository: give the path of a bare repository (git init --bare PATH makes one)", p)
		case serr == nil:
			return fmt.Errorf("the remote %s is not a git repository muse can read: give the path of a bare repository (git init --bare PATH makes one at a new path): %w", p, err)
		}
	}
	return fmt.Errorf("cannot reach the remote %s: check its address, the network, and that git can read it with your keys or credentials: %w", mask(remote), err)
}

// missingRemote returns a MissingRemoteError when remote is a local path
// that does not exist (moved or removed since sync init), else nil.
func missingRemote(remote string) error {
	if p, ok := LocalPath(remote); ok {
		if _, err := os.Stat(p); errors.Is(err, fs.ErrNotExist) {
			return &MissingRemoteError{Path: p}
		}
	}
	return nil
}

// MissingRemoteError is a local remote that does not exist.
type MissingRemoteError struct {
	Path string // absolute
}

func (e *MissingRemoteError) Error() string {
	return "the remote " + e.Path + " does not exist: make an empty one there with git init --bare, then run muse sync init again"
}
