package cli

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"muse/session"
	"muse/session/dirs"
)

// machineIDFile is the file, in muse's state folder (per machine, never
// synced), that names this machine in the records it writes; syncNotesFile
// is where catch-ups log what they could not settle, for muse doctor.
const (
	machineIDFile = "machine-id"
	syncNotesFile = "sync-notes.jsonl"
)

// setMachine gives st this machine's id, made once and kept in the state
// folder, and its notes file. Without a state folder the store keeps its
// own random id for the run, which merging needs no more than that.
func setMachine(env Env, st *session.Store) {
	base, err := env.baseDir(dirs.StateBase)
	if err != nil {
		return
	}
	dir := filepath.Join(base, "muse")
	st.SetNotesFile(filepath.Join(dir, syncNotesFile))
	if id, err := machineID(dir); err == nil {
		st.SetMachine(id)
	}
}

// machineID reads the machine id from dir, or makes it.
func machineID(dir string) (string, error) {
	path := filepath.Join(dir, machineIDFile)
	data, err := os.ReadFile(path)
	if id := strings.TrimSpace(string(data)); err == nil && len(id) == 16 && strings.Trim(id, "0123456789abcdef") == "" {
		return id, nil
	}
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return "", err
	}
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		return "", err
	}
	id := hex.EncodeToString(b[:])
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", fmt.Errorf("make the state folder: %w", err)
	}
	if err := os.WriteFile(path, []byte(id+"\n"), 0o600); err != nil {
		return "", err
	}
	return id, nil
}

// doctorSync lists the notes of the catch-ups: copies a sync engine left
// that could not be merged whole, sessions kept against a delete.
func (a *app) doctorSync(d *report) {
	st, err := openStore(a.env)
	if err != nil {
		d.ok("sync", "no session folder to look at: "+err.Error())
		return
	}
	if _, err := st.CatchUp(); err != nil {
		d.ok("sync", "could not catch up: "+err.Error())
	}
	notes, err := st.Notes()
	switch {
	case err != nil:
		d.ok("sync", err.Error())
	case len(notes) == 0:
		d.ok("conflict copies", "none left: every copy a sync engine made was merged")
	}
	for i, n := range notes {
		label := ""
		if i == 0 {
			label = "sync notes"
		}
		what := n.Text
		if n.File != "" {
			what = n.File + ": " + what
		} else if n.Session != "" {
			what = "session " + n.Session + ": " + what
		}
		d.line("!", label, what)
	}
}
