//go:build unix

package composer

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
)

// linkedProject is a working folder whose README.md is a link to
// ~/notes/private.txt and whose plain.md is a file, with a token under
// ~/.config/gh that docs/gh.yml links to (attack review).
func linkedProject(t *testing.T) {
	t.Helper()
	root := t.TempDir()
	home, proj := filepath.Join(root, "home"), filepath.Join(root, "proj")
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", filepath.Join(root, "config"))
	t.Setenv("XDG_DATA_HOME", filepath.Join(root, "data"))
	t.Setenv("XDG_STATE_HOME", filepath.Join(root, "state"))
	for p, text := range map[string]string{
		filepath.Join(home, "notes", "private.txt"):       "PRIVATE\n",
		filepath.Join(home, ".config", "gh", "hosts.yml"): "oauth_token: gho_SECRET\n",
		filepath.Join(proj, "plain.md"):                   "PLAIN\n",
	} {
		if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(filepath.Join(home, "notes", "private.txt"), filepath.Join(proj, "README.md")); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(proj, "docs"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(home, ".config", "gh", "hosts.yml"), filepath.Join(proj, "docs", "gh.yml")); err != nil {
		t.Fatal(err)
	}
	t.Chdir(proj)
}

// typed is a composer whose input holds text typed key by key.
func typed(t *testing.T, text string) Model {
	t.Helper()
	m := newComposer(t)
	for _, r := range text {
		m, _ = m.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
	}
	if m.Input().Value() != text || !m.Input().Typed() {
		t.Fatalf("typed %q: input %q, typed %v", text, m.Input().Value(), m.Input().Typed())
	}
	return m
}

// enter sends what the input holds, attaching its mentions as the root
// would: Send, then its command's AttachedMsg back to Attached.
func enter(t *testing.T, m Model) (Model, Out) {
	t.Helper()
	m, out := m.Send(m.Input().Value(), nil)
	if out.Cmd == nil {
		return m, out
	}
	msg, ok := out.Cmd().(AttachedMsg)
	if !ok {
		t.Fatalf("the command gave %T", msg)
	}
	return m.Attached(msg)
}

// A typed mention that a link leads out of the working folder is
// attached, its chip and the status line naming the target, and not sent
// at that enter: the next sends it. A typed mention of a file in the
// folder is sent at once, as before.
func TestTypedMentionThroughLinkWaits(t *testing.T) {
	linkedProject(t)
	m, out := enter(t, typed(t, "explain @README.md"))
	if out.Send != nil {
		t.Fatalf("sent at the first enter: %+v", out.Send)
	}
	if !strings.Contains(out.Notice, "README.md → ~/notes/private.txt") || !strings.Contains(out.Notice, "enter sends it") {
		t.Errorf("notice %q", out.Notice)
	}
	if m.Pending().Len() != 1 || !strings.Contains(m.Pending().View(), "[1] README.md → ~/notes/private.txt · 8 B") {
		t.Errorf("chips %q", m.Pending().View())
	}
	_, out = enter(t, m)
	if out.Send == nil || len(out.Send.Files) != 1 || string(out.Send.Files[0].Data) != "PRIVATE\n" {
		t.Fatalf("the second enter did not send the file: %+v", out)
	}

	_, out = enter(t, typed(t, "explain @plain.md"))
	if out.Send == nil || len(out.Send.Files) != 1 {
		t.Errorf("a plain file was not sent at once: %+v", out)
	}
}

// A typed absolute path outside the working folder names the place
// itself: sent at once. A link to a token file, through any name, is never
// attached from a mention, and the status line names where it leads.
func TestTypedMentionNamedOrSecret(t *testing.T) {
	linkedProject(t)
	home, err := os.UserHomeDir()
	if err != nil {
		t.Fatal(err)
	}
	_, out := enter(t, typed(t, "explain @"+filepath.Join(home, "notes", "private.txt")))
	if out.Send == nil || len(out.Send.Files) != 1 {
		t.Errorf("an absolute path the user typed was not sent at once: %+v", out)
	}
	m, out := enter(t, typed(t, "explain @docs/gh.yml"))
	if out.Send != nil || m.Pending().Len() != 0 ||
		!strings.Contains(out.Notice, "not attached: docs/gh.yml → ~/.config/gh/hosts.yml is in ~/.config/gh") {
		t.Errorf("the token: sent %v, %d files, notice %q", out.Send != nil, m.Pending().Len(), out.Notice)
	}
}
