package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"muse/session"
	"muse/session/dirs"
	"muse/session/gitsync"
	cfgfile "muse/ui/cli/config"
	"muse/ui/sanitize"
	"muse/ui/syncrun"
	"muse/ui/textfmt"
	"muse/ui/toolrun"
)

// syncKeyEnv holds the sync key on a machine that did not make it.
const syncKeyEnv = "MUSE_SYNC_KEY"

// syncCmd is "muse sync" and its subcommands.
func (a *app) syncCmd() *cobra.Command {
	var showStatus bool
	cmd := &cobra.Command{
		Use:   "sync",
		Short: "sync sessions with a git remote, end-to-end encrypted (muse sync init REMOTE first)",
		Long: `Sync the sessions, images and attachments of this machine with a git remote
that every machine of yours can reach, encrypted with age: the remote holds
ciphertext only. muse sync pulls what other machines wrote, merges it into
the sessions here (a union of records, never git's textual merge), and
pushes what this machine wrote. It uses your git: your ssh keys, ssh config
and credential helpers work as they do for git.

Set it up once per machine with muse sync init REMOTE. The first machine
makes the key and prints it once; give it to the others in MUSE_SYNC_KEY or
with sync_key_cmd in the profile. With sync = "auto" in the profile, the
chat screen syncs in the background at start, after each reply and on quit.`,
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			if showStatus {
				return a.asRun(a.syncStatus(c.Context()))
			}
			return a.asRun(a.runSync(c.Context()))
		},
	}
	cmd.Flags().BoolVar(&showStatus, "status", false, "say what this machine has to send, what the remote has to apply here, and the last sync")
	initCmd := &cobra.Command{
		Use:   "init REMOTE",
		Short: "set up sync with a git remote: ssh://, git@host:path, https://, or a bare repository's path",
		Args:  cobra.ExactArgs(1),
		RunE: func(c *cobra.Command, args []string) error {
			return a.asRun(a.syncInit(c.Context(), args[0]))
		},
	}
	keyCmd := &cobra.Command{
		Use:   "key",
		Short: "print the sync key, for another machine's MUSE_SYNC_KEY or your password manager",
		Args:  noArgs,
		RunE: func(*cobra.Command, []string) error {
			o, err := a.syncOptions(false)
			if err != nil {
				return a.asRun(err)
			}
			if o.Identity == "" {
				return fmt.Errorf("no sync key on this machine: set MUSE_SYNC_KEY or sync_key_cmd, or run %s sync init REMOTE", cmdName(a.env))
			}
			if a.env.StdoutTTY {
				fmt.Fprintln(a.env.Stderr, "muse: this key opens everything you sync: keep it in a password manager, and never paste it where others can read it")
			}
			fmt.Fprintln(a.env.Stdout, o.Identity)
			return nil
		},
	}
	gcCmd := &cobra.Command{
		Use:   "gc",
		Short: "replace the remote's history with one snapshot of every session, to make it small again",
		Long: `Sync, then replace the remote's history with one commit: a snapshot of every
session, image and attachment as this machine holds them once it has applied
what every machine pushed, and the deletes of the last 180 days. It pushes
with a lease on the history it applied: if another machine pushed meanwhile,
nothing is changed and gc says to run it again. So it drops nothing another
machine needs: the other machines read the snapshot at their next sync and
send nothing again. What goes is the history of bundles, records compaction
dropped, and deleted sessions' content. Run it on a machine with
sync_images on, with no session open in another muse.`,
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			o, err := a.syncOptions(false)
			if err != nil {
				return a.asRun(err)
			}
			ctx, stop := signal.NotifyContext(ctxOr(c.Context()), os.Interrupt)
			defer stop()
			res, err := gitsync.GC(ctx, o)
			if err != nil {
				return a.asRun(err)
			}
			fmt.Fprintf(a.env.Stdout, "the remote's history of %s is now one snapshot of %s\n", textfmt.Plural(res.Commits, "commit"), textfmt.Plural(res.Files, "file"))
			return nil
		},
	}
	cmd.AddCommand(initCmd, keyCmd, gcCmd)
	return cmd
}

// syncDir is this machine's sync folder: $XDG_STATE_HOME/muse/sync.
func syncDir(env Env) (string, error) {
	base, err := env.baseDir(dirs.StateBase)
	if err != nil {
		return "", usagef("%v: set HOME (USERPROFILE on Windows) or XDG_STATE_HOME", err)
	}
	return filepath.Join(base, "muse", "sync"), nil
}

