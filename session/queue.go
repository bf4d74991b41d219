package session

// The prompts the chat screen queued behind a turn in flight are kept in
// <id>.queue beside the session's journal (mode 0600), so that a kill or a
// crash does not lose them: the screen writes the whole queue each time it
// changes, and removes the file when it empties, as the prompts are sent.
// Opening the session for writing reads it back (Session.Queue). Their
// attachments are stored as a prompt's are, by hash, in the session's
// attachments folder; the file holds only what they are.

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"muse/session/internal/fileio"
)

// queueExt is the file name extension of a session's queue.
const queueExt = ".queue"

// maxQueueFile bounds the queue file read back: the queue holds prompts
// typed or pasted, and what its attachments are, never their bytes.
const maxQueueFile = 16 << 20

// QueuedPrompt is a prompt waiting to be sent after the turn in flight.
type QueuedPrompt struct {
	Text string `json:"text"`
	// Attachments are sent with Text, before it; their bytes are in the
	// session's attachments folder, and Data holds them once read back.
	Attachments []Attachment `json:"attachments,omitempty"`
	Data        [][]byte     `json:"-"`
}

// queueFile is the JSON of a queue file.
type queueFile struct {
	V       int            `json:"v"`
	Prompts []QueuedPrompt `json:"prompts"`
}

func (s *Store) queuePath(id string) string { return filepath.Join(s.dir, id+queueExt) }

// SaveQueue keeps the prompts q, with their attachments' bytes in Data, as
// the session's queue (and its Queue), replacing the one kept before; an
// empty q removes it. gen orders the saves of a screen, which may run at once: a save with
// a gen below the last one written is skipped, so the newest queue wins. A
// writer without a store keeps nothing.
func (w *Writer) SaveQueue(gen uint64, q []QueuedPrompt) error {
	if w.store == nil {
		return nil
	}
	if len(q) > 0 {
		// The session's journal and id exist before anything beside them.
		if err := w.create(); err != nil {
			return err
		}
	}
	out := make([]QueuedPrompt, len(q))
	for i, p := range q {
		out[i] = QueuedPrompt{Text: p.Text}
		for k, a := range p.Attachments {
			if k < len(p.Data) {
				var err error
				if a, err = w.SaveAttachment(a, p.Data[k]); err != nil {
					return fmt.Errorf("save the queued prompts: %w", err)
				}
			}
			out[i].Attachments = append(out[i].Attachments, a)
		}
	}
	w.ioMu.Lock()
	defer w.ioMu.Unlock()
	w.lock()
	id, stale := w.sess.ID, gen < w.queueGen
	if !stale {
		w.queueGen = gen
		w.sess.Queue = slices.Clone(q)
	}
	w.mu.Unlock()
	if stale || id == "" {
		return nil
	}
	path := w.store.queuePath(id)
	if len(out) == 0 {
		if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("clear the queued prompts: %w", err)
		}
		return nil
	}
	data, err := json.Marshal(queueFile{V: 1, Prompts: out})
	if err != nil {
		return fmt.Errorf("save the queued prompts: %w", err)
	}
	if err := fileio.WriteAtomic(path, data); err != nil {
		return fmt.Errorf("save the queued prompts: %w", writeHint(err))
	}
	return nil
}

// loadQueue reads back the queue of the session id, with the bytes of its
// attachments; one that cannot be read is left out, and a warning says so.
func (s *Store) loadQueue(id string) ([]QueuedPrompt, []string) {
	qf, err := readQueueFile(s.queuePath(id))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, []string{"the queued prompts could not be read: " + err.Error()}
	}
	var warnings []string
	out := qf.Prompts[:0]
	for _, p := range qf.Prompts {
		var kept []Attachment
		for _, a := range p.Attachments {
			b, err := s.ReadAttachment(id, a)
			if err != nil {
				warnings = append(warnings, "a queued prompt lost a file: "+err.Error())
				continue
			}
			kept = append(kept, a)
			p.Data = append(p.Data, b)
		}
		p.Attachments = kept
		if p.Text == "" && len(kept) == 0 {
			continue
		}
		out = append(out, p)
	}
	return out, warnings
}
