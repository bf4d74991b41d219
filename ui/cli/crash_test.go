package cli

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"muse/api"
	"muse/session"
	"muse/ui/internal/waitfor"
)

// TestMain lets the test binary run as muse itself, so tests can start a
// real muse process: MUSE_TEST_RUN_MAIN=1 makes it run Main on its arguments.
func TestMain(m *testing.M) {
	if os.Getenv("MUSE_TEST_RUN_MAIN") == "1" {
		os.Exit(Main(os.Args[1:], OSEnv()))
	}
	os.Exit(m.Run())
}

// started starts cmd and returns a channel closed once it has ended (and
// been waited for). The process is killed when the test ends.
func started(t *testing.T, cmd *exec.Cmd) <-chan struct{} {
	t.Helper()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ended := make(chan struct{})
	go func() { cmd.Wait(); close(ended) }()
	t.Cleanup(func() { cmd.Process.Kill(); <-ended })
	return ended
}

// killed kills cmd with SIGKILL and waits for it to end.
func killed(t *testing.T, cmd *exec.Cmd, ended <-chan struct{}) {
	t.Helper()
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-ended
}

// checkpointed reports whether a journal holds a checkpoint of a reply.
func checkpointed(journal []byte) bool {
	return bytes.Contains(journal, []byte(`"status":"streaming"`))
}

// museProcess starts a real muse process with args.
func museProcess(t *testing.T, dataHome string, args ...string) *exec.Cmd {
	t.Helper()
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(os.Environ(), "MUSE_TEST_RUN_MAIN=1", "XDG_DATA_HOME="+dataHome)
	return cmd
}

// TestKillMidReply kills a real muse process with SIGKILL while it streams a
// reply into a session, then reopens the session: nothing completed is lost,
// and the reply is back, marked interrupted, short of at most ~1 s of text.
func TestKillMidReply(t *testing.T) {
	if testing.Short() && os.Getenv("CI") == "" { // CI runs everything
		t.Skip("starts a child process")
	}
	data := t.TempDir()
	store, err := session.Open(filepath.Join(data, "muse", "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	sess := session.Session{ID: seedSession(t, store, session.Params{Model: "demo-chat", MaxTokens: 4096}, "",
		session.Entry{ID: "e1", Kind: session.KindUser, Text: "first"},
		session.Entry{ID: "e2", Kind: session.KindAssistant, Message: &api.Message{Content: []api.ContentBlock{{Type: "text", Text: "first answer"}}}})}

	var out bytes.Buffer
	cmd := museProcess(t, data, "--demo", "-c", "-p", "demo:long demo:slow tell me a story")
	cmd.Stdout, cmd.Stderr = &out, &out
	ended := started(t, cmd)

	// Wait until a checkpoint with some text is on disk, and kill at once:
	// the reply goes on streaming, so what is printed passes what is saved.
	journal := filepath.Join(store.Dir(), sess.ID+".jsonl")
	waitfor.File(t, journal, ended, "a checkpoint of the reply", checkpointed)
	killed(t, cmd, ended)
	printed := out.String()

	back, err := store.Load(sess.ID)
	if err != nil {
		t.Fatalf("reopen after kill -9: %v", err)
	}
	if len(back.Entries) != 4 {
		t.Fatalf("entries after kill: %d, want 4 (two old, the prompt, the partial reply)", len(back.Entries))
	}
	if back.Entries[1].Message.Text() != "first answer" || back.Entries[2].Text != "demo:long demo:slow tell me a story" {
		t.Errorf("completed entries changed: %+v", back.Entries[:3])
	}
	last := back.Entries[3]
	if last.Status != session.StatusInterrupted || last.Message == nil {
		t.Fatalf("last entry status %q, want interrupted", last.Status)
	}
	saved := last.Message.Text()
	if saved == "" || !strings.HasPrefix(printed, saved[:min(len(saved), 40)]) {
		t.Errorf("saved text %q does not match what was printed %q", saved[:min(len(saved), 80)], printed[:min(len(printed), 80)])
	}
	// The lock died with the process.
	unlock, err := store.Lock(sess.ID)
	if err != nil {
		t.Fatalf("lock after kill: %v", err)
	}
	unlock()
	t.Logf("printed %d bytes before the kill, %d saved", len(printed), len(saved))
}

