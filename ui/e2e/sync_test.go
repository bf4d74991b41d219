//go:build linux

package e2e

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestTwoFoldersWithPlainCopies is two machines whose data folders a
// file-sync engine without muse's help keeps: plain copies (cp), with the
// conflict names Dropbox and iCloud give a file changed on both sides. The
// same session is continued on both before they sync, and each starts a
// session of its own. After the copies, each muse's next command merges
// the conflict copies: both machines list the same sessions, the shared
// one holds both continuations as branches, search finds what either
// wrote, and no conflict copy is left.
func TestTwoFoldersWithPlainCopies(t *testing.T) {
	t.Parallel()
	a, b := newHome(t, ""), newHome(t, "")
	sessions := func(h *home) string { return filepath.Join(h.dir, "data", "muse", "sessions") }
	a.run(t, "--demo", "-p", "the shared question")
	shared := strings.TrimSpace(a.run(t, "sessions", "list", "--json"))
	var list []struct {
		ID string `json:"id"`
	}
	if err := json.Unmarshal([]byte(shared), &list); err != nil || len(list) != 1 {
		t.Fatalf("list: %v %s", err, shared)
	}
	id := list[0].ID
	// The folder reaches b whole.
	if err := os.MkdirAll(sessions(b), 0o700); err != nil {
		t.Fatal(err)
	}
	cp(t, filepath.Join(sessions(a), id+".jsonl"), filepath.Join(sessions(b), id+".jsonl"))

	// Both go on with it before they sync, and start one each.
	a.run(t, "--demo", "-c", "-p", "capybaras on machine a")
	b.run(t, "--demo", "-c", "-p", "lemurs on machine b")
	a.run(t, "--demo", "-p", "a session of a's own")
	b.run(t, "--demo", "-p", "a session of b's own")

	// The sync engines copy each way: the shared journal changed on both
	// sides, so it arrives as a conflict copy (Dropbox's name on a,
	// iCloud's on b); the other sessions arrive as they are.
	copyAll := func(from, to *home, conflict string) {
		des, err := os.ReadDir(sessions(from))
		if err != nil {
			t.Fatal(err)
		}
		for _, de := range des {
			name := de.Name()
			if !strings.HasSuffix(name, ".jsonl") {
				continue
			}
			dst := name
			if name == id+".jsonl" {
				dst = id + conflict + ".jsonl"
			}
			if _, err := os.Stat(filepath.Join(sessions(to), name)); err == nil && name != id+".jsonl" {
				continue
			}
			cp(t, filepath.Join(sessions(from), name), filepath.Join(sessions(to), dst))
		}
	}
	copyAll(b, a, " (b's conflicted copy 2026-11-28)")
	copyAll(a, b, " 2")

	var exports [2]string
	for i, h := range []*home{a, b} {
		out := h.run(t, "sessions", "list")
		for _, want := range []string{"the shared question", "a session of a's own", "a session of b's own"} {
			if !strings.Contains(out, want) {
				t.Errorf("machine %d lists no %q:\n%s", i, want, out)
			}
		}
		exports[i] = h.run(t, "sessions", "export", id, "--format", "json", "--all-branches")
		for _, want := range []string{"capybaras on machine a", "lemurs on machine b"} {
			if !strings.Contains(exports[i], want) {
				t.Errorf("machine %d: the shared session lacks %q", i, want)
			}
			if out := h.run(t, "sessions", "search", strings.Fields(want)[0]); !strings.Contains(out, id) {
				t.Errorf("machine %d: search %q finds nothing in the shared session:\n%s", i, want, out)
			}
		}
		des, _ := os.ReadDir(sessions(h))
		for _, de := range des {
			if strings.Contains(de.Name(), "conflicted") || strings.HasSuffix(de.Name(), " 2.jsonl") || strings.HasSuffix(de.Name(), ".unmerged") {
				t.Errorf("machine %d: %s left", i, de.Name())
			}
		}
	}
	var ea, eb struct {
		Entries []struct {
			ID     string `json:"id"`
			Parent string `json:"parent"`
		} `json:"entries"`
	}
	if json.Unmarshal([]byte(exports[0]), &ea) != nil || json.Unmarshal([]byte(exports[1]), &eb) != nil {
		t.Fatal("exports are not JSON")
	}
	ids := func(es []struct {
		ID     string `json:"id"`
		Parent string `json:"parent"`
	}) []string {
		var out []string
		for _, e := range es {
			out = append(out, e.ID+"<"+e.Parent)
		}
		slices.Sort(out)
		return out
	}
	if !slices.Equal(ids(ea.Entries), ids(eb.Entries)) || len(ea.Entries) != 6 {
		t.Errorf("the machines hold different trees:\n%v\n%v", ids(ea.Entries), ids(eb.Entries))
	}
}

// cp copies a file with cp(1), as a person or a simple sync would.
func cp(t *testing.T, from, to string) {
	t.Helper()
	if out, err := exec.Command("cp", from, to).CombinedOutput(); err != nil {
		t.Fatalf("cp %s %s: %v %s", from, to, err, out)
	}
}
