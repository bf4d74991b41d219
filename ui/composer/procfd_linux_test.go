package composer

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// heldDeleted makes gone.txt in the working folder a link to
// /proc/self/fd/N, a file muse holds open and that was deleted, and
// key.txt one to the token under ~/.config/gh, which muse holds open too.
func heldDeleted(t *testing.T) {
	t.Helper()
	linkedProject(t)
	home, err := os.UserHomeDir()
	if err != nil {
		t.Fatal(err)
	}
	gone := filepath.Join(t.TempDir(), "gone.txt")
	if err := os.WriteFile(gone, []byte("DELETED\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for name, p := range map[string]string{"gone.txt": gone, "key.txt": filepath.Join(home, ".config", "gh", "hosts.yml")} {
		f, err := os.Open(p)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { f.Close() })
		if err := os.Symlink("/proc/self/fd/"+strconv.FormatUint(uint64(f.Fd()), 10), name); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Remove(gone); err != nil {
		t.Fatal(err)
	}
}

// A mention of a link to /proc/self/fd/N is checked on the file opened:
// a token muse holds open is a secret by its real path, and a deleted
// file, which has no path to check, is never attached from a mention
// (attack review: it was read as a plain file). /attach, the user's own
// command, attaches it with a warning.
func TestMentionThroughProcFD(t *testing.T) {
	heldDeleted(t)
	for _, c := range []struct{ mention, said string }{
		{"gone.txt", "cannot find under any name"},
		{"key.txt", "in ~/.config/gh"},
	} {
		m, out := enter(t, typed(t, "explain @"+c.mention))
		if out.Send != nil || m.Pending().Len() != 0 || !strings.Contains(out.Notice, "not attached: "+c.mention) ||
			!strings.Contains(out.Notice, c.said) {
			t.Errorf("@%s: sent %v, %d files, notice %q", c.mention, out.Send != nil, m.Pending().Len(), out.Notice)
		}
	}
	m, out := newComposer(t).Attach([]Source{{Path: "gone.txt"}}, "/attach gone.txt")
	msg, ok := out.Cmd().(AttachedMsg)
	if !ok {
		t.Fatalf("the command gave %T", msg)
	}
	m, out = m.Attached(msg)
	if m.Pending().Len() != 1 || !strings.Contains(out.Notice, "warning: gone.txt is a file muse cannot find") {
		t.Errorf("/attach: %d files, notice %q", m.Pending().Len(), out.Notice)
	}
}
