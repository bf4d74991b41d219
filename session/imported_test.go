package session

import (
	"errors"
	"syscall"
	"testing"
)

// TestImportWriteFailureCleansUp checks that a session that cannot be
// completed is not left behind.
func TestImportWriteFailureCleansUp(t *testing.T) {
	s, _ := newTestStore(t)
	// The header is written, then the disk is full.
	s.appendFile = func(path string, data []byte, sync bool) error { return syscall.ENOSPC }
	entries := []Entry{{ID: "e1", Kind: KindUser, Text: "hi"}, {ID: "e2", Kind: KindNotice}}
	if _, err := s.SaveImported(Imported{Title: "t", Entries: entries}); err == nil || !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("saving on a full disk: %v", err)
	}
	if infos, _ := s.List(); len(infos) != 0 {
		t.Errorf("a failed import left %d sessions", len(infos))
	}
}
