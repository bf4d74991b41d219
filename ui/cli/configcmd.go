package cli

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"muse/api"
	cfgfile "muse/ui/cli/config"
	"muse/ui/sanitize"
)

// configCmd is "muse config" and its commands.
func (a *app) configCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "config",
		Short: "the configuration file: where it is, what the profile in effect sets, a commented example",
		Long: `The configuration file.

The file is config.toml in muse's configuration folder: $XDG_CONFIG_HOME/muse
when XDG_CONFIG_HOME is set, else ~/.config/muse on Linux, ~/Library/
Application Support/muse on macOS and %LOCALAPPDATA%\muse on Windows; the
global --config FILE names another. show uses --profile, else MUSE_PROFILE,
else the file's default_profile. Problems in the file are printed one a
line, with the file and the line, and exit with status 2.`,
		Args: cobra.ArbitraryArgs,
		RunE: groupRunE("path, show or init"),
	}
	path := &cobra.Command{
		Use:   "path",
		Short: "print where the configuration file is",
		Args:  noProfile,
		RunE: a.withConfigPath(func(path string) error {
			fmt.Fprintln(a.env.Stdout, path)
			return nil
		}),
	}
	show := &cobra.Command{
		Use:   "show",
		Short: "print what the profile in effect sets, secrets masked",
		Args:  noArgs,
		RunE: a.withConfigPath(func(path string) error {
			return status(configShow(a.env, &a.f, path))
		}),
	}
	var service string
	init := &cobra.Command{
		Use:   "init",
		Short: "write a commented example (never over an existing file), or with --service NAME a recipe's profile",
		Long: `Write a commented example configuration (never over an existing file).

With --service NAME, write the profile of a recipe instead: a new file that
makes it the default profile, or the end of an existing one. The recipes:
` + serviceList(),
		Args: noProfile,
		RunE: a.withConfigPath(func(path string) error {
			if service != "" {
				if err := cfgfile.InitService(path, service); err != nil {
					return usagef("%v", err)
				}
				muse := a.museWithConfig()
				fmt.Fprintf(a.env.Stdout, "wrote the profile %s to %s: %s --profile %s, or %s doctor --profile %s to check it\n", service, path, muse, service, muse, service)
				return nil
			}
			if err := cfgfile.Init(path); err != nil {
				return usagef("%v", err)
			}
			fmt.Fprintf(a.env.Stdout, "wrote %s: edit it, then %s config show\n", path, a.museWithConfig())
			return nil
		}),
	}
	init.Flags().StringVar(&service, "service", "", "write the profile of the recipe `NAME` (see the list above)")
	must(init.RegisterFlagCompletionFunc("service", cobra.FixedCompletions(cfgfile.ServiceNames(), cobra.ShellCompDirectiveNoFileComp)))
	cmd.AddCommand(path, show, init)
	return cmd
}

// noProfile refuses --profile on the commands that do not read a profile.
func noProfile(c *cobra.Command, args []string) error {
	if err := noArgs(c, args); err != nil {
		return err
	}
	if c.Flags().Changed("profile") {
		return usagef("%s: --profile goes with muse config show", c.CommandPath())
	}
	return nil
}

// museWithConfig is the start of a muse command line that reads the
// configuration file this one reads: "muse" (or "go run ."), with --config FILE when one
// was given, so that a hint works when pasted.
func (a *app) museWithConfig() string {
	if a.f.configPath == "" {
		return cmdName(a.env)
	}
	return cmdName(a.env) + " --config " + shellQuote(sanitize.Line(a.f.configPath))
}

// withConfigPath runs do with the configuration file's path, for the
// commands of muse config.
func (a *app) withConfigPath(do func(path string) error) func(*cobra.Command, []string) error {
	return func(*cobra.Command, []string) error {
		path, err := a.configFilePath()
		if err != nil {
			return err
		}
		return do(path)
	}
}

