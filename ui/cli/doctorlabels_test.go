package cli

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"muse/api/standin"
)

// Every line of muse doctor has its text in one column, after a label of
// its own: a label wider than the column (an MCP server's name) has its
// text on the next line, in that column. Each ✗ line says what to do,
// a failed MCP server where to fix it; counts read as a person writes
// them ("1 character", "1 session").
func TestDoctorLinesAlignAndSayWhatToDo(t *testing.T) {
	dir := t.TempDir()
	mcpFile := filepath.Join(dir, "mcp.json")
	if err := os.WriteFile(mcpFile, []byte(`{"mcpServers":{"a-server-with-a-long-name":{"command":"/nonexistent/muse-doctor-test"}}}`), 0o600); err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"XDG_CONFIG_HOME": t.TempDir(), "XDG_DATA_HOME": t.TempDir(), "XDG_STATE_HOME": t.TempDir(), "MUSE_API_KEY": "k"}
	if err := os.MkdirAll(filepath.Join(env["XDG_DATA_HOME"], "muse", "sessions"), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(env["XDG_DATA_HOME"], "muse", "sessions", "s1.jsonl"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	r := runMain(t, env, "", "doctor", "--offline", "--mcp-config", mcpFile)
	if r.code != 1 {
		t.Fatalf("%+v", r)
	}
	// The text begins after the mark, a space, the label's 16 columns, a space.
	const col = 19
	lines := strings.Split(strings.TrimRight(r.stdout, "\n"), "\n")[1:] // after the version
	var failed []string
	for i, l := range lines {
		if l == "" || !strings.HasPrefix(l, "✗ ") && !strings.HasPrefix(l, "  ") && !strings.HasPrefix(l, "! ") {
			continue // a section's title
		}
		rs := []rune(l)
		next := ""
		if i+1 < len(lines) && strings.HasPrefix(lines[i+1], strings.Repeat(" ", col)) {
			next = strings.TrimSpace(lines[i+1])
		}
		label := strings.TrimSpace(string(rs[2:min(len(rs), col-1)]))
		switch {
		case len(rs) > col-1 && !strings.Contains(string(rs[2:]), " "): // a label alone, wider than the column
			label = string(rs[2:])
			if next == "" {
				t.Errorf("label %q has no text under it", l)
			}
		case len(rs) <= col || rs[col-1] != ' ' || rs[col] == ' ' && label != "":
			t.Errorf("text out of its column: %q", l)
		}
		if strings.HasPrefix(l, "✗ ") {
			failed = append(failed, label+"\t"+l+" "+next)
		}
	}
	wants := map[string]string{"base URL": "set MUSE_BASE_URL", "model": "set MUSE_MODEL",
		"a-server-with-a-long-name": "fix its entry in " + mcpFile + ":1, or remove it"}
	if len(failed) != len(wants) {
		t.Errorf("%d ✗ lines, want %d:\n%s", len(failed), len(wants), r.stdout)
	}
	for _, f := range failed {
		label, line, _ := strings.Cut(f, "\t")
		if want, ok := wants[label]; !ok || !strings.Contains(line, want) {
			t.Errorf("✗ %s does not say what to do (%q):\n%s", label, want, line)
		}
	}
	for _, want := range []string{"**** (1 character)", "1 session)"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("doctor lacks %q:\n%s", want, r.stdout)
		}
	}
}

// No label of muse doctor's service check is one of the Configuration
// section's: the check's "model check" says whether the service knows the
// model, the section's "model" which model is set; likewise "credential
// check" and "credentials".
func TestDoctorCheckLabelsAreTheirOwn(t *testing.T) {
	srv := standin.Start(standin.Providers["anthropic"], "good-key")
	defer srv.Close()
	env := map[string]string{"XDG_CONFIG_HOME": t.TempDir(), "XDG_STATE_HOME": t.TempDir(), "XDG_DATA_HOME": t.TempDir(),
		"ANTHROPIC_BASE_URL": srv.URL, "ANTHROPIC_API_KEY": "good-key", "ANTHROPIC_MODEL": "claude-opus-4-7"}
	r := runMain(t, env, "", "doctor", "--models")
	if r.code != 0 {
		t.Fatalf("%+v", r)
	}
	sections := map[string][]string{}
	section := ""
	for _, l := range strings.Split(r.stdout, "\n") {
		switch {
		case l == "":
		case !strings.HasPrefix(l, " ") && !strings.HasPrefix(l, "✗") && !strings.HasPrefix(l, "!"):
			section, _, _ = strings.Cut(l, " (")
		case len([]rune(l)) > 18 && []rune(l)[1] == ' ':
			if label := strings.TrimSpace(string([]rune(l)[2:18])); label != "" {
				sections[section] = append(sections[section], label)
			}
		}
	}
	config, check := sections["Configuration"], sections["Service check"]
	if !slices.Contains(config, "model") || !slices.Contains(check, "model check") || !slices.Contains(check, "credential check") {
		t.Fatalf("Configuration %q, Service check %q:\n%s", config, check, r.stdout)
	}
	for _, l := range check {
		if slices.Contains(config, l) || slices.Contains(config, l+"s") || slices.Contains(config, strings.TrimSuffix(l, "s")) {
			t.Errorf("the service check's %q reads as the Configuration's:\n%s", l, r.stdout)
		}
	}
}
