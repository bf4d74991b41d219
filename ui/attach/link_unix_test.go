//go:build unix

package attach

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"muse/session"
)

// linkWorld is a home with ~/.config/gh/hosts.yml and ~/notes/private.txt,
// and a project folder beside it, the working folder, whose README.md
// leads to the token file and docs/ to ~/notes (attack review: a cloned
// project's links). It returns the home and the project.
func linkWorld(t *testing.T) (home, proj string) {
	t.Helper()
	root := t.TempDir()
	home = filepath.Join(root, "home")
	proj = filepath.Join(root, "proj")
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("XDG_DATA_HOME", "")
	t.Setenv("XDG_STATE_HOME", "")
	for p, text := range map[string]string{
		filepath.Join(home, ".config", "gh", "hosts.yml"): "oauth_token: gho_SECRET\n",
		filepath.Join(home, "notes", "private.txt"):       "private\n",
		filepath.Join(home, "notes", "x"):                 "x\n",
		filepath.Join(proj, "plain.md"):                   "plain\n",
		filepath.Join(proj, "sub", "inner.md"):            "inner\n",
	} {
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for link, to := range map[string]string{
		filepath.Join(proj, "README.md"):     filepath.Join(home, ".config", "gh", "hosts.yml"),
		filepath.Join(proj, "docs"):          filepath.Join(home, "notes"),
		filepath.Join(proj, "ok.md"):         "sub/inner.md", // stays in the folder
		filepath.Join(home, "notes", "back"): filepath.Join(home, "notes", "private.txt"),
	} {
		if err := os.Symlink(to, link); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(proj)
	return home, proj
}

// A path in the working folder that a link, the file or a folder on the
// way, leads out of it names its real target; one that stays in, or names
// nothing, does not. An absolute path outside the folder is the user's
// own naming of that place (Named): only a file that is itself a link
// shows a target.
func TestFollow(t *testing.T) {
	home, proj := linkWorld(t)
	hosts := filepath.Join(home, ".config", "gh", "hosts.yml")
	private := filepath.Join(home, "notes", "private.txt")
	for _, c := range []struct {
		path   string
		target string
		named  bool
	}{
		{"README.md", hosts, false},
		{"./README.md", hosts, false},
		{filepath.Join(proj, "README.md"), hosts, false}, // absolute, but in the folder
		{"docs/private.txt", private, false},             // a folder on the way
		{"docs/back", private, false},
		{"docs/../.config/gh/hosts.yml", hosts, false}, // ".." after a link, as the system takes it
		{"plain.md", "", false},
		{"ok.md", "", false},
		{"sub/../plain.md", "", false},
		{"missing.md", "", false},
		{private, "", true},
		{filepath.Join(home, "notes", "back"), private, true},
		{"../home/notes/x", "", false}, // out of the folder, but through no link
	} {
		got := Follow(c.path)
		if got.Target != c.target || got.Named != c.named {
			t.Errorf("Follow(%q) = %+v, want target %q, named %v", c.path, got, c.target, c.named)
		}
	}
}

// A working folder reached through a link (cd into a linked path) is
// still the working folder: its files lead nowhere else.
func TestFollowLinkedWorkingFolder(t *testing.T) {
	_, proj := linkWorld(t)
	alias := filepath.Join(t.TempDir(), "alias")
	if err := os.Symlink(proj, alias); err != nil {
		t.Fatal(err)
	}
	t.Chdir(alias)
	for _, p := range []string{"plain.md", "ok.md", filepath.Join(alias, "plain.md"), filepath.Join(proj, "plain.md")} {
		if got := Follow(p); got.Target != "" {
			t.Errorf("Follow(%q) = %+v, want no target", p, got)
		}
	}
	if got := Follow("README.md"); got.Target == "" {
		t.Errorf("README.md through the linked folder: %+v", got)
	}
}

// The chip of a file a link led to names the target after the file's
// name, from ~ (ShortTarget, in the command that found it), sanitized.
func TestLabelTo(t *testing.T) {
	home, _ := linkWorld(t)
	f := session.File{Attachment: session.Attachment{Name: "README.md", Kind: session.AttachText, Bytes: 24}, Data: []byte("oauth_token: gho_SECRET\n")}
	if got, want := LabelTo(f, ShortTarget(filepath.Join(home, ".config", "gh", "hosts.yml"))), "README.md → ~/.config/gh/hosts.yml · 24 B · 1 line"; got != want {
		t.Errorf("LabelTo = %q, want %q", got, want)
	}
	if got := LabelTo(f, ""); got != Label(f) || strings.Contains(got, "→") {
		t.Errorf("no target: %q", got)
	}
	if got := LabelTo(f, "/tmp/evil\x1b]0;x\x07.txt"); strings.ContainsAny(got, "\x1b\x07") {
		t.Errorf("the target is not sanitized: %q", got)
	}
}

// The repro of the attack review: README.md in the working folder, a link
// to ~/.config/gh/hosts.yml, is a secret through its link, and so is the
// same file reached with ".." after a linked folder, which a clean path
// would have missed.
func TestSecretThroughProjectLink(t *testing.T) {
	linkWorld(t)
	for _, p := range []string{"README.md", "docs/../.config/gh/hosts.yml"} {
		if why := Secret(p); !strings.Contains(why, "~/.config/gh") {
			t.Errorf("Secret(%q) = %q, want ~/.config/gh", p, why)
		}
	}
	if why := Secret("docs/private.txt"); why != "" {
		t.Errorf("a note is taken for a secret: %q", why)
	}
}
