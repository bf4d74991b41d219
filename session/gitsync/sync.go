package gitsync

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"filippo.io/age"

	"muse/session"
	"muse/session/internal/fileio"
)

// readme is the plain text muse-sync/README holds.
const readme = `This branch holds muse's synced sessions (muse sync), encrypted with age.
Each machine writes only its own folder under v1/. Do not edit or rewrite it.
`

// maxRounds bounds how many times a sync fetches again after another
// machine pushed first.
const maxRounds = 5

// Options is how a sync runs.
type Options struct {
	// DataDir is muse's data folder: sessions/, images/, attachments/.
	DataDir string
	// StateDir is this machine's sync folder (under XDG_STATE_HOME).
	StateDir string
	// Identity is the age identity (AGE-SECRET-KEY-1...).
	Identity string
	// Images is true when images and attachments are synced.
	Images bool
	// Env is git's environment, muse's secrets removed.
	Env []string
	// Batch is true in the background: git never prompts.
	Batch bool
	// Local merges the journals.
	Local Local
	// Progress, when not nil, is told how far a long step is.
	Progress func(what string, done, total int)
}

// Result says what a sync did.
type Result struct {
	Sent     int      // files whose changes were pushed
	Received int      // files changed here by other machines
	Skipped  []string // bundles that failed authentication, newly seen
	Busy     []string // changes not applied yet: tried again next time
	TooLarge []string // files left out, too large
	// Rewritten is true when the remote's history was rewritten by
	// someone else: this machine's files were sent whole again.
	Rewritten bool
	// Compacted is true when muse sync gc, on another machine, replaced
	// the remote's history with a snapshot, read here.
	Compacted bool
}

// syncer is one run.
type syncer struct {
	o   Options
	g   *git
	st  *state
	id  *age.X25519Identity
	res Result
}

// open takes the lock and reads the state.
func open(o Options) (*syncer, func() error, error) {
	if _, err := os.Stat(filepath.Join(o.StateDir, stateFile)); err != nil {
		return nil, nil, ErrNotSetUp
	}
	unlock, err := session.LockFile(filepath.Join(o.StateDir, lockName), "muse sync")
	if err != nil {
		return nil, nil, err
	}
	st, err := loadState(o.StateDir)
	if err != nil {
		unlock()
		return nil, nil, err
	}
	s := &syncer{o: o, st: st, g: &git{dir: filepath.Join(o.StateDir, repoDir), env: o.Env, batch: o.Batch}}
	return s, unlock, nil
}

// Sync sends this machine's changes, applies the other machines', and
// pushes, once at a time on a machine.
func Sync(ctx context.Context, o Options) (Result, error) {
	s, unlock, err := open(o)
	if err != nil {
		return Result{}, err
	}
	defer unlock()
	if s.id, err = parseIdentity(o.Identity); err != nil {
		return Result{}, err
	}
	err = s.run(ctx)
	s.st.LastErr = ""
	if err != nil {
		s.st.LastErr = err.Error()
	} else {
		s.st.LastSync = time.Now().UTC()
	}
	if serr := s.st.save(o.StateDir); err == nil {
		err = serr
	}
	return s.res, err
}

// run is a sync: send, then fetch, apply and push until the push is
// accepted.
func (s *syncer) run(ctx context.Context) error {
	if err := s.commitLocal(ctx); err != nil {
		return err
	}
	for round := 0; ; round++ {
		tip, err := s.fetch(ctx)
		if err != nil {
			return err
		}
		if err := s.pull(ctx, tip); err != nil {
			return err
		}
		if s.res.Rewritten && round == 0 {
			// The remote lost what this machine sent: send it all again.
			if err := s.commitLocal(ctx); err != nil {
				return err
			}
		}
		if len(s.st.Pending) == 0 {
			return nil
		}
		err = s.push(ctx, tip)
		if err == nil || !rejected(err) || round == maxRounds-1 {
			return err
		}
	}
}

