package gitsync

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"muse/session"
)

// twoMachines sets up A (which makes the key) and B on one remote.
func twoMachines(t *testing.T) (bare string, a, b *machine) {
	bare = newBare(t)
	a = newMachine(t, bare, "")
	b = newMachine(t, bare, a.o.Identity)
	return bare, a, b
}

// read returns the journal of the session id of m, "" if missing.
func (m *machine) read(t *testing.T, id string) string {
	data, err := os.ReadFile(filepath.Join(m.o.DataDir, "sessions", id+".jsonl"))
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	return string(data)
}

// TestRecordsTravelOnceEachWay appends on both machines: each gets the
// other's records once, and none is sent back to where it came from.
func TestRecordsTravelOnceEachWay(t *testing.T) {
	_, a, b := twoMachines(t)
	a.write(t, "s1", turnText(1))
	if res := a.sync(t); res.Sent != 1 {
		t.Fatalf("A sent %d files", res.Sent)
	}
	if res := b.sync(t); res.Received != 1 || res.Sent != 0 {
		t.Fatalf("B: %+v", res)
	}
	if res := b.sync(t); res.Sent != 0 {
		t.Fatalf("B sent back what it received: %+v", res)
	}
	b.write(t, "s1", turnText(2))
	b.sync(t)
	if res := a.sync(t); res.Received != 1 {
		t.Fatalf("A: %+v", res)
	}
	if res := a.sync(t); res.Sent != 0 {
		t.Fatalf("A sent back what it received: %+v", res)
	}
	want := turnText(1) + turnText(2)
	if got := a.read(t, "s1"); got != want {
		t.Errorf("A:\n%s\nwant\n%s", got, want)
	}
	if got := b.read(t, "s1"); got != want {
		t.Errorf("B:\n%s\nwant\n%s", got, want)
	}
}

// TestCutLineWaits leaves a journal's last line cut: it is sent once whole.
func TestCutLineWaits(t *testing.T) {
	_, a, b := twoMachines(t)
	whole := turnText(1)
	a.write(t, "s1", whole[:len(whole)-10])
	a.sync(t)
	b.sync(t)
	if got := b.read(t, "s1"); strings.Count(got, "\n") != 1 {
		t.Fatalf("B got %q", got)
	}
	a.write(t, "s1", whole[len(whole)-10:])
	a.sync(t)
	b.sync(t)
	if got := b.read(t, "s1"); got != whole {
		t.Errorf("B got %q", got)
	}
}

// TestRewrittenJournalSentWhole compacts A's journal in place: it is sent
// again whole, and B, merging, keeps every record.
func TestRewrittenJournalSentWhole(t *testing.T) {
	_, a, b := twoMachines(t)
	a.write(t, "s1", turnText(1)+turnText(2))
	a.sync(t)
	b.sync(t)
	p := filepath.Join(a.o.DataDir, "sessions", "s1.jsonl")
	if err := os.WriteFile(p, []byte(turnText(2)+turnText(3)), 0o600); err != nil {
		t.Fatal(err)
	}
	a.sync(t)
	b.sync(t)
	got := b.read(t, "s1")
	for i := 1; i <= 3; i++ {
		if strings.Count(got, turnText(i)) != 1 {
			t.Errorf("B holds turn %d %d times:\n%s", i, strings.Count(got, turnText(i)), got)
		}
	}
}

