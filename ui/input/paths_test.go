package input

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"muse/ui/internal/streamtest"
	"muse/ui/notices"
)

func TestMentions(t *testing.T) {
	for _, tc := range []struct {
		prompt string
		paths  []string
		rest   string
	}{
		{"describe @shot.png please", []string{"shot.png"}, "describe please"},
		{"@a.png @b.png what differs?", []string{"a.png", "b.png"}, "what differs?"},
		{"compare @\"my file.png\" with @~/x.jpg.", []string{"my file.png", "~/x.jpg"}, "compare with."},
		{"write to a@b.com or @", nil, "write to a@b.com or @"},
		{"(see @notes.md), then @dir/", []string{"notes.md", "dir/"}, "(see), then"},
		{"an @\"unterminated quote", nil, "an @\"unterminated quote"},
		{"empty @\"\" quotes", nil, "empty @\"\" quotes"},
		{"code `@Override` and\n```\n@decorator\n```\nthen @real.txt", []string{"real.txt"},
			"code `@Override` and\n```\n@decorator\n```\nthen"},
		{"line one\n@first.md rest\n\t@second.md", []string{"first.md", "second.md"}, "line one\nrest"},
		{"unicode\u00a0@é.png", []string{"é.png"}, "unicode"},
	} {
		paths, rest := Mentions(tc.prompt)
		if !slices.Equal(paths, tc.paths) || rest != tc.rest {
			t.Errorf("Mentions(%q) = %q, %q; want %q, %q", tc.prompt, paths, rest, tc.paths, tc.rest)
		}
	}
}

// What completion writes is what Mentions reads back.
func TestMentionRoundTrip(t *testing.T) {
	for _, path := range []string{"plain.png", "with space.png", "ends with paren(1)", "dot.", "dir/"} {
		m := mention(path, false, true)
		paths, rest := Mentions("look at " + m + " please")
		if len(paths) != 1 || paths[0] != path || rest != "look at please" {
			t.Errorf("%q written %q, read back %q, %q", path, m, paths, rest)
		}
	}
}

// Mentions does work in proportion to the prompt: the bytes it allocates
// for a prompt of many mentions grow with it, not with its square.
func TestMentionsCostIsLinear(t *testing.T) {
	prompt := func(n int) string { return strings.Repeat("see @a/b.png and\n", n) }
	small, large := prompt(1000), prompt(8000)
	alloc := func(s string) uint64 { return streamtest.Allocated(func() { Mentions(s) }) }
	if a, b := alloc(small), alloc(large); b > a*8*2 {
		t.Errorf("%d bytes allocated for 1000 mentions, %d for 8000: more than linear", a, b)
	}
}

