// Package gitsync carries muse's data folder between machines through a git
// remote the user already has, encrypted end to end with age
// (filippo.io/age): the remote sees ciphertext only.
//
// # The client
//
// It runs the user's own git command, not go-git. Syncing must reach the
// remote exactly as the user's git does: their ssh keys, agent and
// ~/.ssh/config, their credential helpers (a forge's token in the system's
// keychain), url.insteadOf rewrites and proxies. go-git reads none of
// git's credential helpers nor ssh's configuration, and would make muse
// re-implement each of them. git is run with an environment cleared of
// muse's secrets (the sync key, the service's credentials), and, in the
// background, with no terminal to prompt on (GIT_TERMINAL_PROMPT=0, a new
// session with no controlling terminal), so that a missing credential is an
// error to show, not a prompt that steals the chat screen.
//
// # What the remote holds
//
// One branch, muse-sync. Every commit's tree holds the marker and only the
// bundles that commit adds:
//
//	muse-sync/README           plain text: what this is
//	muse-sync/v1/key.age       a known text encrypted to the identity: the key check
//	muse-sync/v1/<machine>/<seq>.age
//
// so the history is the log: each commit is one machine's sync, and its
// parent is the remote's tip it saw. The trees do not accumulate (a tree of
// every chunk ever written would be rewritten by every sync, which makes the
// remote grow with the square of the syncs); a sync adds one commit, a few
// small trees and its bundles, whatever the number of sessions.
//
// A bundle is the changes of one sync (at most bundleMax bytes of them, so
// a first sync writes several): for each changed file of the data folder,
// its path and the bytes that are new since the last sync. A journal is
// append-only, so a bundle holds only its new whole records; a journal
// rewritten in place (compaction) is sent whole again. Images, attachments
// and tombstones are sent whole, once, in the bundle of the machine that
// made them; a machine that received one never sends it back, so they are
// not content-addressed on the remote (a name made from a hash of the plain
// text would tell the remote which files are the same). A bundle is
// compressed (DEFLATE), then encrypted with age to the identity's recipient. The machine id and
// the sequence number are random and counting: names carry no titles, ids
// or prompts. Commits carry a fixed author and date.
//
// Each machine writes only its own folder, so two machines never write the
// same path: when another machine pushed first, muse fetches, applies its
// bundles, and makes its own commit again on the new tip (the same tree,
// another parent), then pushes. Nothing is ever merged textually by git,
// and nothing is force-pushed.
//
// # Pulling
//
// The commits since the last one applied are listed (git log --raw), and
// the bundles other machines wrote are read, authenticated and decrypted
// whole before anything is applied: age authenticates every 64 KiB, and a
// bundle that fails (damaged, tampered, wrong key) is skipped and named,
// and nothing of it is written. Journal records go to the Local merge
// (session's, part 1 of the design: a union of records), other files are
// written where they are missing. Applying is idempotent, so a sync killed
// at any moment is completed by the next one: the state (state.json) is
// written after each step, and what a crash repeats is applied again to no
// effect. Records received are remembered by hash, so that the sync that
// follows does not send them back.
//
// A remote whose history no longer holds the last commit applied was
// rewritten by someone else (a force-push): muse says so, applies the new
// history from its start, and sends this machine's files whole again, so
// that nothing this machine holds is lost from the remote.
//
// The merge itself is session's (Local, StoreLocal): the records a journal
// lacks are written beside it as a sync engine's conflict copy, which the
// store's catch-up merges under the session's lock (a union of records,
// byte for byte, in the order of their times); a session open in a muse
// keeps its copy until it is closed, and any command's catch-up merges it
// then. A copy of a session deleted here meets its tombstone. A full disk
// leaves the bundle to be applied by the next sync. Deletes travel as the
// removal of a journal and as session's tombstone files, which are synced
// like images.
//
// muse sync gc (gc.go) replaces the history with one snapshot, under a
// lease, and a new generation that the other machines recognise.
//
// # Per machine
//
// The local clone (a bare repository), the state and the lock live in the
// sync folder under XDG_STATE_HOME, never in the data folder: they are not
// data to carry. The lock is session.LockFile's: one sync at a time. The
// identity a machine made is kept there too, as identity (mode 0600), so
// that sync = "auto" needs no prompt; other machines take theirs from
// MUSE_SYNC_KEY or sync_key_cmd, and keep no copy.
package gitsync
