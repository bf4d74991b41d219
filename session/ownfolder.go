package session

import (
	"fmt"
	"path/filepath"

	"muse/session/internal/fileio"
)

// The images and attachments folders lie beside the sessions directory,
// and sync with it. muse writes into them, and removes from them, only
// when they are folders of its own: a symbolic link there (images ->
// elsewhere), which a sync or a hand put in place, is refused with an
// error saying to remove it, as a link at prompts.jsonl is; it is never
// followed to write, or to remove, where it leads.

// checkOwn returns a *fileio.LinkedDirError when dir, a session's folder
// of images or attachments, or the folder that holds it is a symbolic
// link.
func (s *Store) checkOwn(dir string) error { return fileio.CheckDirUnder(filepath.Dir(s.dir), dir) }

// makeOwn makes dir, a session's folder of images or attachments, after
// checkOwn.
func (s *Store) makeOwn(dir string) error { return fileio.MakeDirUnder(filepath.Dir(s.dir), dir) }

// MakeAttachmentDir makes the attachments folder of the session sessionID
// (AttachmentDir), mode 0700, for a file muse saves there itself (a tool's
// audio), and returns it; a symbolic link in its place, or in that of the
// folder that holds it, is refused.
func (s *Store) MakeAttachmentDir(sessionID string) (string, error) {
	dir := s.AttachmentDir(sessionID)
	if dir == "" {
		return "", fmt.Errorf("make the attachments folder of session %q: invalid id or no store: %w", sessionID, ErrNotFound)
	}
	if err := s.makeOwn(dir); err != nil {
		return "", fmt.Errorf("make the attachments folder of session %s: %w", sessionID, err)
	}
	return dir, nil
}