// files makes, in a new folder, the files and folders (ending in '/')
// named, and returns the folder.
func files(t *testing.T, names ...string) string {
	t.Helper()
	dir := t.TempDir()
	for _, n := range names {
		p := filepath.Join(dir, n)
		var err error
		if strings.HasSuffix(n, "/") {
			err = os.MkdirAll(p, 0o700)
		} else if err = os.MkdirAll(filepath.Dir(p), 0o700); err == nil {
			err = os.WriteFile(p, []byte("x"), 0o600)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// run runs cmd and the commands it batches, and returns their messages.
func run(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	msg := cmd()
	if b, ok := msg.(tea.BatchMsg); ok {
		var out []tea.Msg
		for _, c := range b {
			out = append(out, run(c)...)
		}
		return out
	}
	if msg == nil {
		return nil
	}
	return []tea.Msg{msg}
}

// tab presses Tab (shift+tab for dir -1) and applies what its command
// reports; it returns the notices reported and whether there was I/O to do.
func tab(t *testing.T, m Model, dir int) (Model, []string, bool) {
	t.Helper()
	k := tea.KeyMsg{Type: tea.KeyTab}
	if dir < 0 {
		k = tea.KeyMsg{Type: tea.KeyShiftTab}
	}
	m, cmd := m.Update(k)
	var said []string
	msgs := run(cmd)
	for len(msgs) > 0 {
		msg := msgs[0]
		msgs = msgs[1:]
		switch msg := msg.(type) {
		case pathsListedMsg, askedMsg:
			var next tea.Cmd
			m, next = m.Update(msg)
			msgs = append(msgs, run(next)...)
		case notices.Msg:
			said = append(said, msg.Text)
		default:
			t.Fatalf("tab reported %T", msg)
		}
	}
	return m, said, cmd != nil
}

// typed returns an input with text typed into it.
func typed(t *testing.T, text string) Model {
	return update(sized(t, 200, 30), tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(text)})
}

func TestTabCompletesAMention(t *testing.T) {
	dir := files(t, "notes.md", "alpha.png", "alps.txt", "beta dir/x y.png", ".hidden", "sub/")
	m, _, io := tab(t, typed(t, "read @"+dir+"/no"), 1)
	if want := "read @" + dir + "/notes.md "; m.Value() != want || !io {
		t.Errorf("unique file: %q, want %q", m.Value(), want)
	}
	m, _, _ = tab(t, typed(t, "in @"+dir+"/s"), 1)
	if want := "in @" + dir + "/sub/"; m.Value() != want {
		t.Errorf("folder: %q, want %q", m.Value(), want)
	}
	// A path with a space is quoted, and stays open in a folder.
	m, _, _ = tab(t, typed(t, "@"+dir+"/be"), 1)
	if want := "@\"" + dir + "/beta dir/"; m.Value() != want {
		t.Fatalf("folder with a space: %q, want %q", m.Value(), want)
	}
	m, _, _ = tab(t, m, 1)
	if want := "@\"" + dir + "/beta dir/x y.png\" "; m.Value() != want {
		t.Errorf("in the quoted folder: %q, want %q", m.Value(), want)
	}
	if paths, _ := Mentions(m.Value()); len(paths) != 1 || paths[0] != dir+"/beta dir/x y.png" {
		t.Errorf("the completed mention reads as %q", paths)
	}
}

// Several matches: the path grows to what they share, the hint lists them,
// and Tab after Tab (shift+tab back) puts each in, with no more I/O.
func TestTabCyclesSeveralPaths(t *testing.T) {
	dir := files(t, "alpha.png", "alps.txt", "other")
	m, _, _ := tab(t, typed(t, "@"+dir+"/a"), 1)
	if want := "@" + dir + "/alp"; m.Value() != want {
		t.Fatalf("common part: %q, want %q", m.Value(), want)
	}
	if h := strings.Join(m.Hint(), "\n"); !strings.Contains(h, "alpha.png  alps.txt") || !strings.Contains(h, "tab cycles") {
		t.Errorf("hint %q", h)
	}
	key := m.HintKey()
	for i, want := range []string{"alpha.png ", "alps.txt ", "alpha.png "} {
		var io bool
		m, _, io = tab(t, m, 1)
		if m.Value() != "@"+dir+"/"+want || io {
			t.Errorf("tab %d: %q (I/O %v), want %s", i+1, m.Value(), io, want)
		}
		if m.HintKey() == key {
			t.Errorf("tab %d: the hint key did not change", i+1)
		}
		key = m.HintKey()
	}
	if h := strings.Join(m.Hint(), "\n"); !strings.Contains(h, "[alpha.png]") {
		t.Errorf("hint %q, want alpha.png marked", h)
	}
	m, _, _ = tab(t, m, -1)
	if want := "@" + dir + "/alps.txt "; m.Value() != want {
		t.Errorf("shift+tab: %q, want %q", m.Value(), want)
	}
}

// /attach takes the rest of the input as a path: spaces are not quoted.
func TestTabCompletesAttach(t *testing.T) {
	dir := files(t, "beta dir/x y.png")
	m, _, _ := tab(t, typed(t, "/attach "+dir+"/b"), 1)
	m, _, _ = tab(t, m, 1)
	if want := "/attach " + dir + "/beta dir/x y.png"; m.Value() != want {
		t.Errorf("%q, want %q", m.Value(), want)
	}
}

// ~ is the home folder; hidden files show only for a name typed with its
// dot.
func TestTabHomeAndHiddenFiles(t *testing.T) {
	home := files(t, "notes.md", ".secret", ".config/")
	t.Setenv("HOME", home)
	for _, tc := range []struct{ typed, want string }{
		{"@~", "@~/notes.md "},
		{"@~/", "@~/notes.md "},
		{"@~/.s", "@~/.secret "},
		{"@~/.c", "@~/.config/"},
		{"/attach ~/n", "/attach ~/notes.md"},
	} {
		if m, _, _ := tab(t, typed(t, tc.typed), 1); m.Value() != tc.want {
			t.Errorf("%s: %q, want %q", tc.typed, m.Value(), tc.want)
		}
	}
	if got := ExpandHome("~/a/b"); got != filepath.Join(home, "a/b") {
		t.Errorf("ExpandHome = %q", got)
	}
}

// The cursor in the middle of a line: the mention before it is completed,
// the rest of the line kept, and the cursor put after the path.
func TestTabCompletesAtTheCursor(t *testing.T) {
	dir := files(t, "notes.md")
	m := typed(t, "first line\nsee @"+dir+"/no and more")
	m.ed.setCursor(pos{1, len("see @" + dir + "/no")})
	m, _, _ = tab(t, m, 1)
	if want := "first line\nsee @" + dir + "/notes.md and more"; m.Value() != want {
		t.Fatalf("%q, want %q", m.Value(), want)
	}
	if at := m.cursor(); at != (cursorAt{1, len([]rune("see @" + dir + "/notes.md"))}) {
		t.Errorf("cursor at %+v", at)
	}
}

// What is no path is not completed: an email address, a word.
func TestTabLeavesOtherWords(t *testing.T) {
	for _, text := range []string{"mail a@b", "hello", "@\"done\" x"} {
		if m, _, io := tab(t, typed(t, text), 1); io || m.Value() != text {
			t.Errorf("%q: %q, I/O %v", text, m.Value(), io)
		}
	}
}

// A listing that arrives after the input changed is dropped.
func TestStaleListingIsDropped(t *testing.T) {
	dir := files(t, "notes.md")
	m, cmd := typed(t, "@"+dir+"/n").Update(tea.KeyMsg{Type: tea.KeyTab})
	msgs := run(cmd)
	m = update(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("o")})
	for _, msg := range msgs {
		m = update(m, msg)
	}
	if want := "@" + dir + "/no"; m.Value() != want {
		t.Errorf("%q, want %q", m.Value(), want)
	}
	// So is the listing of an earlier Tab.
	m = typed(t, "@"+dir+"/n")
	m, first := m.Update(tea.KeyMsg{Type: tea.KeyTab})
	m, second := m.Update(tea.KeyMsg{Type: tea.KeyTab})
	m = update(m, run(first)[0])
	if m.Value() != "@"+dir+"/n" {
		t.Errorf("an earlier Tab's listing applied: %q", m.Value())
	}
	m = update(m, run(second)[0])
	if want := "@" + dir + "/notes.md "; m.Value() != want {
		t.Errorf("%q, want %q", m.Value(), want)
	}
}

// No match, no folder: a notice says so and the input stays.
func TestTabNothingToComplete(t *testing.T) {
	dir := files(t, "notes.md")
	for text, want := range map[string]string{
		"@" + dir + "/zz":        "starts with \"zz\"",
		"@" + dir + "/none/x":    "cannot complete the path",
		"@" + dir + "/notes.md/": "cannot complete the path",
	} {
		m, notices, _ := tab(t, typed(t, text), 1)
		if m.Value() != text || len(notices) != 1 || !strings.Contains(notices[0], want) {
			t.Errorf("%q: %q, notices %q; want one saying %q", text, m.Value(), notices, want)
		}
	}
}

// At most limit names are kept, and a folder is read no further than
// scan entries, whatever its size: a folder cut short says so.
func TestListPathsReadsAtMostTheLimit(t *testing.T) {
	dir := t.TempDir()
	for i := range 120 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%03d", i)), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	names, cut, err := listPaths(dir+"/", "f", 50, maxScanned)
	if err != nil || len(names) != 50 || cut {
		t.Errorf("listPaths = %d names, cut %v, %v; want 50, not cut", len(names), cut, err)
	}
	if !slices.IsSorted(names) {
		t.Errorf("not sorted: %q", names)
	}
	names, cut, err = listPaths(dir+"/", "nothing", 50, 30)
	if err != nil || len(names) != 0 || !cut {
		t.Errorf("listPaths past its scan = %q, cut %v, %v; want none, cut", names, cut, err)
	}
}

// A name is found wherever the folder lists it, not only among its first
// entries: the one file that matches, in a folder of 300 that do not,
// completes with a limit of one name (the limit once counted the entries
// read, and a name past them got "nothing in DIR starts with").
func TestListPathsFindsALateName(t *testing.T) {
	dir := t.TempDir()
	for i := range 300 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("f%04d", i)), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "target.txt"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	names, cut, err := listPaths(dir+"/", "targ", 1, maxScanned)
	if err != nil || cut || !slices.Equal(names, []string{"target.txt"}) {
		t.Errorf("listPaths = %q, cut %v, %v; want [target.txt]", names, cut, err)
	}
}

