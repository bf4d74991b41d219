package session

import (
	"errors"
	"fmt"
	"strings"
	"time"

	"muse/api"
	"muse/session/internal/fileio"
)

// The temporary files a crash left (see fileio.RemoveTemps) are removed
// when muse opens a session, under its lock: no other muse can be writing
// those of the session then (its images, its journal's compaction). Those
// of index.json, which older muses share without a lock, are removed then
// too once they are fileio.StaleTemp old: no save takes that long.

// oldIndexName is the file in which older muses kept what List found.
const oldIndexName = "index.json"

// removeSessionTemps removes what crashes left of the saves of the session
// id, whose lock the caller holds: the temporary files of its images, of
// its attachments (a kill while a large file is stored leaves most of it),
// of its queue and of its journal's compaction, and the index's stale ones.
func (s *Store) removeSessionTemps(id string) error {
	journal, queue := id+journalExt, id+queueExt
	err := errors.Join(
		fileio.RemoveTemps(s.dir, func(base string) bool { return base == journal || base == queue }, time.Time{}),
		fileio.RemoveTemps(s.dir, func(base string) bool { return base == oldIndexName }, s.clock().Add(-fileio.StaleTemp)),
		s.removeOwnTemps(s.ImageDir(id), isImageName),
		s.removeOwnTemps(s.AttachmentDir(id), isAttachmentName),
	)
	if err != nil {
		return fmt.Errorf("remove the temporary files a crash left: %w", err)
	}
	return nil
}

// removeOwnTemps removes the temporary files of dir, a session's folder
// of images or attachments, named for files mine says: none where a
// symbolic link in its place leads (see checkOwn).
func (s *Store) removeOwnTemps(dir string, mine func(string) bool) error {
	if s.checkOwn(dir) != nil {
		return nil
	}
	return fileio.RemoveTemps(dir, mine, time.Time{})
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
	if i, tag, tagged := strings.Cut(index, "-"); tagged {
		// Since ids became unique across machines, a tag of 12 hex
		// digits keeps two machines' images of one turn apart.
		if len(tag) != 12 || strings.Trim(tag, "0123456789abcdef") != "" {
			return false
		}
		index = i
	}
	return ok && ok2 && digits(turn) && digits(index) && (ext == imageExt(FormatPNG) || ext == imageExt(FormatJPEG) || ext == imageExt(FormatWebP))
}

// isAttachmentName reports whether name is one saveAttachment gives a
// file: <sha256 in hex><ext>.
func isAttachmentName(name string) bool {
	hash, ext, ok := strings.Cut(name, ".")
	if !ok || !validHash(hash) {
		return false
	}
	for _, mt := range append([]string{"text/plain", api.MediaPDF}, api.ImageMediaTypes...) {
		if "."+ext == attachmentExt(mt) {
			return true
		}
	}
	return false
}
