package gitsync

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// A gc replaces the remote's history with one commit: a snapshot of every
// file as this machine holds it once it has applied everything (the union
// of every machine's records), and the removals of the last goneLife. The
// push is a force-with-lease on the tip this machine applied: if any other
// machine pushed since, the remote is left as it is and gc says to run it
// again. So the snapshot holds everything any machine pushed, and nothing
// that another machine needs is dropped: what goes is the history of
// bundles, the records compaction dropped, and deleted sessions' content.
//
// The snapshot carries muse-sync/v1/gen.age, a new generation id: a machine
// whose last applied commit is no longer in the history, and which finds a
// generation it has not seen, reads the snapshot (applying is idempotent)
// and sends nothing again; without a new generation, the history was
// rewritten by someone else, and it sends its files whole again.

// genInfo is gen.age's plain text.
type genInfo struct {
	Gen      string `json:"gen"`
	Replaces string `json:"replaces"`
}

// GCResult says what GC did.
type GCResult struct {
	Files   int // files in the snapshot
	Commits int // commits the remote's history held before
}

// GC syncs, then replaces the remote's history with one snapshot.
func GC(ctx context.Context, o Options) (GCResult, error) {
	var res GCResult
	if !o.Images {
		return res, errors.New("muse sync gc needs a machine that syncs images and attachments (sync_images is false here): it would drop the others' from the remote")
	}
	s, unlock, err := open(o)
	if err != nil {
		return res, err
	}
	defer unlock()
	if s.id, err = parseIdentity(o.Identity); err != nil {
		return res, err
	}
	if err := s.run(ctx); err != nil {
		return res, err
	}
	if len(s.st.Deferred) > 0 {
		return res, errors.New("some changes from other machines wait to be applied here (their session is open in muse): close it, then run muse sync gc again")
	}
	tip := s.st.Seen
	n, err := s.g.text(ctx, "rev-list", "--count", tip)
	if err != nil {
		return res, err
	}
	fmt.Sscan(n, &res.Commits)
	sc, err := scan(o.DataDir, map[string]*fileState{}, true)
	if err != nil {
		return res, err
	}
	for rel := range s.st.Gone {
		if sc.files[rel] == nil {
			sc.changes = append(sc.changes, change{Path: rel, Op: opGone})
		}
	}
	bundles, err := s.seal(sc.changes, nil)
	if err != nil {
		return res, err
	}
	var b [16]byte
	rand.Read(b[:])
	gi := genInfo{Gen: hex.EncodeToString(b[:]), Replaces: tip}
	plain, _ := json.Marshal(gi)
	gen, err := encrypt(s.id, plain)
	if err != nil {
		return res, err
	}
	c, err := s.commitWith(ctx, bundles, gen)
	if err != nil {
		return res, err
	}
	if _, err := s.g.run(ctx, nil, "push", "--quiet", "--force-with-lease="+remoteRef+":"+tip, "origin", c+":"+remoteRef); err != nil {
		if rejected(err) || strings.Contains(err.Error(), "stale info") {
			return res, errors.New("another machine pushed while gc ran: nothing was changed; run muse sync gc again")
		}
		return res, fmt.Errorf("push to %s: %w", mask(s.st.Remote), err)
	}
	for rel, fs := range sc.files {
		s.st.Files[rel] = fs
	}
	s.st.Seq += len(bundles)
	s.st.Seen, s.st.Gen = c, gi.Gen
	res.Files = len(sc.changes)
	return res, s.st.save(o.StateDir)
}

// genOf returns the generation of the history of tip: the gen.age of its
// first commit, "" when it has none or it cannot be read.
func (s *syncer) genOf(ctx context.Context, tip string) string {
	roots, err := s.g.text(ctx, "rev-list", "--max-parents=0", tip)
	if err != nil {
		return ""
	}
	root, _, _ := strings.Cut(roots, "\n")
	data, err := s.g.run(ctx, nil, "cat-file", "blob", root+":muse-sync/v1/gen.age")
	if err != nil {
		return ""
	}
	plain, err := decrypt(s.id, data, 1<<10)
	if err != nil {
		return ""
	}
	var gi genInfo
	if json.Unmarshal(plain, &gi) != nil {
		return ""
	}
	return gi.Gen
}
