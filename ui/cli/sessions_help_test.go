package cli

import (
	"strings"
	"testing"
)

// The root's command list, muse sessions --help and the error of an
// unknown command name every command of muse sessions: they are made
// from the commands, so that one added (as fork was) is never left out.
func TestSessionsHelpNamesEveryCommand(t *testing.T) {
	a := &app{env: Env{Getenv: func(string) string { return "" }}}
	cmd := a.sessionsCmd()
	root := runMain(t, nil, "", "--help")
	help := runMain(t, nil, "", "sessions", "--help")
	bad := runMain(t, nil, "", "sessions", "nosuch")
	if root.code != 0 || help.code != 0 || bad.code != ExitUsage {
		t.Fatalf("exit codes: --help %d, sessions --help %d, sessions nosuch %d", root.code, help.code, bad.code)
	}
	line := ""
	for l := range strings.SplitSeq(root.stdout, "\n") {
		if strings.HasPrefix(strings.TrimSpace(l), "sessions ") && line == "" {
			line = l // the command list comes first
		}
	}
	if len(cmd.Commands()) < 9 {
		t.Fatalf("only %d commands", len(cmd.Commands()))
	}
	for _, sub := range cmd.Commands() {
		for what, text := range map[string]string{"the root's list": line, "sessions --help": strings.ToLower(strings.SplitN(help.stdout, "\n", 2)[0]), "the unknown command's error": bad.stderr} {
			if !strings.Contains(text, sub.Name()+",") && !strings.Contains(text, sub.Name()+" ") {
				t.Errorf("%s does not name %s:\n%s", what, sub.Name(), text)
			}
		}
	}
}
