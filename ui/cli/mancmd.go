package cli

import (
	"fmt"
	"strings"

	mcobra "github.com/muesli/mango-cobra"
	"github.com/muesli/roff"
	"github.com/spf13/cobra"
)

// manCmd is "muse man": the manual page, in roff, built from the command
// tree so that it never disagrees with --help.
func (a *app) manCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "man",
		Short: "print the manual page, in roff (muse man | man -l -)",
		Long: `Print muse's manual page, in roff, built from the command tree.

Read it with: muse man | man -l -
Install it with: muse man > ~/.local/share/man/man1/muse.1`,
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			page, err := mcobra.NewManPage(1, c.Root())
			if err != nil {
				return fmt.Errorf("build the manual page: %w", err)
			}
			// roff formats a section's text with fmt: a % must be doubled.
			pct := strings.NewReplacer("%", "%%")
			page = page.
				WithSection("Keys", pct.Replace(manKeys())).
				WithSection("Environment", pct.Replace(manEnvironment)).
				WithSection("Files", pct.Replace(manFiles)).
				WithSection("Exit status", pct.Replace(manExitStatus))
			// The backquotes in flag usages mark pflag's value names.
			fmt.Fprint(a.env.Stdout, strings.ReplaceAll(page.Build(roff.NewDocument()), "`", ""))
			return nil
		},
	}
}

const manEnvironment = `MUSE_BASE_URL: the service address (required unless --demo).
MUSE_ACCESS_TOKEN: sent as Authorization: Bearer.
MUSE_API_KEY: sent as x-api-key when there is no access token.
MUSE_MODEL, MUSE_IMAGE_MODEL: the model names.
MUSE_PROVIDER_VERSION: the provider-version header (default 2023-06-01).
MUSE_PROFILE: the configuration profile to use.
MUSE_DEBUG=1: like --debug.
NO_COLOR: colours off.
XDG_CONFIG_HOME, XDG_DATA_HOME, XDG_STATE_HOME: where the configuration, the sessions and the debug log go.
Flags beat the environment, which beats the profile, which beats the defaults.`

const manFiles = `$XDG_CONFIG_HOME/muse/config.toml: the configuration file (muse config path prints where it is).
$XDG_DATA_HOME/muse/sessions/: the sessions, one JSONL journal each, 0600 in a 0700 folder.
$XDG_DATA_HOME/muse/images/: the generated images.
$XDG_STATE_HOME/muse/muse.log: the log --debug writes.
Without the variables: ~/.config, ~/.local/share and ~/.local/state on Linux, ~/Library/Application Support on macOS, %LOCALAPPDATA% on Windows.`

const manExitStatus = `0 success; 1 the request failed; 2 bad flags or configuration; 130 interrupted.`

// manKeys is the chat screen's keys as in --help (a binding never spans
// two of its lines), one binding a paragraph.
func manKeys() string {
	var items []string
	for _, line := range strings.Split(strings.TrimSpace(helpKeys), "\n") {
		items = append(items, strings.Split(strings.TrimSpace(line), " · ")...)
	}
	return "In the chat screen (? shows them all, with the slash commands):\n" + strings.Join(items, "\n")
}