// Names a person cannot type (control characters) are not offered.
func TestListPathsSkipsUntypableNames(t *testing.T) {
	dir := files(t, "ok.txt", "bad\x1b[31m.txt", "tab\there.txt")
	names, _, err := listPaths(dir+"/", "", maxListed, maxScanned)
	if err != nil || !slices.Equal(names, []string{"ok.txt"}) {
		t.Errorf("listPaths = %q, %v", names, err)
	}
}

func TestPathsOfAPaste(t *testing.T) {
	for _, tc := range []struct {
		paste string
		want  []string
	}{
		{"/home/me/a.png", []string{"/home/me/a.png"}},
		{"/home/me/my\\ file.png ", []string{"/home/me/my file.png", "/home/me/my\\ file.png"}},
		{"'/home/me/my file.png' ", []string{"/home/me/my file.png"}},
		{"'/home/me/it'\\''s.png'", []string{"/home/me/it's.png"}},
		{`"/home/me/a \"b\".png"`, []string{`/home/me/a "b".png`}},
		{"file:///home/me/my%20file.png", []string{"/home/me/my file.png"}},
		{"file://localhost/tmp/x.png\n", []string{"/tmp/x.png"}},
		{"file://server/tmp/x.png", nil},
		{"~/x.png", []string{"~/x.png"}},
		{"/home/me/my file.png", []string{"/home/me/my file.png"}}, // pasted raw
		{"/a.png\n/b.png", nil},
		{"'/a.png' '/b.png'", nil},
		{"just some text", nil},
		{"relative/path.png", nil},
		{"", nil},
		{strings.Repeat("/x", 3000), nil},
	} {
		if got := pathsOf(tc.paste); !slices.Equal(got, tc.want) {
			t.Errorf("pathsOf(%q) = %q, want %q", tc.paste, got, tc.want)
		}
	}
}

