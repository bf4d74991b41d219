package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"slices"
	"strings"
	"syscall"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"muse/api"
	"muse/api/demo"
	"muse/ui/tomlfile"
	"muse/ui/toolrun"
)

// app is one run of muse: its environment and the flags the command tree
// parses into.
type app struct {
	env Env
	f   flags
}

// newRoot builds the command tree: muse itself (the chat screen and -p),
// with sessions, config, doctor, man, and cobra's completion and help.
func (a *app) newRoot() *cobra.Command {
	root := &cobra.Command{
		Use:   "muse",
		Short: "chat and image generation in your terminal",
		Long: "muse is a terminal chat and image-generation client. Run alone, it opens the chat screen; " +
			"with -p it sends one prompt and prints the reply.",
		Example: `  muse --demo                          chat with the offline demo server
  muse -p "explain channels in go"     one reply, rendered as markdown on a terminal
  git diff | muse -p "review" --raw    piped stdin follows the prompt; raw text out
  muse -r                              pick a session to resume`,
		Args:                       cobra.ArbitraryArgs,
		SilenceErrors:              true,
		SilenceUsage:               true,
		SuggestionsMinimumDistance: 2,
		ValidArgsFunction:          a.completeRootArgs,
		RunE:                       a.runRoot,
	}
	// Before the completion command is made: it keeps the output it sees.
	root.SetIn(orEmpty(a.env.Stdin))
	root.SetOut(a.env.Stdout)
	root.SetErr(a.env.Stderr)
	addRootFlags(root.Flags(), &a.f)
	root.Flags().BoolP("help", "h", false, "show this help")
	addGlobalFlags(root.PersistentFlags(), &a.f)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		// A value that does not parse: say what the flag takes, not what
		// strconv said.
		if ive, ok := errors.AsType[*pflag.InvalidValueError](err); ok {
			want := "a value of the kind " + ive.GetFlag().Value.Type()
			switch ive.GetFlag().Value.Type() {
			case "int", "int64", "uint", "uint64":
				want = "a whole number"
			case "float64", "float32":
				want = "a number"
			case "bool":
				want = "true or false"
			case "duration":
				want = "a duration like 30s, 5m or 1h"
			}
			return usagef("--%s takes %s, not %q (see %s --help)", ive.GetFlag().Name, want, ive.GetValue(), c.CommandPath())
		}
		if name, ok := strings.CutPrefix(err.Error(), "unknown flag: --"); ok {
			// A typo of a flag this command takes: name the nearest.
			var known []string
			c.Flags().VisitAll(func(f *pflag.Flag) {
				if !f.Hidden {
					known = append(known, "--"+f.Name)
				}
			})
			return usagef("%v%s (see %s --help)", err, tomlfile.Suggest("--"+name, known), c.CommandPath())
		}
		return usagef("%v (see %s --help)", err, c.CommandPath())
	})
	cobraHelp := root.HelpFunc()
	root.SetHelpFunc(func(c *cobra.Command, args []string) {
		if c == root {
			writeHelp(c.OutOrStdout(), root)
			return
		}
		cobraHelp(c, args)
	})
	root.AddCommand(a.sessionsCmd(), a.configCmd(), a.doctorCmd(), a.modelsCmd(), a.syncCmd(), a.manCmd())
	root.InitDefaultHelpCmd()
	root.InitDefaultCompletionCmd()
	for _, c := range root.Commands() {
		switch c.Name() {
		case "help":
			c.Short = "help about a command: muse help sessions export"
			c.Run = nil
			c.RunE = func(c *cobra.Command, args []string) error {
				target, rest, err := root.Find(args)
				if err != nil || target == nil || len(rest) > 0 {
					return usagef("no help on %q: the commands are %s (see muse --help)",
						strings.Join(args, " "), commandNames(root))
				}
				target.InitDefaultHelpFlag()
				return target.Help()
			}
		case "completion":
			c.Short = "print the shell completion script: bash, zsh, fish or powershell"
		}
	}
	a.registerCompletions(root)
	return root
}

