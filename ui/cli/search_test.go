package cli

import (
	"bytes"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	_ "modernc.org/sqlite"

	"muse/session/dirs"
	"muse/session/index"
)

func TestSearchCommand(t *testing.T) {
	env, _, sess := seedHostile(t)
	for _, c := range []struct {
		args []string
		code int
		want string // in stdout, or stderr for a failure
	}{
		{[]string{"pineapple", "--role", "user"}, ExitOK, "list the pineapple files"},
		{[]string{"pine*", "NOT", "boom", "--sort", "time"}, ExitOK, "pineapple reply"},
		{[]string{"PINEAP", "--role", "user"}, ExitOK, "list the pineapple files"},     // the last word by its start, as in the picker
		{[]string{"pineap", "nothinghere"}, ExitFailed, "no matches"},                  // only the last
		{[]string{"pineapples", "--role", "user"}, ExitOK, "list the pineapple files"}, // another form of the word
		{[]string{"pineapples", "--stem=false"}, ExitFailed, "no matches"},
		{[]string{`"pineapples"`}, ExitFailed, "no matches"}, // a phrase is as typed
		{[]string{"listing", "pineapples", "--role", "user"}, ExitOK, "list the pineapple files"},
		{[]string{`"pineapple reply"`, "--session", sess.ID[:10]}, ExitOK, "pineapple reply"},
		{[]string{"pineapple", "--model", "nothing-like-it"}, ExitFailed, "no matches"},
		{[]string{"pineapple", "--since", "2000-01-01", "--until", "1d"}, ExitFailed, "no matches"},
		{[]string{`"pineapple`}, ExitUsage, "a quote is not closed"},
		{[]string{"pineapple", "OR"}, ExitUsage, "OR at the end needs a word after it"},
		{[]string{"NOT", "pineapple"}, ExitUsage, "NOT needs a word before it"},
		{[]string{"pineapple", "--role", "robot"}, ExitUsage, "--role must be user or assistant"},
		{[]string{"pineapple", "--since", "yesterday"}, ExitUsage, "is not a date"},
		{[]string{"pineapple", "--sort", "size"}, ExitUsage, "--sort must be rank or time"},
		{[]string{"pineapple", "--since", "2026-11-26", "--until", "2026-11-24"}, ExitUsage, "is not before --until"},
		{[]string{"pineapple", "--limit", "abc"}, ExitUsage, `--limit takes a whole number, not "abc"`},
	} {
		r := runSessions(t, env, false, "", append([]string{"sessions", "search"}, c.args...)...)
		out := r.stdout
		if c.code != ExitOK {
			out = r.stderr
		}
		if r.code != c.code || !strings.Contains(out, c.want) {
			t.Errorf("search %q: %+v, want code %d and %q", c.args, r, c.code, c.want)
		}
		if strings.Contains(r.stderr, "SQL") || strings.Contains(r.stderr, "fts5") {
			t.Errorf("search %q: SQLite's words reached the user: %s", c.args, r.stderr)
		}
	}
	// A header names the columns; a full page says how to see more.
	r := runSessions(t, env, false, "", "sessions", "search", "pineapple", "--limit", "1")
	if lines := strings.Split(r.stdout, "\n"); r.code != ExitOK || len(lines) != 3 || !strings.HasPrefix(lines[0], "SESSION") ||
		!strings.Contains(lines[0], "MATCH") || !strings.Contains(r.stderr, "showing the first 1; --limit shows more") {
		t.Errorf("--limit 1: %+v", r)
	}
	// --limit of exactly the hits there are says nothing of more.
	var all []hitJSON
	json.Unmarshal([]byte(runSessions(t, env, false, "", "sessions", "search", "pineapple", "--json").stdout), &all)
	if r := runSessions(t, env, false, "", "sessions", "search", "pineapple", "--limit", strconv.Itoa(len(all))); len(all) < 2 || strings.Contains(r.stderr, "showing the first") {
		t.Errorf("--limit %d of %d hits: %+v", len(all), len(all), r)
	}
	// No match is exit 1 with --json too, and an empty array.
	if r := runSessions(t, env, false, "", "sessions", "search", "nothinghere", "--json"); r.code != ExitFailed || strings.TrimSpace(r.stdout) != "[]" {
		t.Errorf("--json with no match: %+v", r)
	}
	r = runSessions(t, env, false, "", "sessions", "search", "pineapple", "--json", "--role", "assistant")
	var hits []hitJSON
	if err := json.Unmarshal([]byte(r.stdout), &hits); err != nil || len(hits) != 2 {
		t.Fatalf("--json: %v %+v", err, r)
	}
	for _, h := range hits {
		if h.Session != sess.ID || h.Role != "assistant" || h.Entry == "" || !strings.Contains(h.Snippet, "pineapple") {
			t.Errorf("--json hit: %+v", h)
		}
	}
}

