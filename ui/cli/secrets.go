package cli

import (
	"context"
	"os"
	"slices"
	"strings"

	cfgfile "muse/ui/cli/config"
	"muse/ui/toolrun"
)

// credentialCommand returns what runs a credential command
// (access_token_cmd, api_key_cmd, image_access_token_cmd, an MCP server's
// token_cmd, sync_key_cmd): in muse's environment without the variables
// named in drop (muse's credentials: secretEnv) and without those that
// hold one of secrets, the credentials read already. Every child gets
// only its own secrets: a helper that prints one server's token has no
// business with the service's, or with the sync key.
func credentialCommand(drop, secrets []string) func(ctx context.Context, argv []string) ([]byte, error) {
	return cfgfile.CommandIn(toolrun.Environ(drop, secrets))
}

// guardSecrets keeps muse's credentials from the programs it starts, once
// the configuration has read them: it drops the variables named in names
// from muse's own environment, and those that hold one of values (a
// credential read from a command, under another name; see
// toolrun.Withhold), and makes the process undumpable where the
// system allows (see undumpable), so that a tool of the same user cannot
// read /proc/<muse pid>/environ or attach a debugger. What remains
// possible is said in the README's security section: root can still read
// either, and so can anything started before muse.
func guardSecrets(names, values []string) {
	for _, n := range names {
		_ = os.Unsetenv(n)
	}
	for _, kv := range os.Environ() {
		if kv != "" && len(toolrun.Withhold([]string{kv}, values)) == 0 {
			name, _, _ := strings.Cut(kv[1:], "=") // "=C:=C:\dir" on Windows
			_ = os.Unsetenv(kv[:1] + name)
		}
	}
	undumpable()
}

// musesOwn names the variables muse itself reads after it starts (the
// proxy for its requests, the editor and browser it opens, the terminal it
// draws on): an MCP server's entry that names one does not take it from
// muse's environment. ServerVars already leaves out what every process
// needs (PATH, HOME, the locale…).
var musesOwn = []string{
	"HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY", "ALL_PROXY", "REQUEST_METHOD",
	"EDITOR", "VISUAL", "BROWSER", "SSH_AUTH_SOCK", "TMUX", "COLORTERM", "COLORFGBG", "NO_COLOR",
	"CLICOLOR", "CLICOLOR_FORCE", "TERM_PROGRAM", "KITTY_WINDOW_ID", "WT_SESSION",
}

// serverOnly is the variables the MCP servers' entries name that muse
// itself never reads: guardSecrets takes them from muse's environment once
// the servers' configuration holds their values, so that a child muse
// starts outside the tool runner (the editor, the browser, a clipboard
// helper) gets none of them either.
func serverOnly(vars []string) []string {
	return slices.DeleteFunc(slices.Clone(vars), func(v string) bool {
		u := strings.ToUpper(v)
		return strings.HasPrefix(u, "MUSE_") || slices.Contains(musesOwn, u)
	})
}
