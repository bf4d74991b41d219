package cli

import (
	"io"

	"github.com/spf13/pflag"
)

func resolve(f *flags, getenv func(string) string) (*config, error) {
	return resolveIn(f, Env{Getenv: getenv})
}

// parseFlags parses the flags of muse itself, as the root command does,
// and checks them. Tests use it to resolve a command line.
func parseFlags(args []string) (*flags, *pflag.FlagSet, error) {
	f := &flags{}
	fs := pflag.NewFlagSet("muse", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	addRootFlags(fs, f)
	addGlobalFlags(fs, f)
	if err := fs.Parse(bareP(args, fs)); err != nil {
		return nil, fs, usagef("%v (see muse --help)", err)
	}
	if err := f.check(fs.Changed, fs.Args()); err != nil {
		return nil, fs, err
	}
	return f, fs, nil
}
