package cli

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/pflag"

	cfgfile "muse/ui/cli/config"
)

const configHelp = `muse config: the configuration file.

Usage:
  muse config path [--config FILE]                  print where the file is
  muse config show [--config FILE] [--profile NAME] print the profile in effect, secrets masked
  muse config init [--config FILE]                  write a commented example (never over an existing file)

The file is $XDG_CONFIG_HOME/muse/config.toml (~/.config/muse/config.toml)
unless --config names another. show uses --profile, else MUSE_PROFILE, else
the file's default_profile. Problems in the file are printed one a line, with
the file and the line, and exit with status 2.
`

// configMain runs "muse config ...".
func configMain(args []string, env Env) int {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" || args[0] == "help" {
		io.WriteString(env.Stdout, configHelp)
		if len(args) == 0 {
			return ExitUsage
		}
		return ExitOK
	}
	cmd := args[0]
	if cmd != "path" && cmd != "show" && cmd != "init" {
		return fail(env, usagef("unknown command %q: use path, show or init (see muse config --help)", cmd))
	}
	fs := pflag.NewFlagSet("muse config "+cmd, pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	configPath := fs.String("config", "", "the configuration file")
	profile := fs.String("profile", "", "the profile to show")
	help := fs.BoolP("help", "h", false, "show the help")
	if err := fs.Parse(args[1:]); err != nil {
		return fail(env, usagef("muse config %s: %v (see muse config --help)", cmd, err))
	}
	switch {
	case *help:
		io.WriteString(env.Stdout, configHelp)
		return ExitOK
	case fs.NArg() > 0:
		return fail(env, usagef("muse config %s: unexpected argument %q (see muse config --help)", cmd, fs.Arg(0)))
	case fs.Changed("profile") && cmd != "show":
		return fail(env, usagef("muse config %s: --profile goes with muse config show", cmd))
	}
	path := *configPath
	if path == "" {
		var err error
		if path, err = cfgfile.DefaultPath(env.Getenv); err != nil {
			return fail(env, usagef("%v: set HOME or XDG_CONFIG_HOME, or use --config FILE", err))
		}
	}
	switch cmd {
	case "path":
		fmt.Fprintln(env.Stdout, path)
	case "init":
		if err := cfgfile.Init(path); err != nil {
			return fail(env, usagef("%v", err))
		}
		fmt.Fprintf(env.Stdout, "wrote %s: edit it, then muse config show\n", path)
	case "show":
		return configShow(env, *configPath, path, *profile)
	}
	return ExitOK
}

// configShow prints the profile in effect in the file at path; configPath
// is the --config value, "" for the default file.
func configShow(env Env, configPath, path, profile string) int {
	file, err := loadConfigFile(configPath, env.Getenv)
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
		fmt.Fprintf(env.Stdout, "# %s sets no profile: muse uses flags, the environment and its defaults\n", path)
		return ExitOK
	}
	fmt.Fprintf(env.Stdout, "# %s, profile %s\n", path, prof.Name)
	cfgfile.Show(prof, env.Stdout)
	return ExitOK
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