// suggestCommand is ` (did you mean "NAME"?)` for the command of c
// closest to name, or "" when none is close.
func suggestCommand(c *cobra.Command, name string) string {
	if c.SuggestionsMinimumDistance <= 0 {
		c.SuggestionsMinimumDistance = 2 // as cobra sets it for the root
	}
	if s := c.SuggestionsFor(name); len(s) > 0 {
		return fmt.Sprintf(" (did you mean %q?)", s[0])
	}
	return ""
}

// groupRunE runs a command that only groups others, such as muse config:
// alone it prints its help and exits with the usage status; "help" prints
// the help; another word is an unknown command, refused with the nearest
// name and uses, the list of its commands.
func groupRunE(uses string) func(*cobra.Command, []string) error {
	return func(c *cobra.Command, args []string) error {
		if len(args) > 0 && args[0] == "help" {
			return c.Help()
		}
		if len(args) > 0 {
			return usagef("unknown command %q%s: use %s (see %s --help)", args[0], suggestCommand(c, args[0]), uses, c.CommandPath())
		}
		c.Help()
		return exitStatus(ExitUsage)
	}
}

// runRoot runs muse itself: the chat screen, or -p.
func (a *app) runRoot(cmd *cobra.Command, args []string) error {
	f := &a.f
	if err := f.check(cmd.Flags().Changed, args); err != nil {
		if len(args) > 0 && f.resume != args[0] {
			if s := cmd.SuggestionsFor(args[0]); len(s) > 0 {
				return usagef("unknown command %q (did you mean muse %s?); a prompt goes in -p \"...\" (see muse --help)", args[0], s[0])
			}
		}
		return err
	}
	if f.showVer {
		fmt.Fprintln(a.env.Stdout, versionLine())
		return nil
	}
	return status(a.runMuse())
}

// runMuse resolves the configuration, starts the demo server when asked,
// and runs -p or the chat screen.
func (a *app) runMuse() int {
	env, f := a.env, &a.f
	cfg, err := resolveIn(f, env)
	if err != nil {
		return fail(env, err)
	}
	if env.own {
		guardSecrets(append(slices.Clip(cfg.secretEnv), serverOnly(cfg.serverVars)...), cfg.secrets)
	}
	if f.demo {
		srv, err := demo.Start(demo.Options{Delay: cfg.demoDelay(f.printSet, env.Getenv)})
		if err != nil {
			return fail(env, fmt.Errorf("start the demo server: %w", err))
		}
		defer srv.Close()
		cfg.baseURL = srv.URL
	}
	opts := cfg.clientOptions()
	if dl := a.openDebugLog(f.printSet); dl != nil {
		defer dl.Close()
		hc := dl.httpClient()
		defer hc.CloseIdleConnections()
		opts = append(opts, api.WithHTTPClient(hc))
	}
	client := api.New(cfg.baseURL, opts...)
	defer client.Close()
	if cfg.mcp != nil {
		defer cfg.mcp.Close() // after KillAll below: the stdio servers are dead already
	}
	if f.printSet {
		// SIGTERM and SIGHUP (a closed terminal) end the turn like ctrl+c:
		// what arrived is saved, and running tools are killed.
		ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
		defer stop()
		defer toolrun.KillAll()
		return printMode(ctx, env, f, cfg, client)
	}
	if !env.StdoutTTY {
		return fail(env, usagef("muse's chat screen needs a terminal: use -p \"PROMPT\" for one-shot output"))
	}
	return runTUI(env, f, cfg, client)
}

// debugOn reports whether --debug or MUSE_DEBUG asks for the debug log.
func (a *app) debugOn() bool {
	if a.f.debug {
		return true
	}
	switch strings.ToLower(strings.TrimSpace(a.env.Getenv("MUSE_DEBUG"))) {
	case "1", "true", "yes", "on":
		return true
	}
	return false
}

// commandNames lists the names of root's commands, "a, b or c".
func commandNames(root *cobra.Command) string {
	var names []string
	for _, c := range root.Commands() {
		if c.IsAvailableCommand() {
			names = append(names, c.Name())
		}
	}
	return joinNames(names, "or")
}

// joinNames joins names as "a, b or c", with conj before the last.
func joinNames(names []string, conj string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " " + conj + " " + names[len(names)-1]
}
