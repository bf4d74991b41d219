package index

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"
)

// envChild, when set, makes the test binary the child of
// TestKilledAtRandomMoments: it changes the sessions of the store in that
// directory, an Updater keeping the index current, until it is killed.
const envChild = "MUSE_INDEX_TEST_CHILD"

func TestMain(m *testing.M) {
	if dir := os.Getenv(envChild); dir != "" {
		child(dir, os.Getenv(envChild+"_SEED"))
		return
	}
	os.Exit(m.Run())
}

// childT is the fataler of the child: it has no test to fail.
type childT struct{}

func (childT) Helper() {}

func (childT) Fatal(args ...any) {
	fmt.Fprintln(os.Stderr, args...)
	os.Exit(3)
}

// child changes the sessions in dir at random, seeded with seed, forever,
// and says "ready" once the index holds something.
func child(dir, seed string) {
	store, err := storeIn(dir)
	if err != nil {
		childT{}.Fatal(err)
	}
	n, _ := strconv.ParseUint(seed, 10, 64)
	r := rand.New(rand.NewPCG(n, 99))
	u := NewUpdater(NewShared(store), time.Millisecond)
	randomOps(childT{}, store, r, 3)
	if err := u.Flush(); err != nil {
		childT{}.Fatal(err)
	}
	fmt.Println("ready")
	for {
		randomOps(childT{}, store, r, 1)
		fmt.Println("op") // the test kills after a random count of these
	}
}

// A muse killed with SIGKILL at a random moment, while it writes
// journals and its Updater writes the index, leaves an index that the
// next Sync makes agree with the journals.
func TestKilledAtRandomMoments(t *testing.T) {
	store := newStore(t)
	r := rand.New(rand.NewPCG(17, 18))
	for round := range 5 {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), envChild+"="+filepath.Dir(filepath.Dir(store.Dir())), fmt.Sprintf("%s_SEED=%d", envChild, round))
		cmd.Stderr = os.Stderr
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		said := bufio.NewReader(out)
		if line, err := said.ReadString('\n'); err != nil || line != "ready\n" {
			cmd.Process.Kill()
			t.Fatalf("the child said %q, %v", line, err)
		}
		// A random moment, counted in the child's changes, not in time: the
		// kill lands somewhere in the changes after the one it reported.
		for n := r.IntN(8); n > 0; n-- {
			if line, err := said.ReadString('\n'); err != nil || line != "op\n" {
				cmd.Process.Kill()
				t.Fatalf("the child said %q, %v", line, err)
			}
		}
		if err := cmd.Process.Kill(); err != nil {
			t.Fatal(err)
		}
		if err := cmd.Wait(); err == nil {
			t.Fatal("the child ended before it was killed")
		}
		ix := openCurrent(t, store)
		t.Run(fmt.Sprint("round", round), func(t *testing.T) { agree(t, store, ix) })
		ix.Close()
	}
}
