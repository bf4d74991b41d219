package cli

import (
	"os"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"muse/theme"
	"muse/ui/sanitize"
)

// registerCompletions adds the dynamic completions of the flags: session
// ids for -r, profile names for --profile, themes for --theme.
// "muse completion bash|zsh|fish|powershell" (cobra's) prints the script
// that asks muse for them through its hidden __complete command.
func (a *app) registerCompletions(root *cobra.Command) {
	root.CompletionOptions.DisableDescriptions = false
	must(root.RegisterFlagCompletionFunc("resume", func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		return a.sessionCompletions(toComplete), cobra.ShellCompDirectiveNoFileComp
	}))
	must(root.RegisterFlagCompletionFunc("profile", func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		return a.profileCompletions(toComplete), cobra.ShellCompDirectiveNoFileComp
	}))
	must(root.RegisterFlagCompletionFunc("model", func(_ *cobra.Command, _ []string, toComplete string) ([]string, cobra.ShellCompDirective) {
		return a.modelCompletions(toComplete), cobra.ShellCompDirectiveNoFileComp
	}))
	must(root.RegisterFlagCompletionFunc("theme", func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
		// The names, and the shell's own completion of a theme file's path.
		return theme.Names(), cobra.ShellCompDirectiveDefault
	}))
	for _, c := range root.Commands() {
		if c.Name() != "sessions" {
			continue
		}
		for _, sub := range c.Commands() {
			if sub.Flags().Lookup("format") != nil {
				formats := []string{"md", "json"}
				if sub.Name() == "export" {
					formats = append(formats, "html")
				}
				must(sub.RegisterFlagCompletionFunc("format", cobra.FixedCompletions(formats, cobra.ShellCompDirectiveNoFileComp)))
			}
		}
	}
}

// must panics on an error that only a mistake in this file can cause.
func must(err error) {
	if err != nil {
		panic(err)
	}
}

// completeRootArgs completes muse's only argument: the session after -r.
// -r's value is optional, so the shell sees "muse -r <TAB>" as an argument.
func (a *app) completeRootArgs(cmd *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	if len(args) == 0 && a.f.resume == pickSentinel && cmd.Flags().Changed("resume") {
		return a.sessionCompletions(toComplete), cobra.ShellCompDirectiveNoFileComp
	}
	return nil, cobra.ShellCompDirectiveNoFileComp
}

// completeSessionArg completes the ID of muse sessions show, export,
// rename and delete.
func (a *app) completeSessionArg(_ *cobra.Command, args []string, toComplete string) ([]string, cobra.ShellCompDirective) {
	if len(args) > 0 {
		return nil, cobra.ShellCompDirectiveNoFileComp
	}
	return a.sessionCompletions(toComplete), cobra.ShellCompDirectiveNoFileComp
}

// sessionCompletions lists the saved sessions whose id starts with
// toComplete, as "ID<tab>TITLE", newest first; when no id does, the titles
// that start with it (ignoring case), which -r and the commands accept too.
// It creates nothing: with no sessions folder there is nothing to list.
func (a *app) sessionCompletions(toComplete string) []string {
	dir, err := sessionsDir(a.env)
	if err != nil {
		return nil
	}
	if _, err := os.Stat(dir); err != nil {
		return nil
	}
	quiet := a.env
	quiet.StderrTTY = false // no progress under the shell's prompt
	// Opened as every command opens it, with this machine's own folders:
	// what a list does to a synced folder (a tombstone it must remember, the
	// search index) never lands in the synced folder itself.
	store, err := openStore(quiet)
	if err != nil {
		return nil
	}
	infos, err := store.List()
	if err != nil {
		return nil
	}
	var out []string
	for _, in := range infos {
		if strings.HasPrefix(in.ID, toComplete) {
			out = append(out, in.ID+"\t"+completionText(in.Title))
		}
	}
	if len(out) > 0 || toComplete == "" {
		return out
	}
	lower := strings.ToLower(toComplete)
	for _, in := range infos {
		if t := completionText(in.Title); strings.HasPrefix(strings.ToLower(t), lower) {
			out = append(out, t+"\t"+in.ID)
		}
	}
	return out
}

// completionText makes stored text safe for a completion line: one line,
// no escapes, no tabs (which start the description).
func completionText(s string) string {
	s = sanitize.Plain(sanitize.Line(s))
	return strings.TrimSpace(strings.NewReplacer("\t", " ", "\n", " ", "\r", " ").Replace(s))
}

// profileCompletions lists the profiles of the configuration file (the
// one --config names, if given) that start with toComplete.
func (a *app) profileCompletions(toComplete string) []string {
	file, err := loadConfigFile(a.f.configPath, a.env)
	if err != nil || file == nil {
		return nil
	}
	var out []string
	for name := range file.Profiles {
		if strings.HasPrefix(name, toComplete) {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}