// A paste of an existing file's path is kept as text and reported; a
// folder, a missing file and text are not.
func TestPastedPathIsReported(t *testing.T) {
	dir := files(t, "my file.png", "sub/")
	paste := func(text string) (Model, []tea.Msg) {
		m, cmd := sized(t, 200, 30).Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(text), Paste: true})
		var out []tea.Msg
		for _, msg := range run(cmd) {
			if _, ok := msg.(PathPastedMsg); ok {
				out = append(out, msg)
			}
		}
		return m, out
	}
	for _, text := range []string{
		strings.ReplaceAll(dir, " ", "\\ ") + "/my\\ file.png",
		"'" + dir + "/my file.png' ",
		"file://" + strings.ReplaceAll(dir, " ", "%20") + "/my%20file.png",
	} {
		m, msgs := paste(text)
		if m.Value() != text {
			t.Errorf("the input holds %q, want the paste %q", m.Value(), text)
		}
		want := PathPastedMsg{Text: text, Path: dir + "/my file.png"}
		if len(msgs) != 1 || msgs[0] != want {
			t.Errorf("paste %q reported %v, want %v", text, msgs, want)
		}
	}
	for _, text := range []string{dir + "/sub", dir + "/missing.png", "hello world"} {
		if _, msgs := paste(text); len(msgs) != 0 {
			t.Errorf("paste %q reported %v", text, msgs)
		}
	}
	// Typing is no paste.
	if _, cmd := sized(t, 200, 30).Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(dir + "/my file.png")}); len(run(cmd)) != 0 {
		t.Error("typed text was reported as a paste")
	}
}

