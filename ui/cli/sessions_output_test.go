package cli

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"text/tabwriter"

	"muse/api"
	"muse/session"
)

// Hostile sequences stored in a session: the clipboard (OSC 52), the window
// title (OSC 0), clearing the screen (CSI 2J) and an 8-bit CSI.
const (
	osc52  = "\x1b]52;c;aGVsbG8=\x07"
	osc0   = "\x1b]0;pwned\x07"
	clear  = "\x1b[2J"
	c1CSI  = "\u009b2J"
	hostle = osc52 + osc0 + clear + c1CSI
)

// runSessions runs muse with standard output a terminal or not.
func runSessions(t *testing.T, env map[string]string, tty bool, stdin string, args ...string) run {
	t.Helper()
	var out, errb bytes.Buffer
	e := Env{
		Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb,
		Getenv: func(k string) string { return env[k] }, StdinPiped: stdin != "", StdoutTTY: tty,
	}
	if tty {
		e.Width = 80
	}
	code := Main(args, e)
	return run{code, out.String(), errb.String()}
}

// seedHostile saves a session whose title, prompt, reply, tool output and
// error hold hostile sequences, and returns the env and the session.
func seedHostile(t *testing.T) (map[string]string, *session.Store, *session.Session) {
	t.Helper()
	env := map[string]string{"XDG_DATA_HOME": t.TempDir()}
	store, err := session.Open(filepath.Join(env["XDG_DATA_HOME"], "muse", "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	entries := []session.Entry{
		{ID: "e1", Kind: session.KindUser, Text: "list the pineapple files" + hostle},
		{ID: "e2", Kind: session.KindAssistant, Message: &api.Message{Model: "demo-chat", Content: []api.ContentBlock{
			{Type: api.BlockText, Text: "pineapple reply" + osc52 + "\n\tindented" + clear + c1CSI + " end"},
			{Type: api.BlockToolUse, ID: "toolu_1", Name: "ls" + osc0, Input: json.RawMessage(`{"path":"/tmp"}`)},
		}}},
		{ID: "e3", Kind: session.KindTool, ToolResults: []session.ToolResult{
			{ToolUseID: "toolu_1", Name: "ls", Approval: "yes", Output: "pineapple.txt" + hostle + "\nsecond\tline"},
		}},
		{ID: "e4", Kind: session.KindError, Error: &session.ErrorInfo{Status: 500, Message: "boom pineapple" + hostle}},
	}
	id := seedSession(t, store, session.Params{Model: "demo-chat"}, "Fruit "+hostle+" title", entries...)
	sess, err := store.Load(id)
	if err != nil {
		t.Fatal(err)
	}
	return env, store, sess
}

// checkSafe fails when s holds anything that acts on a terminal.
func checkSafe(t *testing.T, what, s string) {
	t.Helper()
	for _, bad := range []string{"\x1b", "\x07", "\u009b", "\x9b"} {
		if strings.Contains(s, bad) {
			t.Errorf("%s holds %q:\n%q", what, bad, s)
		}
	}
}

// checkStripped fails when s, text for people, holds what is left of a
// hostile sequence whose introducer alone was removed. JSON keeps the
// sequences escaped, and error lines quoted, so they are not checked.
func checkStripped(t *testing.T, what, s string) {
	t.Helper()
	for _, bad := range []string{"pwned", "]52;", "[2J", "2J"} {
		if strings.Contains(s, bad) {
			t.Errorf("%s holds %q:\n%q", what, bad, s)
		}
	}
}

func TestSessionsOutputTerminalSafe(t *testing.T) {
	env, _, sess := seedHostile(t)
	for _, tty := range []bool{true, false} {
		name := map[bool]string{true: "terminal", false: "pipe"}[tty]
		for _, args := range [][]string{
			{"show", sess.ID},
			{"export", sess.ID},
			{"export", sess.ID, "--format", "json"},
			{"list"},
			{"list", "--json"},
			{"search", "pineapple"},
		} {
			r := runSessions(t, env, tty, "", append([]string{"sessions"}, args...)...)
			what := name + ": sessions " + strings.Join(args, " ")
			if r.code != 0 {
				t.Errorf("%s: %+v", what, r)
				continue
			}
			out := r.stdout
			if tty && args[0] == "search" {
				// The one sequence search writes: its matches, marked.
				if !strings.Contains(out, "\x1b[1;4mpineapple\x1b[22;24m") {
					t.Errorf("%s: the match is not marked:\n%q", what, out)
				}
				out = strings.NewReplacer("\x1b[1;4m", "", "\x1b[22;24m", "").Replace(out)
			}
			checkSafe(t, what, out)
			checkSafe(t, what+" (stderr)", r.stderr)
			if !strings.Contains(what, "json") {
				checkStripped(t, what, r.stdout)
			}
			if !strings.Contains(r.stdout, "Fruit") {
				t.Errorf("%s lost the title:\n%s", what, r.stdout)
			}
		}
		// An error line quoting stored or typed text.
		r := runSessions(t, env, tty, "", "sessions", "show", "no such"+hostle)
		if r.code != 1 || !strings.Contains(r.stderr, "no such") {
			t.Errorf("%s: unknown session: %+v", name, r)
		}
		checkSafe(t, name+": error line", r.stderr)
	}
}

// TestSessionsExportKeepsText checks that the Markdown export, piped or to
// a file, keeps the text with only the escape sequences removed.
func TestSessionsExportKeepsText(t *testing.T) {
	env, _, sess := seedHostile(t)
	out := filepath.Join(t.TempDir(), "x.md")
	if r := runSessions(t, env, true, "", "sessions", "export", sess.ID, "-o", out); r.code != 0 {
		t.Fatalf("export -o: %+v", r)
	}
	file, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	piped := runSessions(t, env, false, "", "sessions", "export", sess.ID)
	for what, md := range map[string]string{"file": string(file), "pipe": piped.stdout} {
		checkSafe(t, what, md)
		checkStripped(t, what, md)
		for _, want := range []string{
			"# Fruit  title\n", // the escapes go; the spaces around them stay
			"pineapple reply\n\tindented end",
			"**Tool call** `ls`:",
			"pineapple.txt\nsecond\tline",
			"boom pineapple\n",
		} {
			if !strings.Contains(md, want) {
				t.Errorf("%s export lacks %q:\n%s", what, want, md)
			}
		}
	}
}

func TestSessionsJSONEscapesC1(t *testing.T) {
	env, _, sess := seedHostile(t)
	for _, args := range [][]string{{"export", sess.ID, "--format", "json"}, {"list", "--json"}} {
		r := runSessions(t, env, false, "", append([]string{"sessions"}, args...)...)
		if r.code != 0 {
			t.Fatalf("%v: %+v", args, r)
		}
		if !strings.Contains(r.stdout, `\u009b`) || strings.Contains(r.stdout, "\u009b") {
			t.Errorf("%v: U+009B not escaped:\n%s", args, r.stdout)
		}
		var title string
		if args[0] == "export" {
			var back session.Session
			if err := json.Unmarshal([]byte(r.stdout), &back); err != nil {
				t.Fatal(err)
			}
			title = back.Title
			if got := back.Entries[2].ToolResults[0].Output; got != sess.Entries[2].ToolResults[0].Output {
				t.Errorf("tool output changed: %q", got)
			}
		} else {
			var list []session.Info
			if err := json.Unmarshal([]byte(r.stdout), &list); err != nil || len(list) != 1 {
				t.Fatalf("list --json: %v %s", err, r.stdout)
			}
			title = list[0].Title
		}
		if title != sess.Title {
			t.Errorf("%v: title %q, want %q", args, title, sess.Title)
		}
	}
}

func TestSessionsExportFileRefusesToReplace(t *testing.T) {
	env, _, sess := seedHostile(t)
	dir := t.TempDir()
	existing := filepath.Join(dir, "notes.md")
	if err := os.WriteFile(existing, []byte("keep me"), 0o644); err != nil {
		t.Fatal(err)
	}
	r := runSessions(t, env, false, "", "sessions", "export", sess.ID, "-o", existing)
	if r.code == 0 || !strings.Contains(r.stderr, "exists: use --force to replace it") {
		t.Errorf("export over an existing file: %+v", r)
	}
	if b, _ := os.ReadFile(existing); string(b) != "keep me" {
		t.Errorf("the existing file was changed: %q", b)
	}
	if r := runSessions(t, env, false, "", "sessions", "export", sess.ID, "-o", existing, "--force"); r.code != 0 {
		t.Fatalf("export --force: %+v", r)
	}
	if b, _ := os.ReadFile(existing); !strings.HasPrefix(string(b), "# Fruit") {
		t.Errorf("--force did not replace the file: %q", b)
	}
	if st, _ := os.Stat(existing); st.Mode().Perm() != 0o600 {
		t.Errorf("replaced file mode %v, want 0600", st.Mode().Perm())
	}

	// A symbolic link is refused, --force or not, dangling or not.
	target := filepath.Join(dir, "target")
	if err := os.WriteFile(target, []byte("target"), 0o600); err != nil {
		t.Fatal(err)
	}
	link := filepath.Join(dir, "link.md")
	dangling := filepath.Join(dir, "dangling.md")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(dir, "nowhere"), dangling); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{link, dangling} {
		for _, force := range [][]string{nil, {"--force"}} {
			args := append([]string{"sessions", "export", sess.ID, "-o", path}, force...)
			r := runSessions(t, env, false, "", args...)
			if r.code == 0 || !strings.Contains(r.stderr, "symbolic link") {
				t.Errorf("%v: %+v", args, r)
			}
		}
	}
	if b, _ := os.ReadFile(target); string(b) != "target" {
		t.Errorf("written through the link: %q", b)
	}
	if _, err := os.Lstat(filepath.Join(dir, "nowhere")); err == nil {
		t.Error("created the target of a dangling link")
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced: %v", err)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 4 {
		t.Errorf("stray files left in %s: %v", dir, entries)
	}
}

