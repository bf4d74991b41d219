package attach

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSecret names the files a mention never attaches: under the folders
// of keys and credentials, .env files, muse's own folders, and a link to
// any of them; and not the files beside them.
func TestSecret(t *testing.T) {
	root := t.TempDir()
	home := filepath.Join(root, "home")
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(root, "config"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(root, "data"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(root, "state"))
	write := func(p string) string {
		t.Helper()
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("secret"), 0o600); err != nil {
			t.Fatal(err)
		}
		return p
	}
	key := write(filepath.Join(home, ".ssh", "id_rsa"))
	link := filepath.Join(root, "work", "notes.md")
	os.MkdirAll(filepath.Dir(link), 0o700)
	if err := os.Symlink(key, link); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{
		key,
		filepath.Join(home, ".ssh", "..", ".ssh", "config"),
		write(filepath.Join(home, ".gnupg", "private-keys-v1.d", "a.key")),
		filepath.Join(home, ".aws", "credentials"),
		filepath.Join(home, ".config", "gcloud", "application_default_credentials.json"),
		filepath.Join(root, "config", "gcloud", "credentials.db"),
		filepath.Join(home, ".kube", "config"),
		filepath.Join(home, ".config", "gh", "hosts.yml"),
		filepath.Join(home, ".config", "git", "credentials"),
		filepath.Join(root, "config", "gh", "hosts.yml"),
		filepath.Join(root, "config", "git", "credentials"),
		filepath.Join(home, ".netrc"),
		filepath.Join(home, ".git-credentials"),
		filepath.Join(home, ".docker", "config.json"),
		filepath.Join(home, ".npmrc"),
		filepath.Join(home, ".pypirc"),
		filepath.Join(home, ".claude", ".credentials.json"),
		filepath.Join(home, ".claude.json"),
		filepath.Join(home, ".codex", "auth.json"),
		filepath.Join(home, ".password-store", "bank.gpg"),
		filepath.Join(home, ".local", "share", "keyrings", "login.keyring"),
		filepath.Join(root, "data", "keyrings", "login.keyring"),
		// In any case, on every system: a home on a file system that
		// ignores case.
		filepath.Join(home, ".Config", "GH", "hosts.yml"),
		filepath.Join(home, ".NETRC"),
		filepath.Join(home, ".SSH", "id_rsa"),
		filepath.Join(root, "work", ".env"),
		filepath.Join(root, "work", ".env.production"),
		filepath.Join(root, "config", "muse", "config.toml"),
		filepath.Join(root, "data", "muse", "sessions", "x.jsonl"),
		filepath.Join(root, "state", "muse", "muse.log"),
		filepath.Join(root, "data", "muse", "images", "s1", "notes.txt"),
		filepath.Join(root, "data", "muse", "images", "s1", "deep", "turn-1-image-0-ab.png"),
		filepath.Join(root, "data", "muse", "attachments", "s1", "turn-1-image-0-ab.png"),
		link,
	} {
		if Secret(p) == "" {
			t.Errorf("%s is not taken for a secret", p)
		}
	}
	if why := Secret(key); !strings.Contains(why, "~/.ssh") {
		t.Errorf("why %q should name ~/.ssh", why)
	}
	for _, p := range []string{
		write(filepath.Join(home, "notes.md")),
		filepath.Join(home, ".sshd", "x"),
		filepath.Join(root, "work", ".envrc.md"),
		filepath.Join(root, "work", "env"),
		filepath.Join(root, "config", "muse-other", "x"),
		filepath.Join(home, ".config", "other", "x"),
		filepath.Join(home, ".config", "ghost", "x"),
		filepath.Join(home, ".netrc.md"),
		filepath.Join(home, ".dockerignore"),
		filepath.Join(home, ".local", "share", "other", "x"),
		filepath.Join(root, "config", "git", "config"),
		// A generated image, which the @ menu offers.
		write(filepath.Join(root, "data", "muse", "images", "20261101-1000-a", "turn-2-image-0-bb12.png")),
	} {
		if why := Secret(p); why != "" {
			t.Errorf("%s is taken for a secret: %s", p, why)
		}
	}
}

// A .env file is one in any case: .ENV and .Env.Local name the same file
// as .env and .env.local where the file system ignores case (macOS,
// Windows).
func TestSecretEnvAnyCase(t *testing.T) {
	dir := t.TempDir()
	for _, name := range []string{".ENV", ".Env", ".ENV.production", ".Env.Local"} {
		if why := Secret(filepath.Join(dir, name)); !strings.Contains(why, ".env") {
			t.Errorf("%s is not taken for a .env file: %q", name, why)
		}
	}
	if why := Secret(filepath.Join(dir, ".ENVRC")); why != "" {
		t.Errorf(".ENVRC is taken for a secret: %s", why)
	}
}