func TestParseWhen(t *testing.T) {
	now := time.Date(2025, 6, 10, 12, 0, 0, 0, time.UTC)
	for in, want := range map[string]time.Time{
		"7d":                   now.AddDate(0, 0, -7),
		"2w":                   now.AddDate(0, 0, -14),
		"12h":                  now.Add(-12 * time.Hour),
		"30m":                  now.Add(-30 * time.Minute),
		"45s":                  now.Add(-45 * time.Second),
		"1y":                   now.Add(-365 * 24 * time.Hour),
		"2025-06-01T10:30:00Z": time.Date(2025, 6, 1, 10, 30, 0, 0, time.UTC),
		"2025-06-01":           time.Date(2025, 6, 1, 0, 0, 0, 0, time.Local),
	} {
		got, err := parseWhen(in, now)
		if err != nil || !got.Equal(want) {
			t.Errorf("%q: %v %v, want %v", in, got, err, want)
		}
	}
	for _, bad := range []string{"yesterday", "7", "d", "-3d", "2025-13-01"} {
		if _, err := parseWhen(bad, now); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}

// An index whose full-text pages are damaged, which only a search reads,
// is built again from the journals by the search that finds it so.
func TestSearchRebuildsADamagedIndex(t *testing.T) {
	env, store, _ := seedHostile(t)
	if r := runSessions(t, env, false, "", "sessions", "search", "pineapple"); r.code != ExitOK {
		t.Fatalf("first search: %+v", r)
	}
	path := indexPath(t, env)
	if _, err := os.Stat(filepath.Join(store.Dir(), index.FileName)); err == nil {
		t.Fatal("the index is beside the journals")
	}
	db, err := sql.Open("sqlite", path)
	if err != nil {
		t.Fatal(err)
	}
	var pageSize int64
	var pages []int64
	err = db.QueryRow("PRAGMA page_size").Scan(&pageSize)
	if err == nil {
		_, err = db.Exec("PRAGMA wal_checkpoint(TRUNCATE)")
	}
	if err == nil {
		var rows *sql.Rows
		if rows, err = db.Query("SELECT pageno FROM dbstat WHERE name = 'texts_data'"); err == nil {
			for rows.Next() {
				var p int64
				rows.Scan(&p)
				pages = append(pages, p)
			}
			rows.Close()
		}
	}
	db.Close()
	if err != nil || len(pages) == 0 {
		t.Fatalf("the full-text pages: %v, %v", pages, err)
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pages {
		f.WriteAt(bytes.Repeat([]byte{0xA5}, int(pageSize)), (p-1)*pageSize)
	}
	f.Close()
	r := runSessions(t, env, false, "", "sessions", "search", "pineapple")
	if r.code != ExitOK || !strings.Contains(r.stdout, "pineapple") {
		t.Fatalf("the search on a damaged index: %+v", r)
	}
}

// On a terminal, the hits and the list are cut to its width (80 columns
// here), never wrapped, with the match kept in view and marked; in a pipe
// the lines are whole.
func TestTablesFitTheTerminal(t *testing.T) {
	env, _, _ := seedHostile(t)
	for _, args := range [][]string{{"sessions", "search", "pineapple"}, {"sessions", "list"}} {
		r := runSessions(t, env, true, "", args...)
		if r.code != ExitOK {
			t.Fatalf("%q: %+v", args, r)
		}
		for _, line := range strings.Split(strings.TrimSuffix(r.stdout, "\n"), "\n") {
			if w := ansi.StringWidth(line); w > 80 {
				t.Errorf("%q: a line of %d columns: %q", args, w, line)
			}
		}
		if args[1] == "search" && !strings.Contains(r.stdout, "\x1b[1;4mpineapple\x1b[22;24m") {
			t.Errorf("the match is not in view, marked:\n%s", r.stdout)
		}
	}
	r := runSessions(t, env, false, "", "sessions", "search", "pineapple")
	if !strings.Contains(r.stdout, "pineapple files") {
		t.Errorf("piped lines are cut:\n%s", r.stdout)
	}
}

// indexPath is the index file of muse run with env.
func indexPath(t *testing.T, env map[string]string) string {
	t.Helper()
	dir, err := dirs.CacheDir(func(k string) string { return env[k] }, "")
	if err != nil {
		t.Fatal(err)
	}
	return filepath.Join(dir, index.FileName)
}