// syncProfile is what the profile says of sync.
type syncProfile struct {
	auto, images bool
	keyCmd       string
	timeout      time.Duration
	// secretEnv names the variables, secrets holds the values, that
	// sync_key_cmd and git run without (see childDrop).
	secretEnv, secrets []string
}

// loadSyncProfile reads the sync settings of the profile in effect.
func loadSyncProfile(f *flags, env Env) (syncProfile, error) {
	prof, file, err := loadProfile(f, env)
	if err != nil {
		return syncProfile{}, err
	}
	// sync_key_cmd and git get neither a credential nor what an MCP
	// server's entry names (see childDrop).
	sp := syncProfile{images: true, secretEnv: namesOf(file).childDrop()}
	if prof != nil {
		sp.auto = prof.Sync == "auto"
		sp.images = prof.SyncImages == nil || *prof.SyncImages
		sp.keyCmd, sp.timeout = prof.SyncKeyCmd, prof.CredentialTimeout
	}
	return sp, nil
}

// syncOptions gathers what a sync needs: the folders, the key (MUSE_SYNC_KEY,
// else sync_key_cmd, else the one this machine made), git's environment
// without muse's secrets, and the store the journals merge into.
func (a *app) syncOptions(batch bool) (gitsync.Options, error) {
	sp, err := loadSyncProfile(&a.f, a.env)
	if err != nil {
		return gitsync.Options{}, err
	}
	return syncOptionsFor(a.env, sp, batch, "")
}

// syncOptionsFor is syncOptions with the profile's settings read.
// A key already resolved (known) is used as it is.
func syncOptionsFor(env Env, sp syncProfile, batch bool, known string) (gitsync.Options, error) {
	state, err := syncDir(env)
	if err != nil {
		return gitsync.Options{}, err
	}
	st, err := openStore(env)
	if err != nil {
		return gitsync.Options{}, err
	}
	o := gitsync.Options{DataDir: filepath.Dir(st.Dir()), StateDir: state, Images: sp.images, Batch: batch,
		Env: toolrun.Withhold(gitEnv(sp.secretEnv), sp.secrets), Local: gitsync.StoreLocal{Store: st}}
	switch {
	case known != "":
		o.Identity = known
	case strings.TrimSpace(env.Getenv(syncKeyEnv)) != "":
		o.Identity = strings.TrimSpace(env.Getenv(syncKeyEnv))
	case sp.keyCmd != "":
		if o.Identity, err = cfgfile.ResolveSecret("", sp.keyCmd, sp.timeout, env.Getenv, credentialCommand(sp.secretEnv, sp.secrets)); err != nil {
			return o, fmt.Errorf("sync key: %w", err)
		}
	default:
		if o.Identity, err = gitsync.LoadIdentity(state); err != nil {
			return o, err
		}
	}
	return o, nil
}

// gitEnv is the environment git runs with: muse's own, without the
// variables that hold muse's credentials and the sync key.
func gitEnv(secret []string) []string {
	return toolrun.Environ(secret, nil)
}

// syncInit is "muse sync init REMOTE".
func (a *app) syncInit(ctx context.Context, remote string) error {
	sp, err := loadSyncProfile(&a.f, a.env)
	if err != nil {
		return err
	}
	o, err := syncOptionsFor(a.env, sp, false, "")
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(ctxOr(ctx), os.Interrupt)
	defer stop()
	res, err := gitsync.Init(ctx, o, remote)
	if err = a.missingRemote(err); err != nil {
		return err
	}
	muse := cmdName(a.env)
	w := a.env.Stdout
	fmt.Fprintf(w, "sync is set up with %s\n", sanitize.Line(remote))
	if res.OtherBranches {
		fmt.Fprintf(w, "The remote holds other branches: muse writes only its own, muse-sync, and touches no other.\n")
	}
	if res.ShowKey {
		fmt.Fprintf(w, `
This machine made the sync key. It is shown once here:

  %s

Keep it in your password manager: every other machine needs it, and
nothing on the remote can be read without it. On another machine, give it
in MUSE_SYNC_KEY or with sync_key_cmd in the profile, then run
%[4]s sync init %[2]s there. This machine keeps it in %[3]s (mode 0600);
%[4]s sync key prints it again.
`, res.Identity, sanitize.Line(remote), gitsync.IdentityPath(o.StateDir), muse)
	}
	if kept, _ := gitsync.LoadIdentity(o.StateDir); kept == "" && sp.keyCmd == "" {
		// The key came in MUSE_SYNC_KEY for this command only: a bare
		// "muse sync" next would find none.
		fmt.Fprintf(w, `This machine does not keep the key: every %[1]s sync here needs it. Give it
from your password manager with sync_key_cmd in the profile
(sync_key_cmd = "pass show muse/sync-key"), or keep MUSE_SYNC_KEY exported,
then run %[1]s sync; set sync = "auto" in the profile to sync in the background.
`, muse)
		return nil
	}
	fmt.Fprintf(w, "Run %s sync to sync now; set sync = \"auto\" in the profile to sync in the background.\n", muse)
	return nil
}

