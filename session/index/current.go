package index

import (
	"errors"
	"fmt"

	"muse/session"
)

// ListCurrent lists the sessions as List does, current with the journals
// even when the index could not be brought up to date (Stale: another
// holds its lock): a session whose journal has the stamp the index noted
// is listed from the index, the others from their journals, read now, and
// those whose journal is gone are left out. It writes nothing, so no lock
// stops it, and reads only the journals that changed: a list of 10,000
// sessions from the journals alone reads them all, for seconds.
func (ix *Index) ListCurrent() ([]session.Info, error) {
	scan, err := ix.store.Scan()
	if err != nil {
		return nil, fmt.Errorf("list sessions: %w", err)
	}
	known, err := ix.stampsOf(nil)
	if err != nil {
		return nil, fmt.Errorf("list sessions from the index: %w", err)
	}
	infos, err := ix.List()
	if err != nil {
		return nil, err
	}
	out := infos[:0]
	for _, in := range infos {
		if st, ok := scan.Journals[in.ID]; ok && st == known[in.ID] {
			out = append(out, in)
		}
	}
	for id, st := range scan.Journals {
		if k, ok := known[id]; ok && k == st {
			continue
		}
		_, info, _, err := ix.store.LoadStamped(id)
		if errors.Is(err, session.ErrNotFound) {
			continue // removed since the scan
		}
		if err != nil {
			return nil, fmt.Errorf("list sessions: %w", err)
		}
		out = append(out, info)
	}
	session.SortInfos(out, ix.now())
	return out, nil
}