// TestKillMidBranchReply kills a real muse process with SIGKILL while it
// streams a reply onto the second branch of a session (-c -p goes on with
// the active branch): the first branch is intact, and the reply is on the
// active branch, after the new prompt, marked interrupted.
func TestKillMidBranchReply(t *testing.T) {
	if testing.Short() && os.Getenv("CI") == "" { // CI runs everything
		t.Skip("starts a child process")
	}
	data := t.TempDir()
	store, err := session.Open(filepath.Join(data, "muse", "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	reply := func(text string) session.Entry {
		return session.Entry{Kind: session.KindAssistant, Message: &api.Message{Content: []api.ContentBlock{{Type: "text", Text: text}}}}
	}
	w := session.NewWriter(store, session.Params{Model: "demo-chat", MaxTokens: 4096})
	var first []session.Entry
	for _, e := range []session.Entry{{Kind: session.KindUser, Text: "first"}, reply("first answer"), {Kind: session.KindUser, Text: "second"}, reply("second answer")} {
		got, err := w.Append(e)
		if err != nil {
			t.Fatal(err)
		}
		first = append(first, got)
	}
	// The second prompt edited: a branch beside it, which is the active one.
	edited, err := w.AppendAt(session.Entry{Kind: session.KindUser, Text: "second, edited"}, first[1].ID)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := w.Append(reply("edited answer")); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	id := w.ID()

	var out bytes.Buffer
	cmd := museProcess(t, data, "--demo", "-c", "-p", "demo:long demo:slow go on from the edit")
	cmd.Stdout, cmd.Stderr = &out, &out
	ended := started(t, cmd)
	journal := filepath.Join(store.Dir(), id+".jsonl")
	waitfor.File(t, journal, ended, "a checkpoint of the reply", checkpointed)
	killed(t, cmd, ended)

	back, err := store.Load(id)
	if err != nil {
		t.Fatalf("reopen after kill -9: %v", err)
	}
	if len(back.All) != 8 || len(back.Entries) != 6 {
		t.Fatalf("after the kill: %d entries, %d on the branch; want 8 and 6", len(back.All), len(back.Entries))
	}
	// The first branch, whole and unchanged.
	old := first[3].ID
	if back.Leaf(first[2].ID) != old {
		t.Errorf("the first branch ends at %s, want %s", back.Leaf(first[2].ID), old)
	}
	for i, want := range first {
		var got *session.Entry
		for k := range back.All {
			if back.All[k].ID == want.ID {
				got = &back.All[k]
			}
		}
		if got == nil || got.Parent != want.Parent || got.Text != want.Text || (want.Message != nil && got.Message.Text() != want.Message.Text()) {
			t.Errorf("entry %d of the first branch changed: %+v", i, got)
		}
	}
	// The new prompt and its reply follow the edited branch.
	br := back.Entries
	if br[2].ID != edited.ID || br[3].Message.Text() != "edited answer" || br[4].Text != "demo:long demo:slow go on from the edit" || br[4].Parent != br[3].ID {
		t.Errorf("active branch: %+v", br[2:5])
	}
	last := br[5]
	if last.Status != session.StatusInterrupted || last.Message == nil || last.Message.Text() == "" || last.Parent != br[4].ID || back.Head != last.ID {
		t.Errorf("the reply: status %q, parent %s, head %s", last.Status, last.Parent, back.Head)
	}
	if ids, _ := back.Siblings(edited.ID); len(ids) != 2 || ids[0] != first[2].ID {
		t.Errorf("siblings of the edited prompt: %v", ids)
	}
}

// TestSecondMuseRefused runs two muse processes on one session: the second
// refuses with a clear message and writes nothing.
func TestSecondMuseRefused(t *testing.T) {
	if testing.Short() && os.Getenv("CI") == "" { // CI runs everything
		t.Skip("starts child processes")
	}
	data := t.TempDir()
	store, err := session.Open(filepath.Join(data, "muse", "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	sess := session.Session{ID: seedSession(t, store, session.Params{Model: "demo-chat", MaxTokens: 100}, "",
		session.Entry{ID: "e1", Kind: session.KindUser, Text: "hi"})}
	first := museProcess(t, data, "--demo", "-r", sess.ID, "-p", "demo:slow demo:long go on")
	ended := started(t, first)
	// The first muse holds the session once it has written the prompt.
	journal := filepath.Join(store.Dir(), sess.ID+".jsonl")
	waitfor.File(t, journal, ended, "the first muse's prompt", func(b []byte) bool { return bytes.Contains(b, []byte("demo:slow demo:long go on")) })
	before, err := os.ReadFile(journal)
	if err != nil {
		t.Fatal(err)
	}
	second := museProcess(t, data, "--demo", "-r", sess.ID, "-p", "me too")
	out, err := second.CombinedOutput()
	if err == nil || !strings.Contains(string(out), "open in another muse") {
		t.Fatalf("second muse: err %v, output %q", err, out)
	}
	after, err := os.ReadFile(journal)
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(after, []byte("me too")) || len(after) < len(before) {
		t.Errorf("the refused muse wrote to the journal")
	}
}