// runSync is "muse sync".
func (a *app) runSync(ctx context.Context) error {
	o, err := a.syncOptions(false)
	if err != nil {
		return err
	}
	if a.env.StderrTTY {
		last := time.Time{}
		o.Progress = func(what string, done, total int) {
			if total == 0 || done == total || time.Since(last) > 100*time.Millisecond {
				last = time.Now()
				if total > 0 {
					fmt.Fprintf(a.env.Stderr, "\r\x1b[Ksync: %s %d/%d", what, done, total)
				} else {
					fmt.Fprintf(a.env.Stderr, "\r\x1b[Ksync: %s", what)
				}
			}
		}
		defer fmt.Fprint(a.env.Stderr, "\r\x1b[K")
	} else {
		o.Progress = func(what string, done, total int) {
			if total > 1 && (total < 100 || done%(total/100) == 0 || done == total) {
				fmt.Fprintf(a.env.Stderr, "sync: %s %d/%d\n", what, done, total)
			}
		}
	}
	ctx, stop := signal.NotifyContext(ctxOr(ctx), os.Interrupt)
	defer stop()
	res, err := gitsync.Sync(ctx, o)
	err = a.missingRemote(err)
	for _, s := range res.Skipped {
		fmt.Fprintf(a.env.Stderr, "muse: skipped a damaged or tampered bundle, nothing of it applied: %s\n", sanitize.Line(s))
	}
	for _, s := range res.TooLarge {
		fmt.Fprintf(a.env.Stderr, "muse: not sent, too large: %s\n", sanitize.Line(s))
	}
	for _, s := range res.Busy {
		fmt.Fprintf(a.env.Stderr, "muse: applied at the next sync: %s\n", sanitize.Line(s))
	}
	if res.Compacted {
		fmt.Fprintf(a.env.Stderr, "muse: another machine compacted the remote (%s sync gc): its snapshot was read\n", cmdName(a.env))
	}
	if res.Rewritten {
		fmt.Fprintln(a.env.Stderr, "muse: the remote's history was rewritten by someone else (a force-push): this machine's sessions were sent again whole")
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(a.env.Stdout, "synced: %s sent, %d received\n", textfmt.Plural(res.Sent, "file"), res.Received)
	return nil
}

// syncStatus is "muse sync --status".
func (a *app) syncStatus(ctx context.Context) error {
	o, err := a.syncOptions(false)
	if err != nil {
		return err
	}
	st, err := gitsync.ReadStatus(ctxOr(ctx), o, true)
	if err != nil {
		return err
	}
	if !st.Fetched {
		if err := a.missingRemote(st.FetchErr); err != nil {
			return err
		}
	}
	w := a.env.Stdout
	fmt.Fprintf(w, "remote:   %s\n", sanitize.Line(st.Remote))
	fmt.Fprintf(w, "ahead:    %s changed here to send", textfmt.Plural(st.Ahead, "file"))
	if st.Pending > 0 {
		fmt.Fprintf(w, ", %s made and not yet pushed", textfmt.Plural(st.Pending, "sync"))
	}
	fmt.Fprintln(w)
	if st.Fetched {
		fmt.Fprintf(w, "behind:   %s from other machines to apply\n", textfmt.Plural(st.Behind, "bundle"))
	} else {
		fmt.Fprintf(w, "behind:   unknown: %s\n", sanitize.Line(st.FetchErr.Error()))
	}
	fmt.Fprintln(w, "conflict: none (sessions merge by record; git never merges them)")
	fmt.Fprintf(w, "last:     %s\n", a.asRunText(lastSyncText(st)))
	for _, s := range st.Skipped {
		fmt.Fprintf(w, "skipped:  %s\n", sanitize.Line(s))
	}
	return nil
}

// lastSyncText says when the last sync ended, and its error.
func lastSyncText(st gitsync.Status) string {
	s := "never"
	if !st.LastSync.IsZero() {
		s = st.LastSync.Local().Format("2006-01-02 15:04:05")
	}
	if st.LastErr != "" {
		s += " · last attempt failed: " + sanitize.Line(st.LastErr)
	}
	return s
}

// missingRemote turns err, when it is a local remote that does not exist,
// into the steps that make one and set sync up with it; other errors are
// returned as they are.
func (a *app) missingRemote(err error) error {
	var missing *gitsync.MissingRemoteError
	if !errors.As(err, &missing) {
		return err
	}
	p := shellQuote(missing.Path)
	return usagef("the remote %s does not exist\nmake an empty one with: git init --bare %s\nthen run: %s sync init %s", sanitize.Line(missing.Path), p, cmdName(a.env), p)
}

// syncCommands are the commands gitsync's errors name: asRun writes them
// with the name muse was run as.
var syncCommands = []string{"muse sync init", "muse sync key", "muse sync gc", "run muse sync"}

// asRunError is an error whose hints name muse as it was run.
type asRunError struct {
	msg string
	err error
}

func (e *asRunError) Error() string { return e.msg }
func (e *asRunError) Unwrap() error { return e.err }

// asRun returns err with the commands its hints name (syncCommands)
// written as muse was run (cmdName), so that they work when pasted.
func (a *app) asRun(err error) error {
	if err == nil {
		return err
	}
	msg := a.asRunText(err.Error())
	if msg == err.Error() {
		return err
	}
	var ue *usageError
	if errors.As(err, &ue) {
		return &usageError{msg: msg}
	}
	return &asRunError{msg: msg, err: err}
}

// asRunText is s with the commands it names (syncCommands) written as
// muse was run.
func (a *app) asRunText(s string) string {
	muse := cmdName(a.env)
	if muse == "muse" {
		return s
	}
	var pairs []string
	for _, c := range syncCommands {
		pairs = append(pairs, c, strings.Replace(c, "muse", muse, 1))
	}
	return strings.NewReplacer(pairs...).Replace(s)
}

// ctxOr returns ctx, or a background context for nil.
func ctxOr(ctx context.Context) context.Context {
	if ctx == nil {
		return context.Background()
	}
	return ctx
}

// startAutoSync starts the background sync of the chat screen when the
// profile says sync = "auto" and sync is set up, else returns nil. report
// is told each status. sync_key_cmd and git get none of the secrets of
// the chat's configuration cfg: its credentials and what its MCP servers
// name, the --mcp-config file's included.
func startAutoSync(env Env, f *flags, cfg *config, report func(syncrun.Status)) *syncrun.Runner {
	sp, err := loadSyncProfile(f, env)
	if err != nil || !sp.auto {
		return nil
	}
	for _, n := range cfg.childDrop() {
		if !slices.Contains(sp.secretEnv, n) {
			sp.secretEnv = append(sp.secretEnv, n)
		}
	}
	sp.secrets = cfg.secrets
	var key string // resolved once: sync_key_cmd may ask a password manager
	return syncrun.Start(func(ctx context.Context) error {
		o, err := syncOptionsFor(env, sp, true, key)
		if err != nil {
			return err
		}
		key = o.Identity
		_, err = gitsync.Sync(ctx, o)
		if errors.Is(err, session.ErrLocked) {
			return nil // another muse syncs this machine now
		}
		return err
	}, report, syncrun.Options{})
}

// doctorSyncState reports the sync's state, without reaching the remote.
func (a *app) doctorSyncState(d *report) {
	sp, err := loadSyncProfile(&a.f, a.env)
	if err != nil {
		d.ok("sync", "cannot tell: "+err.Error())
		return
	}
	o, err := syncOptionsFor(a.env, sp, false, "")
	if err != nil {
		d.line("!", "sync", err.Error())
		return
	}
	st, err := gitsync.ReadStatus(context.Background(), o, false)
	switch {
	case errors.Is(err, gitsync.ErrNotSetUp):
		d.ok("sync", "not set up ("+cmdName(a.env)+" sync init REMOTE)")
	case errors.Is(err, session.ErrLocked):
		d.ok("sync", "a sync is running now")
	case err != nil:
		d.line("!", "sync", a.asRun(err).Error())
	default:
		key := "from "
		switch {
		case strings.TrimSpace(a.env.Getenv(syncKeyEnv)) != "":
			key += syncKeyEnv
		case sp.keyCmd != "":
			key += "sync_key_cmd"
		case o.Identity != "":
			key += gitsync.IdentityPath(o.StateDir)
		default:
			key = "missing: set " + syncKeyEnv + " or sync_key_cmd"
		}
		mark := "✓"
		if st.LastErr != "" || o.Identity == "" {
			mark = "!"
		}
		d.line(mark, "sync", fmt.Sprintf("with %s · key %s · %s to send · last sync %s", st.Remote, key, textfmt.Plural(st.Ahead+st.Pending, "file"), a.asRunText(lastSyncText(st))))
	}
}
