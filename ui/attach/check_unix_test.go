//go:build unix

package attach

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// swapProject is a working folder whose notes.txt is a link to plain.txt,
// beside a link to a private key under the home folder; swap makes
// notes.txt lead to the key (to true) or to plain.txt, in one rename, as
// the attacker's racer did.
func swapProject(t *testing.T) (swap func(toKey bool)) {
	t.Helper()
	home := t.TempDir()
	t.Setenv("HOME", home)
	key := filepath.Join(home, ".ssh", "id_ed25519")
	if err := os.MkdirAll(filepath.Dir(key), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(key, []byte("-----BEGIN OPENSSH PRIVATE KEY----- fake\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Chdir(t.TempDir())
	if err := os.WriteFile("plain.txt", []byte("harmless notes\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	swap = func(toKey bool) {
		target := "plain.txt"
		if toKey {
			target = key
		}
		if err := os.Symlink(target, "notes.tmp"); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename("notes.tmp", "notes.txt"); err != nil {
			t.Fatal(err)
		}
	}
	swap(false)
	return swap
}

// checkAndRead checks notes.txt, then reads what Check opened.
func checkAndRead(t *testing.T) (*Opened, string) {
	t.Helper()
	o, err := Check("notes.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer o.Close()
	f, err := o.Read()
	if err != nil {
		t.Fatal(err)
	}
	return o, string(f.Data)
}

// The attack review's race, made certain: notes.txt is swapped between a
// plain file and a link to a private key at each point of the attach: as
// the file is opened (before its checks) and once it is checked (before it
// is read), with the real path from /proc or from following the path's
// links again (macOS). Whatever the swap, the file read is the file
// checked: the key is read only where the checks said what it is.
func TestCheckedFileIsReadFile(t *testing.T) {
	for _, proc := range []bool{true, false} {
		for _, startKey := range []bool{false, true} {
			for _, at := range []string{"open", "read"} {
				t.Run(map[bool]string{true: "proc", false: "links"}[proc]+"/key-first-"+map[bool]string{true: "yes", false: "no"}[startKey]+"/swap-at-"+at, func(t *testing.T) {
					swap := swapProject(t)
					if !proc {
						openPath = func(*os.File) string { return "" }
						t.Cleanup(func() { openPath = fdPath })
					}
					swap(startKey)
					swapped := func() { swap(!startKey) }
					if at == "open" {
						afterOpen = swapped
						t.Cleanup(func() { afterOpen = func() {} })
					}
					o, err := Check("notes.txt")
					if err != nil {
						t.Fatal(err)
					}
					defer o.Close()
					if at == "read" {
						swapped()
					}
					f, err := o.Read()
					if err != nil {
						t.Fatal(err)
					}
					gotKey := strings.Contains(string(f.Data), "PRIVATE KEY")
					if gotKey != startKey {
						t.Errorf("read the key %v, opened the key %v", gotKey, startKey)
					}
					if gotKey && o.Secret == "" {
						t.Fatalf("the key passed the checks as notes.txt")
					}
					if !gotKey && o.Secret != "" && !o.Unplaced {
						t.Errorf("the plain file was checked as %q", o.Secret)
					}
				})
			}
		}
	}
}

// Check on the key, then on the plain file, then on the key again: each
// says what the path names at that moment, and reads it.
func TestCheckSwappedBetweenAttaches(t *testing.T) {
	swap := swapProject(t)
	for _, toKey := range []bool{true, false, true} {
		swap(toKey)
		o, data := checkAndRead(t)
		if toKey != strings.Contains(data, "PRIVATE KEY") || toKey != strings.Contains(o.Secret, "~/.ssh") {
			t.Errorf("key %v: read %q, secret %q", toKey, data, o.Secret)
		}
	}
}

// A link to /proc/self/fd/N, a file muse holds open: the file it leads to
// is checked by its real path, so a key muse holds is one; a deleted file,
// which has no path to check, is Unplaced and secret, never plain (attack
// review: both lookups failed, and it was read as a plain file).
func TestCheckThroughProcFD(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("no /proc/self/fd under CI")
		}
		t.Skip("no /proc/self/fd")
	}
	swapProject(t)
	home, err := os.UserHomeDir()
	if err != nil {
		t.Fatal(err)
	}
	key, err := os.Open(filepath.Join(home, ".ssh", "id_ed25519"))
	if err != nil {
		t.Fatal(err)
	}
	defer key.Close()
	gone := filepath.Join(t.TempDir(), "gone.txt")
	if err := os.WriteFile(gone, []byte("held open, deleted\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	held, err := os.Open(gone)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Close()
	if err := os.Remove(gone); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		f                *os.File
		secret, unplaced bool
	}{{key, true, false}, {held, true, true}} {
		link := "fd.txt"
		_ = os.Remove(link)
		if err := os.Symlink("/proc/self/fd/"+strconv.FormatUint(uint64(c.f.Fd()), 10), link); err != nil {
			t.Fatal(err)
		}
		o, err := Check(link)
		if err != nil {
			t.Fatal(err)
		}
		if (o.Secret != "") != c.secret || o.Unplaced != c.unplaced {
			t.Errorf("%s: secret %q, unplaced %v", c.f.Name(), o.Secret, o.Unplaced)
		}
		if err := o.Close(); err != nil {
			t.Fatal(err)
		}
	}
}

// A file whose real path is its own, in the working folder, is plain:
// neither secret nor unplaced nor linked.
func TestCheckPlainFile(t *testing.T) {
	swapProject(t)
	o, data := checkAndRead(t)
	if o.Secret != "" || o.Unplaced || o.Link.Target != "" || data != "harmless notes\n" {
		t.Errorf("plain file: %+v, %q", o, data)
	}
	if _, err := Check("missing.txt"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}
