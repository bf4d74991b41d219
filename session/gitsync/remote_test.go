package gitsync

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// LocalPath reads a remote as git does: a path, or a file:// URL, is on
// this machine; a URL or an scp-like host:path is not.
func TestLocalPath(t *testing.T) {
	for remote, want := range map[string]string{
		"/srv/r.git": "/srv/r.git", "../r.git": "../r.git", "r.git": "r.git", "./a:b.git": "./a:b.git",
		"file:///srv/r.git": "/srv/r.git",
		"git@host:me/r.git": "", "host:r.git": "", "ssh://git@host/r.git": "", "https://host/r.git": "",
	} {
		p, ok := LocalPath(remote)
		if p != want || ok != (want != "") {
			t.Errorf("LocalPath(%q) = %q, %v; want %q", remote, p, ok, want)
		}
	}
}

// Init on a relative path works, from the folder it is given in, and
// keeps the path absolute for the syncs after; before, git read it from
// muse's own folder and found nothing there. A missing path is a
// MissingRemoteError; a folder that holds no repository, or an address
// git cannot reach, says so before what git said.
func TestInitReadsTheRemoteAsGiven(t *testing.T) {
	bare := newBare(t)
	t.Chdir(filepath.Dir(bare))
	m := newMachine(t, filepath.Base(bare), "")
	st, err := loadState(m.o.StateDir)
	if err != nil || st.Remote != bare {
		t.Fatalf("the state keeps %q, %v; want %q", st.Remote, err, bare)
	}
	m.sync(t)

	o := m.o
	o.StateDir = filepath.Join(t.TempDir(), "state")
	_, err = Init(context.Background(), o, "nosuch.git")
	var missing *MissingRemoteError
	if !errors.As(err, &missing) || missing.Path != filepath.Join(filepath.Dir(bare), "nosuch.git") {
		t.Errorf("a missing remote: %v", err)
	}
	empty := t.TempDir()
	if _, err := Init(context.Background(), o, empty); err == nil || !strings.HasPrefix(err.Error(), "the remote "+empty+" is not a git repository") {
		t.Errorf("a folder that holds no repository: %v", err)
	}
	file := filepath.Join(empty, "notes.txt")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Init(context.Background(), o, file); err == nil || !strings.HasPrefix(err.Error(), "the remote "+file+" is a file") {
		t.Errorf("a file: %v", err)
	}
	if _, err := Init(context.Background(), o, "https://u:p@ss@127.0.0.1:1/r.git"); err == nil ||
		!strings.HasPrefix(err.Error(), "cannot reach the remote https://***@127.0.0.1:1/r.git") || strings.Contains(err.Error(), "ss@") {
		t.Errorf("an address git cannot reach: %v", err)
	}
}