// TestDeleteTravels deletes a session on A: B loses it too.
func TestDeleteTravels(t *testing.T) {
	_, a, b := twoMachines(t)
	st, _ := session.Open(filepath.Join(a.o.DataDir, "sessions"))
	w := session.NewWriter(st, session.Params{Model: "m"})
	if _, err := w.Append(session.Entry{Kind: session.KindUser, Text: "hello"}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	s := struct{ ID string }{w.ID()}
	a.sync(t)
	b.sync(t)
	if b.read(t, s.ID) == "" {
		t.Fatal("B did not get the session")
	}
	if err := st.Delete(s.ID); err != nil {
		t.Fatal(err)
	}
	a.sync(t)
	b.sync(t)
	if b.read(t, s.ID) != "" {
		t.Error("the session deleted on A is still on B")
	}
}

// TestImagesStayLocal sends no image with Images false, and one with true.
func TestImagesStayLocal(t *testing.T) {
	_, a, b := twoMachines(t)
	img := filepath.Join(a.o.DataDir, "images", "s1", "x.png")
	os.MkdirAll(filepath.Dir(img), 0o700)
	os.WriteFile(img, []byte("not really a png"), 0o600)
	a.o.Images = false
	a.sync(t)
	b.sync(t)
	got := filepath.Join(b.o.DataDir, "images", "s1", "x.png")
	if _, err := os.Stat(got); err == nil {
		t.Fatal("an image travelled with Images false")
	}
	a.o.Images = true
	a.sync(t)
	b.sync(t)
	if data, err := os.ReadFile(got); err != nil || string(data) != "not really a png" {
		t.Fatalf("the image did not travel: %q %v", data, err)
	}
	if fi, _ := os.Stat(got); fi.Mode().Perm() != 0o600 {
		t.Errorf("mode %v", fi.Mode())
	}
}

// TestForcePushedRemote rewinds the remote to its first commit, as a
// force-push by someone else would: A says so and sends all again, and B
// gets everything.
func TestForcePushedRemote(t *testing.T) {
	bare, a, b := twoMachines(t)
	first, _ := exec.Command("git", "-C", bare, "rev-parse", "muse-sync").Output()
	a.write(t, "s1", turnText(1))
	a.sync(t)
	b.sync(t)
	a.write(t, "s1", turnText(2))
	a.sync(t)
	if out, err := exec.Command("git", "-C", bare, "update-ref", "refs/heads/muse-sync", strings.TrimSpace(string(first))).CombinedOutput(); err != nil {
		t.Fatal(err, string(out))
	}
	if res := a.sync(t); !res.Rewritten || res.Sent != 1 {
		t.Fatalf("A: %+v", res)
	}
	b.sync(t)
	if got, want := b.read(t, "s1"), turnText(1)+turnText(2); got != want {
		t.Errorf("B:\n%s\nwant\n%s", got, want)
	}
}

// TestWrongKeyRefused refuses a machine with another key, at init and at
// sync, before anything is written.
func TestWrongKeyRefused(t *testing.T) {
	bare, a, _ := twoMachines(t)
	other, _ := NewIdentity()
	dir := t.TempDir()
	o := a.o
	o.StateDir, o.DataDir, o.Identity = filepath.Join(dir, "state"), filepath.Join(dir, "data"), other
	if _, err := Init(context.Background(), o, bare); !errors.Is(err, ErrWrongKey) {
		t.Fatalf("init: %v", err)
	}
	des, err := os.ReadDir(o.StateDir)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		t.Fatal(err)
	}
	if len(des) != 0 {
		t.Errorf("left in the sync folder: %v", des)
	}
	a.write(t, "s1", turnText(1))
	a.o.Identity = other
	if _, err := Sync(context.Background(), a.o); !errors.Is(err, ErrWrongKey) {
		t.Fatalf("sync: %v", err)
	}
}

// TestOneSyncAtATime refuses a second sync while one holds the lock.
func TestOneSyncAtATime(t *testing.T) {
	_, a, _ := twoMachines(t)
	unlock, err := session.LockFile(filepath.Join(a.o.StateDir, lockName), "muse sync")
	if err != nil {
		t.Fatal(err)
	}
	defer unlock()
	if _, err := Sync(context.Background(), a.o); !errors.Is(err, session.ErrLocked) {
		t.Fatalf("sync: %v", err)
	}
}

// TestNotAMuseRemote refuses a remote whose branch is not muse's.
func TestNotAMuseRemote(t *testing.T) {
	bare, a, _ := twoMachines(t)
	if out, err := exec.Command("git", "-C", bare, "update-ref", "-d", "refs/heads/muse-sync").CombinedOutput(); err != nil {
		t.Fatal(err, string(out))
	}
	_, err := Sync(context.Background(), a.o)
	if err == nil || !strings.Contains(err.Error(), "holds no muse sync data") {
		t.Fatalf("sync: %v", err)
	}
}