// A pasted path becomes a mention in place, and says so; a secret file's
// path, one typed over, or a command's argument stays as it is.
func TestPathPasted(t *testing.T) {
	m := sized(t, 60, 20).SetValue("see /tmp/a b.txt now")
	got, notice := m.PathPasted(PathPastedMsg{Text: "/tmp/a b.txt", Path: "/tmp/a b.txt"})
	if want := "see " + Mention("/tmp/a b.txt") + " now"; got.Value() != want || !strings.HasPrefix(notice, "pasted a file: a b.txt") {
		t.Errorf("value %q (want %q), notice %q", got.Value(), want, notice)
	}
	if got, notice := m.PathPasted(PathPastedMsg{Text: "/tmp/a b.txt", Path: "/tmp/a b.txt", Secret: "a key"}); got.Value() != m.Value() || !strings.Contains(notice, "a key: it stays text") {
		t.Errorf("secret: value %q, notice %q", got.Value(), notice)
	}
	// At the end of the input (a drop, or a paste of the path alone), the
	// mention ends with a space and the cursor after it: what is typed next
	// is a word of its own, not glued to the file's name.
	for _, paste := range []string{"/tmp/notes.md", "/tmp/notes.md "} {
		end := sized(t, 60, 20).SetValue("see " + paste)
		got, _ := end.PathPasted(PathPastedMsg{Text: paste, Path: "/tmp/notes.md"})
		got, _ = got.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("x")})
		if want := "see @/tmp/notes.md x"; got.Value() != want {
			t.Errorf("paste %q, then x: value %q, want %q", paste, got.Value(), want)
		}
		if paths, rest := Mentions(got.Value()); !slices.Equal(paths, []string{"/tmp/notes.md"}) || rest != "see x" {
			t.Errorf("paste %q, then x: mentions %q, text %q", paste, paths, rest)
		}
	}
	// In the middle, the cursor stays after the mention.
	mid, _ := m.PathPasted(PathPastedMsg{Text: "/tmp/a b.txt", Path: "/tmp/a b.txt"})
	mid, _ = mid.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("y")})
	if want := "see " + Mention("/tmp/a b.txt") + "y now"; mid.Value() != want {
		t.Errorf("paste in the middle, then y: value %q, want %q", mid.Value(), want)
	}
	for _, v := range []string{"typed over", "/attach /tmp/a b.txt"} {
		if got, notice := m.SetValue(v).PathPasted(PathPastedMsg{Text: "/tmp/a b.txt", Path: "/tmp/a b.txt"}); got.Value() != v || notice != "" {
			t.Errorf("%q: value %q, notice %q", v, got.Value(), notice)
		}
	}
}
