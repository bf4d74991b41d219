package session

import (
	"path/filepath"
	"slices"
	"strings"
	"unicode/utf8"
)

// Imported is a session read from an export, which Store.SaveImported saves
// as a new one.
type Imported struct {
	// ID is the id of the session exported, which MergeImported merges
	// into.
	ID      string
	Title   string
	Params  Params
	Entries []Entry
	// Tree is set for an export of every branch: each entry names its
	// parent, which the caller has checked comes before it, and Head ends
	// the active branch. Otherwise the entries are a line, each after the
	// one before it, whatever parents they name.
	Tree bool
	Head string
	// Files are the bytes of the entries' attachments, by SHA-256, as a
	// JSON export embeds them. Bytes that do not match their hash are not
	// stored: resuming reports that attachment missing.
	Files map[string][]byte
}

// SaveImported saves im as a new session, with a new id, through an
// Import (see BeginImport), and returns it as loaded back. The title is
// marked as imported (see ImportedSuffix) and is no longer than a rename
// allows; otherwise it is kept as it was written (the front ends sanitize
// it). A session it cannot complete leaves nothing.
func (s *Store) SaveImported(im Imported) (*Session, error) {
	w, err := s.BeginImport(im.Params)
	if err != nil {
		return nil, err
	}
	for _, e := range im.Entries {
		if err := w.Add(e); err != nil {
			w.Abort()
			return nil, err
		}
	}
	w.EndEntries()
	for hash, data := range im.Files {
		w.AddFile(hash, data)
	}
	if err := w.Finish(im.Title, im.Tree, im.Head); err != nil {
		return nil, err
	}
	return s.Load(w.ID())
}

// saveImportedFiles stores the attachments of im's entries whose bytes it
// holds, under their hash; bytes of another hash than the entry names are
// not stored under it, nor an image that does not decode whole.
func (s *Store) saveImportedFiles(id string, im Imported) {
	for _, e := range im.Entries {
		for _, a := range e.Files() {
			data, ok := im.Files[a.SHA256]
			if !ok || hashOf(data) != a.SHA256 || (a.Kind == AttachImage && checkImage(data) != nil) {
				continue // reported missing on resume, sent as a line saying so
			}
			_, _ = s.saveAttachment(id, a, data)
		}
	}
}

// restoreImages saves, into the images folder of the session id, the
// generated images whose bytes the export embeds (checked against their
// hash, decoded whole), and returns the entries with their paths there.
// The entries are copied where they change.
func (s *Store) restoreImages(id string, im Imported) []Entry {
	out := slices.Clone(im.Entries)
	turn := 0
	for i := range out {
		if out[i].Kind != KindImage {
			continue
		}
		turn++
		imgs := slices.Clone(out[i].Images)
		for j, img := range imgs {
			data, ok := im.Files[img.SHA256]
			imgs[j].SHA256 = ""
			if !ok || hashOf(data) != img.SHA256 || checkImage(data) != nil {
				continue
			}
			saved, err := s.SaveImage(id, turn, img.Index, data)
			if err != nil {
				continue
			}
			imgs[j].Path, imgs[j].Error = saved.Path, ""
		}
		out[i].Images = imgs
	}
	return out
}

// ownImages returns entries with every image path that does not lie in
// this store's images folder left out, the image noted as not on this
// machine: an export names files by path, and an imported one could
// otherwise make muse read any file for a preview and hand it to a
// viewer. The entries are copied where they change.
func (s *Store) ownImages(entries []Entry) []Entry {
	root := filepath.Join(filepath.Dir(s.dir), imagesDir) + string(filepath.Separator)
	out := entries
	copied := false
	for i, e := range entries {
		for j, img := range e.Images {
			p := img.Path
			if p == "" || filepath.IsAbs(p) && strings.HasPrefix(filepath.Clean(p), root) && !strings.Contains(p, "..") {
				continue
			}
			if !copied {
				out, copied = slices.Clone(entries), true
			}
			if len(out[i].Images) > 0 && &out[i].Images[0] == &entries[i].Images[0] {
				out[i].Images = slices.Clone(e.Images)
			}
			out[i].Images[j].Path = ""
			if out[i].Images[j].Error == "" {
				out[i].Images[j].Error = "imported: its file was not in muse's images folder, so it was left out"
			}
		}
	}
	return out
}

// ImportedSuffix ends the title of an imported session, so that it no
// longer names the same session as the one it was exported from.
const ImportedSuffix = " (imported)"

// importedTitle is the title of an imported session whose export is
// titled title: it, or firstPrompt (the title its first prompt gives, see
// TitleFrom) when it is "", cut so that with ImportedSuffix it stays within
// maxRenameRunes runes (a 50 MiB title slowed every list). A title that
// already ends in ImportedSuffix is not marked twice.
func importedTitle(title, firstPrompt string) string {
	t := title
	if t == "" {
		t = firstPrompt
	}
	if t == "" {
		t = Untitled
	}
	if strings.HasSuffix(t, ImportedSuffix) && utf8.RuneCountInString(t) <= maxRenameRunes {
		return t
	}
	if r, room := []rune(t), maxRenameRunes-utf8.RuneCountInString(ImportedSuffix); len(r) > room {
		t = string(r[:room])
	}
	return t + ImportedSuffix
}

// MergeImported merges im into the session of the same id, as merging a
// copy of its journal would (merge.go): the entries of im it does not hold
// are added, each after the parent it names (after the one before it, for
// an export of one branch), and the newest of them becomes the active one;
// the entries it holds stay as they are, and its title stays unless it has
// none. It returns the session as loaded back, and how many entries were
// added. An id the store does not hold gives an error wrapping ErrNotFound.
func (s *Store) MergeImported(im Imported) (*Session, int, error) {
	m, err := s.BeginMerge(im.ID)
	if err != nil {
		return nil, 0, err
	}
	for _, e := range im.Entries {
		m.Add(e)
	}
	m.EndEntries()
	for hash, data := range im.Files {
		m.AddFile(hash, data)
	}
	n, err := m.Finish(im.Title, im.Tree)
	if err != nil {
		return nil, 0, err
	}
	sess, err := s.Load(im.ID)
	return sess, n, err
}