// TestBundlePaths refuses a bundle entry outside the synced folders.
func TestBundlePaths(t *testing.T) {
	for _, p := range []string{"../x", "sessions/../../x", "/etc/passwd", "sessions/a/b.jsonl", "config/muse/config.toml",
		"sessions/.x.jsonl", "images/../../x", "sessions/a b.jsonl", "images/a/b/c/d/e"} {
		plain, err := encodeBundle([]change{{Path: p, Op: opFull, Data: []byte("x")}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := decodeBundle(plain); err == nil {
			t.Errorf("%q was accepted", p)
		}
	}
	for _, p := range []string{"sessions/20260101-000000-abc.jsonl", "sessions/x.deleted", "images/s1/a.png", "attachments/s1/ab/c.pdf"} {
		if _, err := kindOf(p); err != nil {
			t.Errorf("%q: %v", p, err)
		}
	}
}

// TestGC compacts the remote on A while B has a sync made and not pushed:
// the remote is one commit, B reads the snapshot, sends nothing again, and
// pushes its own; a delete made before the gc still reaches a machine that
// had not seen it.
func TestGC(t *testing.T) {
	bare, a, b := twoMachines(t)
	c := newMachine(t, bare, a.o.Identity)
	for i := range 5 {
		a.write(t, "s1", turnText(i))
		a.sync(t)
	}
	b.write(t, "s2", turnText(10))
	b.sync(t)
	c.sync(t)
	a.sync(t)
	ast, err := session.Open(filepath.Join(a.o.DataDir, "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	if err := ast.Delete("s2"); err != nil { // A deletes s2
		t.Fatal(err)
	}
	a.sync(t)
	b.write(t, "s3", turnText(20)) // made on B, not yet pushed
	res, err := GC(context.Background(), a.o)
	if err != nil {
		t.Fatal(err)
	}
	if res.Commits < 8 {
		t.Errorf("gc: %+v", res)
	}
	if n, _ := exec.Command("git", "-C", bare, "rev-list", "--count", "muse-sync").Output(); strings.TrimSpace(string(n)) != "1" {
		t.Errorf("the remote holds %s commits", n)
	}
	r := b.sync(t)
	if !r.Compacted || r.Rewritten || r.Sent != 1 {
		t.Errorf("B after gc: %+v", r)
	}
	if b.read(t, "s2") != "" {
		t.Error("B still holds the session A deleted")
	}
	r = c.sync(t) // C never saw the delete
	if !r.Compacted || r.Sent != 0 || c.read(t, "s2") != "" {
		t.Errorf("C after gc: %+v, s2 %q", r, c.read(t, "s2"))
	}
	a.sync(t)
	if a.read(t, "s3") != turnText(20) || !sameSet(c.read(t, "s1"), a.read(t, "s1")) || a.read(t, "s2") != "" {
		t.Errorf("the machines differ after gc: A s3 %q\nA s1 %q\nC s1 %q\nA s2 %q", a.read(t, "s3"), a.read(t, "s1"), c.read(t, "s1"), a.read(t, "s2"))
	}
}

// failingLocal fails every merge while fail is set, as a full disk or a
// session open in another muse would.
type failingLocal struct {
	Local
	fail bool
}

func (l *failingLocal) MergeJournal(id string, records []byte) ([]byte, error) {
	if l.fail {
		return nil, errors.New("no space left on device")
	}
	return l.Local.MergeJournal(id, records)
}

// TestFailedApplyIsDeferred fails B's merge: the sync says so, and the
// next one applies what waited, once.
func TestFailedApplyIsDeferred(t *testing.T) {
	_, a, b := twoMachines(t)
	fl := &failingLocal{Local: b.o.Local, fail: true}
	b.o.Local = fl
	a.write(t, "s1", turnText(1))
	a.sync(t)
	if res := b.sync(t); len(res.Busy) != 1 || !strings.Contains(res.Busy[0], "no space") {
		t.Fatalf("B: %+v", res)
	}
	if b.read(t, "s1") != "" {
		t.Fatal("a failed merge wrote")
	}
	fl.fail = false
	if res := b.sync(t); res.Received != 1 || len(res.Busy) != 0 {
		t.Fatalf("B: %+v", res)
	}
	b.sync(t)
	if got := b.read(t, "s1"); got != turnText(1) {
		t.Errorf("B: %q", got)
	}
}

// TestInitKilledAfterPush loses the first machine's state after its push,
// as a kill would: init again finds the key it kept, joins, and shows it.
func TestInitKilledAfterPush(t *testing.T) {
	bare := newBare(t)
	a := newMachine(t, bare, "")
	os.Remove(filepath.Join(a.o.StateDir, stateFile))
	kept, err := LoadIdentity(a.o.StateDir)
	if err != nil || kept != a.o.Identity {
		t.Fatalf("kept %q, %v", kept, err)
	}
	o := a.o
	res, err := Init(context.Background(), o, bare)
	if err != nil {
		t.Fatal(err)
	}
	if !res.ShowKey || res.Identity != kept {
		t.Errorf("init again: %+v", res)
	}
	a.write(t, "s1", turnText(1))
	a.sync(t)
}

// TestEditAfterDeleteKept deletes a session on A while B, which has not
// seen the delete, adds to it: B keeps it, as session's rule says.
func TestEditAfterDeleteKept(t *testing.T) {
	_, a, b := twoMachines(t)
	ast, _ := session.Open(filepath.Join(a.o.DataDir, "sessions"))
	w := session.NewWriter(ast, session.Params{Model: "m"})
	if _, err := w.Append(session.Entry{Kind: session.KindUser, Text: "hello"}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	id := w.ID()
	a.sync(t)
	b.sync(t)
	if err := ast.Delete(id); err != nil {
		t.Fatal(err)
	}
	bst, _ := session.Open(filepath.Join(b.o.DataDir, "sessions"))
	bw, err := bst.OpenWriter(id)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bw.Append(session.Entry{Kind: session.KindUser, Text: "written on B after the delete"}); err != nil {
		t.Fatal(err)
	}
	bw.Close()
	a.sync(t)
	b.sync(t)
	if got := b.read(t, id); !strings.Contains(got, "written on B after the delete") {
		t.Errorf("B lost what it wrote after the delete: %q", got)
	}
}
