package cli

import (
	"fmt"
	"io"

	cfgfile "muse/ui/cli/config"
)

const configHelp = `muse config: the configuration file.

Usage:
  muse config path             print where the file is
  muse config show [--profile NAME]   print the profile in effect, secrets masked
  muse config init             write a commented example (never over an existing file)
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
	path, err := cfgfile.DefaultPath(env.Getenv)
	if err != nil {
		return fail(env, usagef("%v: set HOME or XDG_CONFIG_HOME", err))
	}
	switch args[0] {
	case "path":
		fmt.Fprintln(env.Stdout, path)
		return ExitOK
	case "init":
		if err := cfgfile.Init(path); err != nil {
			return fail(env, usagef("%v", err))
		}
		fmt.Fprintf(env.Stdout, "wrote %s: edit it, then muse config show\n", path)
		return ExitOK
	case "show":
		f, fs, err := parseFlags(args[1:])
		if err != nil {
			return fail(env, err)
		}
		_ = fs
		prof, err := loadProfile(f, env.Getenv)
		if err != nil {
			return fail(env, err)
		}
		if prof == nil {
			fmt.Fprintf(env.Stdout, "# %s sets no profile: muse uses flags, the environment and its defaults\n", path)
			return ExitOK
		}
		fmt.Fprintf(env.Stdout, "# %s, profile %s\n", path, prof.Name)
		cfgfile.Show(prof, env.Stdout)
		return ExitOK
	}
	return fail(env, usagef("unknown command %q: use path, show or init (see muse config --help)", args[0]))
}