// commitLocal scans the data folder and writes what changed as bundles in
// a new tree, to be pushed.
func (s *syncer) commitLocal(ctx context.Context) error {
	sc, err := scan(s.o.DataDir, s.st.Files, s.o.Images)
	if err != nil {
		return fmt.Errorf("read the data folder: %w", err)
	}
	s.res.TooLarge = sc.skipped
	if len(sc.changes) == 0 {
		for rel, fs := range sc.files { // received records now seen
			s.st.Files[rel] = fs
		}
		return nil
	}
	total := len(sc.changes)
	bundles, err := s.seal(sc.changes, func(done int) { s.progress("encrypted", done, total) })
	if err != nil {
		return err
	}
	commit, err := s.commit(ctx, bundles)
	if err != nil {
		return err
	}
	// The bundles are in the repository: only now is the state moved on.
	for rel, fs := range sc.files {
		s.st.Files[rel] = fs
	}
	for _, rel := range sc.gone {
		delete(s.st.Files, rel)
		s.st.gone(rel)
	}
	s.st.Seq += len(bundles)
	s.st.Pending = append(s.st.Pending, commit)
	s.res.Sent += len(sc.changes)
	return s.st.save(s.o.StateDir)
}

// seal packs changes into bundles of about bundleMax bytes each, each
// encrypted to the identity; progress, when set, is told after each full
// bundle how many changes are in bundles so far.
func (s *syncer) seal(changes []change, progress func(done int)) ([][]byte, error) {
	var bundles [][]byte
	var batch []change
	size := 0
	flush := func() error {
		if len(batch) == 0 {
			return nil
		}
		plain, err := encodeBundle(batch)
		if err != nil {
			return err
		}
		ct, err := encrypt(s.id, plain)
		if err != nil {
			return fmt.Errorf("encrypt: %w", err)
		}
		bundles = append(bundles, ct)
		batch, size = nil, 0
		return nil
	}
	for i, c := range changes {
		batch = append(batch, c)
		if size += len(c.Data); size >= bundleMax {
			if err := flush(); err != nil {
				return nil, err
			}
			if progress != nil {
				progress(i + 1)
			}
		}
	}
	if err := flush(); err != nil {
		return nil, err
	}
	return bundles, nil
}

// commit writes, with one git fast-import, a commit without parents
// whose tree holds the marker and the bundles, numbered on from the
// machine's Seq in its folder; push makes its tree a commit on the remote's
// tip.
func (s *syncer) commit(ctx context.Context, bundles [][]byte) (string, error) {
	return s.commitWith(ctx, bundles, nil)
}