// configFilePath is the file --config names, else the default one.
func (a *app) configFilePath() (string, error) {
	if a.f.configPath != "" {
		return a.f.configPath, nil
	}
	path, err := defaultConfigPath(a.env)
	if err != nil {
		return "", usagef("%v: set HOME (USERPROFILE on Windows) or XDG_CONFIG_HOME, or use --config FILE", err)
	}
	return path, nil
}

// defaultConfigPath is config.toml in muse's configuration folder for env.
func defaultConfigPath(env Env) (string, error) {
	return cfgfile.DefaultPathOn(env.dirGetenv(), env.goos)
}

// configShow prints the profile in effect in the file at path (f.configPath
// is the --config value, "" for the default file), then what the
// environment sets over it.
func configShow(env Env, f *flags, path string) int {
	profile := f.profile
	file, err := loadConfigFile(f.configPath, env)
	if err != nil {
		return failLines(env, err)
	}
	if profile == "" {
		profile = env.Getenv("MUSE_PROFILE")
	}
	prof, err := file.Select(profile)
	if err != nil {
		return failLines(env, usagef("%v", err))
	}
	if prof == nil {
		if h := unchosenProfiles(file); h != "" {
			fmt.Fprintf(env.Stdout, "# %s; until then muse uses flags, the environment and its defaults\n", h)
		} else {
			fmt.Fprintf(env.Stdout, "# %s sets no profile: muse uses flags, the environment and its defaults\n", path)
		}
		showEnvironment(env, f, &cfgfile.Profile{})
		return ExitOK
	}
	fmt.Fprintf(env.Stdout, "# %s, profile %s\n", path, prof.Name)
	cfgfile.Show(prof, env.Stdout)
	showEnvironment(env, f, prof)
	return ExitOK
}

// showEnvironment prints, as comments, the service settings that come from
// the environment rather than the profile, naming each variable; a
// credential only by its name.
func showEnvironment(env Env, f *flags, prof *cfgfile.Profile) {
	base, anthropic := serviceAddress(f, env.Getenv, prof)
	model := serviceModel(f, env.Getenv, prof)
	var lines []string
	for _, s := range []struct {
		key string
		s   setting
	}{{"base_url", base}, {"model", model}} {
		if s.s.value != "" && !strings.HasPrefix(s.s.from, "the profile") {
			lines = append(lines, fmt.Sprintf("# %s = %s (from %s)", s.key, strconv.Quote(sanitize.Line(api.RedactURL(s.s.value))), s.s.from))
		}
	}
	switch _, _, from := anthropicCredential(env.Getenv); {
	case env.Getenv("MUSE_ACCESS_TOKEN") != "":
		lines = append(lines, "# access token = **** (from MUSE_ACCESS_TOKEN)")
	case env.Getenv("MUSE_API_KEY") != "":
		lines = append(lines, "# API key = **** (from MUSE_API_KEY, sent as x-api-key)")
	case anthropic && from == "ANTHROPIC_AUTH_TOKEN":
		lines = append(lines, "# access token = **** (from ANTHROPIC_AUTH_TOKEN, sent as a bearer token)")
	case anthropic && from == "ANTHROPIC_API_KEY":
		lines = append(lines, "# API key = **** (from ANTHROPIC_API_KEY, sent as x-api-key)")
	}
	if len(lines) > 0 {
		fmt.Fprintln(env.Stdout, "# from the environment:")
		fmt.Fprintln(env.Stdout, strings.Join(lines, "\n"))
	}
}

// failLines prints a usage error one problem a line and returns its exit
// status; other errors go to fail.
func failLines(env Env, err error) int {
	var ue *usageError
	if !errors.As(err, &ue) {
		return fail(env, err)
	}
	for _, l := range errorLines(err) {
		fmt.Fprintf(env.Stderr, "muse: %s\n", l)
	}
	return ExitUsage
}

// serviceList lists the recipes, one a line, for --help.
func serviceList() string {
	var b strings.Builder
	for _, s := range cfgfile.Services {
		fmt.Fprintf(&b, "  %-14s %s\n", s.Name, s.Title)
	}
	return b.String()
}
