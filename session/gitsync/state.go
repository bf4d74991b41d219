package gitsync

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"muse/session/internal/fileio"
)

// The files of the sync folder (per machine, under XDG_STATE_HOME).
const (
	stateFile    = "state.json"
	repoDir      = "repo.git"
	lockName     = "sync.lock"
	identityFile = "identity"
)

// ErrNotSetUp means muse sync init has not been run on this machine.
var ErrNotSetUp = errors.New("sync is not set up on this machine: run muse sync init REMOTE")

// state is what this machine knows of the sync, kept in state.json.
type state struct {
	Remote  string `json:"remote"`
	Machine string `json:"machine"` // this machine's folder on the remote
	// KeyBlob is the key check last opened, by the key whose public half
	// is Recipient: with both the same, it is not opened again.
	KeyBlob   string `json:"key_blob"`
	Recipient string `json:"recipient"`
	Seq       int    `json:"seq"` // the number of this machine's next bundle
	// Seen is the remote's last commit applied here.
	Seen string `json:"seen,omitempty"`
	// Pending are this machine's commits not yet pushed, without parents:
	// each is pushed as its tree on the remote's tip.
	Pending []string `json:"pending,omitempty"`
	// Deferred are bundles to apply again: a session was busy.
	Deferred []string `json:"deferred,omitempty"`
	// Skipped names the bundles that failed authentication or decoding.
	Skipped []string `json:"skipped,omitempty"`
	// Gen is the generation of the remote's history applied here: muse
	// sync gc starts a new one.
	Gen string `json:"gen,omitempty"`
	// Gone are the files removed, here or elsewhere, and when: muse sync
	// gc keeps them removed for goneLife.
	Gone     map[string]time.Time  `json:"gone,omitempty"`
	Files    map[string]*fileState `json:"files"`
	LastSync time.Time             `json:"last_sync,omitzero"`
	LastErr  string                `json:"last_error,omitempty"`
}

// fileState is what was sent of one file of the data folder.
type fileState struct {
	Size  int64 `json:"size"`
	MTime int64 `json:"mtime"`
	// Off is how much of a journal was sent or received; Tail is a hash
	// of the bytes just before it, which tells an append from a rewrite.
	Off  int64  `json:"off,omitempty"`
	Tail string `json:"tail,omitempty"`
	// Recvd are the hashes of records received from other machines that
	// were not yet seen in the journal: they are not sent back.
	Recvd []string `json:"recvd,omitempty"`
}

// loadState reads the state of the sync folder dir.
func loadState(dir string) (*state, error) {
	data, err := os.ReadFile(filepath.Join(dir, stateFile))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNotSetUp
	}
	if err != nil {
		return nil, fmt.Errorf("read the sync state: %w", err)
	}
	var st state
	if err := json.Unmarshal(data, &st); err != nil {
		return nil, fmt.Errorf("the sync state %s is damaged (%v): remove it and run muse sync init again", filepath.Join(dir, stateFile), err)
	}
	if st.Files == nil {
		st.Files = map[string]*fileState{}
	}
	if st.Gone == nil {
		st.Gone = map[string]time.Time{}
	}
	return &st, nil
}

// goneLife is how long a removal is kept for muse sync gc's snapshots.
const goneLife = 180 * 24 * time.Hour

// gone records that the file rel was removed.
func (st *state) gone(rel string) {
	if st.Gone == nil {
		st.Gone = map[string]time.Time{}
	}
	st.Gone[rel] = time.Now().UTC()
}

// save writes the state, whole or not at all.
func (st *state) save(dir string) error {
	for rel, t := range st.Gone {
		if time.Since(t) > goneLife {
			delete(st.Gone, rel)
		}
	}
	data, err := json.Marshal(st)
	if err != nil {
		return err
	}
	if err := fileio.WriteAtomic(filepath.Join(dir, stateFile), data); err != nil {
		return fmt.Errorf("save the sync state: %w", err)
	}
	return nil
}

// newMachineID returns a random id for this machine's folder.
func newMachineID() (string, error) {
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	return hex.EncodeToString(b[:]), nil
}

// LoadIdentity returns the identity kept in the sync folder dir, or "" when
// there is none.
func LoadIdentity(dir string) (string, error) {
	f, err := os.OpenFile(filepath.Join(dir, identityFile), fileio.NoFollow(os.O_RDONLY), 0)
	if errors.Is(err, fs.ErrNotExist) {
		return "", nil
	}
	if err != nil {
		return "", fmt.Errorf("read the sync key: %w", err)
	}
	defer f.Close()
	buf := make([]byte, 256)
	n, _ := f.Read(buf)
	return strings.TrimSpace(string(buf[:n])), nil
}

// IdentityPath returns where the sync folder dir keeps the identity.
func IdentityPath(dir string) string { return filepath.Join(dir, identityFile) }