// commitWith is commit, with gen, when not nil, as muse-sync/v1/gen.age.
func (s *syncer) commitWith(ctx context.Context, bundles [][]byte, gen []byte) (string, error) {
	var in bytes.Buffer
	in.WriteString("feature done\n")
	for i, b := range bundles {
		fmt.Fprintf(&in, "blob\nmark :%d\ndata %d\n", i+1, len(b))
		in.Write(b)
		in.WriteString("\n")
	}
	mark := len(bundles) + 1
	fmt.Fprintf(&in, "commit %s\nmark :%d\ncommitter muse <muse@localhost> 946684800 +0000\ndata 9\nmuse sync\ndeleteall\n", madeRef, mark)
	fmt.Fprintf(&in, "M 100644 %s muse-sync/v1/key.age\nM 100644 inline muse-sync/README\ndata %d\n%s\n", s.st.KeyBlob, len(readme), readme)
	if gen != nil {
		fmt.Fprintf(&in, "M 100644 inline muse-sync/v1/gen.age\ndata %d\n", len(gen))
		in.Write(gen)
		in.WriteString("\n")
	}
	for i := range bundles {
		fmt.Fprintf(&in, "M 100644 :%d muse-sync/v1/%s/%d.age\n", i+1, s.st.Machine, s.st.Seq+i)
	}
	fmt.Fprintf(&in, "\nget-mark :%d\ndone\n", mark)
	out, err := s.g.run(ctx, &in, "fast-import", "--quiet", "--force", "--done")
	if err != nil {
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

// fetch fetches the remote's branch, checks the key, and returns its tip.
func (s *syncer) fetch(ctx context.Context) (string, error) {
	s.progress("fetching", 0, 0)
	if _, err := s.g.run(ctx, nil, "fetch", "--quiet", "--no-tags", "origin", "+"+remoteRef+":"+trackRef); err != nil {
		if strings.Contains(err.Error(), "couldn't find remote ref") {
			return "", fmt.Errorf("the remote %s holds no muse sync data (its branch %s is missing): was it emptied? muse sync init sets a remote up", mask(s.st.Remote), branch)
		}
		if missing := missingRemote(s.st.Remote); missing != nil {
			return "", missing
		}
		return "", fmt.Errorf("fetch from %s: %w", mask(s.st.Remote), err)
	}
	out, err := s.g.text(ctx, "rev-parse", trackRef+"^{commit}", trackRef+":muse-sync/v1/key.age")
	tip, keyBlob, _ := strings.Cut(out, "\n")
	if err != nil || keyBlob == "" {
		return "", fmt.Errorf("the remote %s is not a muse sync repository: its branch %s has no key check", mask(s.st.Remote), branch)
	}
	if keyBlob != s.st.KeyBlob || s.st.Recipient != s.id.Recipient().String() {
		// A key check, or a key, not seen before: open it.
		key, err := s.g.run(ctx, nil, "cat-file", "blob", keyBlob)
		if err != nil {
			return "", err
		}
		if err := checkKey(s.id, key); err != nil {
			return "", err
		}
		s.st.KeyBlob, s.st.Recipient = keyBlob, s.id.Recipient().String()
	}
	return tip, nil
}

// pull applies the bundles other machines added since the last commit
// applied, and the ones deferred.
func (s *syncer) pull(ctx context.Context, tip string) error {
	if s.st.Seen == tip {
		return s.applyAll(ctx, nil, tip)
	}
	from := s.st.Seen
	if from != "" {
		if _, err := s.g.run(ctx, nil, "merge-base", "--is-ancestor", from, tip); err != nil {
			from = ""
			if gen := s.genOf(ctx, tip); gen != "" && gen != s.st.Gen {
				// muse sync gc made one snapshot of it all: read it.
				s.st.Gen = gen
				s.res.Compacted = true
			} else {
				// Someone rewrote the remote: read it all, send it all.
				s.res.Rewritten = true
				s.st.Files = map[string]*fileState{}
				s.st.Pending = nil
			}
		}
	}
	rng := tip
	if from != "" {
		rng = from + ".." + tip
	}
	out, err := s.g.run(ctx, nil, "log", "--reverse", "--no-abbrev", "--raw", "--no-renames", "--root", "--format=", rng)
	if err != nil {
		return err
	}
	var todo []string // "sha name"
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		// :000000 100644 0000... SHA A\tmuse-sync/v1/MACHINE/N.age
		meta, p, ok := strings.Cut(sc.Text(), "\t")
		f := strings.Fields(meta)
		if !ok || len(f) != 5 || (f[4] != "A" && f[4] != "M") {
			continue
		}
		parts := strings.Split(p, "/")
		if len(parts) != 4 || parts[0] != "muse-sync" || parts[1] != "v1" || parts[2] == s.st.Machine || !strings.HasSuffix(parts[3], ".age") {
			continue
		}
		todo = append(todo, f[3]+" "+parts[2]+"/"+parts[3])
	}
	return s.applyAll(ctx, todo, tip)
}

// applyAll applies the deferred bundles, then todo, and marks tip seen.
func (s *syncer) applyAll(ctx context.Context, todo []string, tip string) error {
	todo = append(s.st.Deferred, todo...)
	s.st.Deferred = nil
	root, err := os.OpenRoot(s.o.DataDir)
	if err != nil {
		return fmt.Errorf("open the data folder: %w", err)
	}
	defer root.Close()
	a := &applier{root: root, local: s.o.Local, st: s.st, images: s.o.Images}
	for i, item := range todo {
		sha, name, _ := strings.Cut(item, " ")
		s.progress("applying", i+1, len(todo))
		ct, err := s.g.run(ctx, nil, "cat-file", "blob", sha)
		if err != nil {
			return err
		}
		plain, err := decrypt(s.id, ct, plainMax)
		var cs []change
		if err == nil {
			cs, err = decodeBundle(plain)
		}
		if err != nil {
			what := name + ": " + err.Error()
			if !strings.Contains(strings.Join(s.st.Skipped, "\n"), name+":") {
				s.st.Skipped = append(s.st.Skipped, what)
				s.res.Skipped = append(s.res.Skipped, what)
			}
			continue
		}
		if err := a.apply(cs); err != nil {
			s.st.Deferred = append(s.st.Deferred, item)
			s.res.Busy = append(s.res.Busy, err.Error())
		}
	}
	s.res.Received += a.n
	if a.n > 0 {
		if err := s.o.Local.Settle(); err != nil {
			return fmt.Errorf("merge what was pulled: %w", err)
		}
	}
	s.st.Seen = tip
	return s.st.save(s.o.StateDir)
}

// push makes this machine's pending trees commits on tip and pushes them.
func (s *syncer) push(ctx context.Context, tip string) error {
	s.progress("pushing", 0, 0)
	parent := tip
	for _, tree := range s.st.Pending {
		c, err := s.g.text(ctx, "commit-tree", tree+"^{tree}", "-p", parent, "-m", "muse sync")
		if err != nil {
			return err
		}
		parent = c
	}
	if _, err := s.g.run(ctx, nil, "push", "--quiet", "origin", parent+":"+remoteRef); err != nil {
		if rejected(err) {
			return err
		}
		return fmt.Errorf("push to %s: %w", mask(s.st.Remote), err)
	}
	s.st.Pending = nil
	s.st.Seen = parent
	return s.st.save(s.o.StateDir)
}

// progress tells o.Progress.
func (s *syncer) progress(what string, done, total int) {
	if s.o.Progress != nil {
		s.o.Progress(what, done, total)
	}
}

// InitResult says what Init did.
type InitResult struct {
	// Created is true when this machine set the remote up, with the key
	// Identity; ShowKey when muse made that key, to show once.
	Created, ShowKey bool
	Identity         string
	// OtherBranches is true when the remote holds branches of its own,
	// which muse leaves as they are.
	OtherBranches bool
}

// Init sets up sync with remote on this machine. On a remote with no muse
// data it makes the identity (unless o.Identity gives one) and writes the
// key check; on one set up by another machine, o.Identity must open its
// key check, and nothing is written here when it does not.
func Init(ctx context.Context, o Options, remote string) (InitResult, error) {
	var res InitResult
	remote, err := absRemote(remote)
	if err != nil {
		return res, err
	}
	if err := fileio.MakeDir(o.StateDir); err != nil {
		return res, fmt.Errorf("make the sync folder: %w", err)
	}
	unlock, err := session.LockFile(filepath.Join(o.StateDir, lockName), "muse sync")
	if err != nil {
		return res, err
	}
	defer unlock()
	if st, err := loadState(o.StateDir); err == nil {
		if st.Remote == remote {
			return res, nil
		}
		return res, fmt.Errorf("this machine already syncs with %s: to sync with another remote, remove %s first", mask(st.Remote), o.StateDir)
	}
	tmp := filepath.Join(o.StateDir, repoDir+".new")
	os.RemoveAll(tmp)
	defer os.RemoveAll(tmp)
	g := &git{dir: o.StateDir, env: o.Env, batch: o.Batch}
	if _, err := g.run(ctx, nil, "init", "--quiet", "--bare", "--shared=0600", tmp); err != nil {
		return res, err
	}
	g.dir = tmp
	for _, kv := range [][2]string{{"remote.origin.url", remote}, {"gc.auto", "0"}, {"fastimport.unpackLimit", "100"}, {"core.logAllRefUpdates", "false"}} {
		if _, err := g.run(ctx, nil, "config", kv[0], kv[1]); err != nil {
			return res, err
		}
	}
	out, err := g.run(ctx, nil, "ls-remote", "--heads", "origin")
	if err != nil {
		return res, unreachable(remote, err)
	}
	ours := false
	for line := range strings.SplitSeq(strings.TrimSpace(string(out)), "\n") {
		_, ref, _ := strings.Cut(line, "\t")
		if ref == remoteRef {
			ours = true
		} else if ref != "" {
			res.OtherBranches = true
		}
	}
	machine, err := newMachineID()
	if err != nil {
		return res, err
	}
	st := &state{Remote: remote, Machine: machine, Files: map[string]*fileState{}}
	s := &syncer{o: o, g: g, st: st}
	if !ours {
		// The first machine: make the key and the key check.
		ident := o.Identity
		kept, _ := LoadIdentity(o.StateDir)
		if ident == "" {
			if ident, err = NewIdentity(); err != nil {
				return res, err
			}
			// Kept before the push: an init killed after it finds it.
			if err := fileio.WriteAtomic(IdentityPath(o.StateDir), []byte(ident+"\n")); err != nil {
				return res, fmt.Errorf("keep the sync key: %w", err)
			}
		}
		if s.id, err = parseIdentity(ident); err != nil {
			return res, err
		}
		// The key is shown when muse made it, now or in an init that
		// did not finish; not when the user gave theirs.
		res.Created, res.Identity, res.ShowKey = true, ident, o.Identity == "" || o.Identity == kept
		ct, err := encrypt(s.id, []byte(keyCheck))
		if err != nil {
			return res, err
		}
		if st.KeyBlob, err = g.blob(ctx, ct); err != nil {
			return res, err
		}
		st.Recipient = s.id.Recipient().String()
		c, err := s.commit(ctx, nil)
		if err != nil {
			return res, err
		}
		if _, err := g.run(ctx, nil, "push", "--quiet", "origin", c+":"+remoteRef); err != nil {
			return InitResult{}, fmt.Errorf("push to %s: %w", mask(remote), err)
		}
	} else {
		if o.Identity == "" {
			return res, errors.New("this remote was set up by another machine: give this one its key in MUSE_SYNC_KEY or with sync_key_cmd in the profile (muse sync key prints it on a machine that syncs)")
		}
		if s.id, err = parseIdentity(o.Identity); err != nil {
			return res, err
		}
		if _, err := s.fetch(ctx); err != nil {
			return res, err
		}
		// A key this machine made, in an init that did not finish.
		kept, _ := LoadIdentity(o.StateDir)
		res.ShowKey, res.Identity = kept == o.Identity, kept
	}
	// Checked: now the machine's sync folder is written. A clone without
	// a state is what an init killed here left.
	os.RemoveAll(filepath.Join(o.StateDir, repoDir))
	if err := os.Rename(tmp, filepath.Join(o.StateDir, repoDir)); err != nil {
		return InitResult{}, err
	}
	return res, st.save(o.StateDir)
}

// Status is what muse sync --status says.
type Status struct {
	Remote   string
	Machine  string
	LastSync time.Time
	LastErr  string
	// Ahead counts this machine's files changed since the last sync;
	// Pending its syncs made and not yet pushed.
	Ahead, Pending int
	// Behind counts other machines' bundles not yet applied here.
	Behind  int
	Skipped []string
	// Fetched is false when the remote could not be reached (FetchErr).
	Fetched  bool
	FetchErr error
}

// ReadStatus says what is ahead and behind, fetching when fetch is true. It
// changes nothing in the data folder.
func ReadStatus(ctx context.Context, o Options, fetch bool) (Status, error) {
	s, unlock, err := open(o)
	if err != nil {
		return Status{}, err
	}
	defer unlock()
	st := Status{Remote: mask(s.st.Remote), Machine: s.st.Machine, LastSync: s.st.LastSync, LastErr: s.st.LastErr, Skipped: s.st.Skipped}
	sc, err := scan(o.DataDir, s.st.Files, o.Images)
	if err != nil {
		return st, err
	}
	st.Ahead = len(sc.changes)
	st.Pending = len(s.st.Pending)
	if !fetch {
		return st, nil
	}
	if s.id, err = parseIdentity(o.Identity); err != nil {
		st.FetchErr = err
		return st, nil
	}
	tip, err := s.fetch(ctx)
	if err != nil {
		st.FetchErr = err
		return st, nil
	}
	st.Fetched = true
	rng := tip
	if s.st.Seen != "" {
		rng = s.st.Seen + ".." + tip
	}
	out, err := s.g.run(ctx, nil, "log", "--no-abbrev", "--raw", "--no-renames", "--root", "--format=", rng)
	if err != nil {
		return st, err
	}
	for line := range strings.SplitSeq(string(out), "\n") {
		if _, p, ok := strings.Cut(line, "\t"); ok && strings.HasSuffix(p, ".age") && !strings.Contains(p, "/"+s.st.Machine+"/") && strings.Count(p, "/") == 3 && strings.Contains(line, " A\t") {
			st.Behind++
		}
	}
	st.Behind += len(s.st.Deferred)
	return st, nil
}
