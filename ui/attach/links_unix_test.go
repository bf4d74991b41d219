//go:build unix

package attach

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A hard link to a key under an innocent name is no path Secret can read,
// so a file with other names is not taken from a mention (attack review);
// a file of one name is.
func TestSecretHardLink(t *testing.T) {
	dir := t.TempDir()
	key := filepath.Join(dir, "id_rsa")
	if err := os.WriteFile(key, []byte("KEY"), 0o600); err != nil {
		t.Fatal(err)
	}
	notes := filepath.Join(dir, "notes.txt")
	if err := os.Link(key, notes); err != nil {
		t.Fatal(err)
	}
	if why := Secret(notes); !strings.Contains(why, "hard links") {
		t.Errorf("Secret(hard link) = %q", why)
	}
	plain := filepath.Join(dir, "plain.txt")
	if err := os.WriteFile(plain, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	if why := Secret(plain); why != "" {
		t.Errorf("Secret(plain file) = %q", why)
	}
}