func TestSessionsImport(t *testing.T) {
	env, store, sess := seedHostile(t)
	exported := filepath.Join(t.TempDir(), "s.json")
	if r := runSessions(t, env, false, "", "sessions", "export", sess.ID, "--format", "json", "-o", exported); r.code != 0 {
		t.Fatalf("export: %+v", r)
	}
	data, err := os.ReadFile(exported)
	if err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{exported}, {"-"}} {
		stdin := ""
		if args[0] == "-" {
			stdin = string(data)
		}
		r := runSessions(t, env, false, stdin, append([]string{"sessions", "import", "--copy"}, args...)...)
		if r.code != 0 {
			t.Fatalf("import %v: %+v", args, r)
		}
		id := strings.TrimSpace(r.stdout)
		got, err := store.Load(id)
		if err != nil {
			t.Fatalf("import %v printed %q: %v", args, r.stdout, err)
		}
		if id == sess.ID || got.Title != sess.Title+session.ImportedSuffix || len(got.Entries) != 4 {
			t.Errorf("import %v: %s %q with %d entries", args, id, got.Title, len(got.Entries))
		}
	}
	bad := strings.Replace(string(data), `"kind": "tool"`, `"kind": "toolbox"`, 1)
	r := runSessions(t, env, false, bad, "sessions", "import", "-")
	if r.code != 1 || !strings.Contains(r.stderr, "standard input: import session: line ") || !strings.Contains(r.stderr, `"toolbox"`) {
		t.Errorf("import of an unknown kind: %+v", r)
	}
	if r := runSessions(t, env, false, "", "sessions", "import"); r.code != 2 {
		t.Errorf("import without a file: %+v", r)
	}
	if infos, _ := store.List(); len(infos) != 3 {
		t.Errorf("%d sessions, want the original and 2 imports", len(infos))
	}
	// Without --copy, the export of a session this muse holds merges into
	// it: nothing new, nothing changed, no new session.
	before, _ := store.Load(sess.ID)
	r = runSessions(t, env, false, "", "sessions", "import", exported)
	if r.code != 0 || strings.TrimSpace(r.stdout) != sess.ID || !strings.Contains(r.stderr, "0 new entries") {
		t.Errorf("import into its own session: %+v", r)
	}
	if after, _ := store.Load(sess.ID); len(after.All) != len(before.All) || after.Title != before.Title {
		t.Errorf("merging its own export changed the session: %d entries, %q", len(after.All), after.Title)
	}
	if infos, _ := store.List(); len(infos) != 3 {
		t.Errorf("%d sessions after a merge, want 3", len(infos))
	}
}

