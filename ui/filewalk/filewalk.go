// Package filewalk lists the files under a folder for the @ menu under the
// chat screen's input: breadth first, so the files nearest the top come
// first, honouring .gitignore files, skipping .git, and bounded: it stops
// after a number of entries, so a folder of 100,000 files (or a home
// folder) costs what the bound allows and no more. It is I/O: the input
// runs it in a command, never in Update.
//
// The .gitignore rules are matched here, not by go-git's gitignore package:
// adding go-git for it upgrades x/crypto, x/net, x/term and x/text for the
// whole module, and the walk needs only the pattern language (see
// ignore.go), which is small.
package filewalk

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
)

// Result is what a walk found.
type Result struct {
	// Files are the files found, relative to the root, slash-separated,
	// shallowest first.
	Files []string
	// Visited is how many entries were read (files and folders): the work
	// done, never more than the walk's limit.
	Visited int
	// Cut is set when the limit stopped the walk before its end.
	Cut bool
}

// Walk lists the files under root, reading at most limit entries. Folders
// and files a .gitignore (in root or a folder under it) ignores are left
// out, and an ignored folder is not read. A folder that cannot be read is
// skipped; only a root that cannot be read is an error.
func Walk(root string, limit int) (Result, error) {
	var res Result
	limit = max(limit, 1)
	if _, err := os.ReadDir(root); err != nil {
		return res, err
	}
	var ig ignores
	queue := []string{""} // folders to read, relative to root
	for len(queue) > 0 {
		dir := queue[0]
		queue = queue[1:]
		full := filepath.Join(root, filepath.FromSlash(dir))
		ig.load(full, dir)
		entries, err := readDir(full, limit-res.Visited)
		if err != nil && len(entries) == 0 {
			continue
		}
		for _, e := range entries {
			res.Visited++
			name := e.Name()
			rel := path.Join(dir, name)
			isDir := e.IsDir()
			if name == ".git" && isDir || ig.ignored(rel, isDir) {
				continue
			}
			if isDir {
				queue = append(queue, rel)
			} else {
				res.Files = append(res.Files, rel)
			}
		}
		if res.Visited >= limit {
			res.Cut = len(queue) > 0 || errors.Is(err, errMore)
			break
		}
	}
	return res, nil
}

// errMore says a folder has more entries than were read.
var errMore = errors.New("more entries")

// readDir reads at most n entries of the folder dir, sorted by name, with
// errMore when it has more.
func readDir(dir string, n int) ([]fs.DirEntry, error) {
	f, err := os.Open(dir)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	entries, err := f.ReadDir(n)
	slices.SortFunc(entries, func(a, b fs.DirEntry) int {
		switch {
		case a.Name() < b.Name():
			return -1
		case a.Name() > b.Name():
			return 1
		}
		return 0
	})
	if err == nil && len(entries) == n {
		return entries, errMore
	}
	return entries, nil
}