// writeTable writes what text/tabwriter writes, with a padding of two,
// without blanks at the ends of lines, and measures a cell in the columns
// the terminal draws, where tabwriter counts runes: 東京 pads as xxxx.
func TestWriteTableAsTabwriter(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	words := []string{"", "a", "zebra", "東京", "naïve café", "20250101-000000-abcdef", "12"}
	wide := strings.NewReplacer("東京", "xxxx")
	for range 50 {
		var rows, narrow [][]string
		for range 1 + r.IntN(6) {
			row := make([]string, 5)
			for i := range row {
				row[i] = words[r.IntN(len(words))]
			}
			rows = append(rows, row)
			narrow = append(narrow, strings.Split(wide.Replace(strings.Join(row, "\t")), "\t"))
		}
		var tabbed, want, got bytes.Buffer
		tw := tabwriter.NewWriter(&tabbed, 0, 0, 2, ' ', 0)
		for _, row := range narrow {
			fmt.Fprintln(tw, strings.Join(row, "\t"))
		}
		tw.Flush()
		for _, l := range strings.SplitAfter(tabbed.String(), "\n") {
			if l != "" {
				want.WriteString(strings.TrimRight(l, " \n") + "\n")
			}
		}
		if err := writeTable(&got, rows, 0); err != nil {
			t.Fatal(err)
		}
		if wide.Replace(got.String()) != want.String() {
			t.Fatalf("rows %q:\ngot\n%s\nwant\n%s", rows, got.String(), want.String())
		}
	}
}
