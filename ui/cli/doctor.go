package cli

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
	"github.com/spf13/cobra"

	"muse/api"
	"muse/session/dirs"
	cfgfile "muse/ui/cli/config"
	"muse/ui/mcp"
	"muse/ui/preview"
	"muse/ui/sanitize"
	"muse/ui/textfmt"
)

// doctorCmd is "muse doctor": what muse sees, secrets masked.
func (a *app) doctorCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "print what muse sees: configuration, credentials (masked), terminal, folders",
		Long: `Print what muse sees: the configuration file and the profile in effect, the
service address and model, whether credentials resolve (never showing them),
the terminal's colour profile and background, kitty graphics and the
clipboard, muse's folders with their permissions, and the MCP servers of
the profile and of --mcp-config: each is started (within its start-up time
limit), its tools are listed, and it is stopped again.

With --demo it checks for a chat with the embedded demo server, which
needs no address, model or credentials.

Unless --offline, it then sends the service one minimal request (16 tokens,
the profile's model and thinking form) and reports each step: reachable,
credential accepted, version header accepted, model known, thinking form
accepted; and names the recipe that fits the address. --models lists the
service's models too.

It exits 1 when something a chat needs is missing or broken (marked ✗),
else 0. It runs a profile's access_token_cmd or api_key_cmd, and the MCP
servers' commands, as muse would.`,
		Args: noArgs,
		RunE: func(*cobra.Command, []string) error {
			return status(a.doctor(a.env.Stdout))
		},
	}
	cmd.Flags().BoolVar(&a.f.demo, "demo", false, "check for a chat with the embedded demo server: no address, model or credentials needed")
	cmd.Flags().BoolVar(&a.f.doctorOffline, "offline", false, "send the service no request")
	cmd.Flags().BoolVar(&a.f.doctorModels, "models", false, "list the service's models too")
	cmd.Flags().StringVar(&a.f.mcpConfig, "mcp-config", "", "check the MCP servers of `FILE` too, an {\"mcpServers\": {...}} JSON file")
	cmd.Flags().BoolVar(&a.f.mcpExpandEnv, "mcp-expand-env", false, "let the --mcp-config file expand ${VAR} from the environment though it is not in your configuration folder (profile: mcp_expand_env)")
	return cmd
}

// doctor writes its report to w and returns the exit status.
func (a *app) doctor(w io.Writer) int {
	env := a.env
	d := &report{w: w, width: ttyWidth(env)}
	fmt.Fprintln(w, versionLine())

	d.section("Configuration")
	path, perr := a.configFilePath()
	var prof *cfgfile.Profile
	var names fileNames
	switch {
	case perr != nil:
		d.bad("config file", perr.Error())
	default:
		file, err := loadConfigFile(a.f.configPath, env)
		switch {
		case err != nil:
			for _, l := range errorLines(err) {
				d.bad("config file", l)
			}
		case describePath(path) == "not there yet":
			d.ok("config file", path+" (none; it is optional: "+cmdName(a.env)+" config init writes an example)")
		default:
			d.ok("config file", path+" ("+describePath(path)+")")
		}
		if err == nil {
			names = namesOf(file)
			name, from := a.f.profile, "--profile"
			if name == "" {
				name, from = env.Getenv("MUSE_PROFILE"), "MUSE_PROFILE"
			}
			if name == "" {
				name, from = file.DefaultProfile, "default_profile"
			}
			p, err := file.Select(name)
			switch {
			case err != nil:
				d.bad("profile", err.Error())
			case p == nil:
				d.ok("profile", "none: "+cmp.Or(unchosenProfiles(file), "flags, the environment and the defaults"))
			default:
				prof = p
				d.ok("profile", p.Name+" (from "+from+")")
			}
		}
	}
	if prof == nil {
		prof = &cfgfile.Profile{}
	}
	// The servers are read first: a credential command gets none of the
	// variables their entries name.
	c := &config{secretEnv: secretEnv(names.cred), serverVars: names.server, toolTimeout: cmp.Or(prof.ToolTimeout, cfgfile.DefaultToolTimeout), insecureHTTP: allowInsecure(env.Getenv, prof)}
	servers, serversErr := mcpServers(&a.f, prof, c, env)
	a.doctorService(d, prof, c.childDrop())
	if !a.f.demo && !a.f.doctorOffline && !d.failed {
		d.section("Service check (one request of 16 tokens; --offline sends none)")
		a.f.set = func(string) bool { return false } // doctor takes none of the settings' flags
		a.doctorCheck(d, a.f.doctorModels)
	}

	d.section("Terminal")
	a.doctorTerminal(d)

	d.section("Folders")
	a.doctorFolders(d, path)

	d.section("Sync")
	a.doctorSync(d)
	a.doctorSyncState(d)

	d.section("MCP servers")
	a.doctorMCP(d, prof, c, servers, serversErr)
	if d.failed {
		return ExitFailed
	}
	return ExitOK
}

// doctorService reports the service address, the model and whether the
// credentials resolve.
func (a *app) doctorService(d *report, prof *cfgfile.Profile, drop []string) {
	if a.f.demo {
		d.ok("service", "the embedded demo server (--demo): no address, model or credentials needed")
		return
	}
	getenv := a.env.Getenv
	base, anthropic := serviceAddress(&a.f, getenv, prof)
	model := serviceModel(&a.f, getenv, prof)
	switch {
	case base.value == "":
		d.bad("base URL", "not set: set MUSE_BASE_URL (or ANTHROPIC_BASE_URL), pass --base-url or set base_url in a profile (or use --demo)")
	default:
		d.ok("base URL", sanitize.Line(api.RedactURL(base.value))+" (from "+base.from+")")
	}
	if model.value == "" {
		d.bad("model", "not set: set MUSE_MODEL (or ANTHROPIC_MODEL), pass --model or set model in a profile (or use --demo)")
	} else {
		d.ok("model", sanitize.Line(model.value)+" (from "+model.from+")")
	}
	masked := func(s string) string { return "**** (" + textfmt.Plural(len(s), "character") + ")" }
	token, key, anthropicFrom := anthropicCredential(getenv)
	switch {
	case getenv("MUSE_ACCESS_TOKEN") != "":
		d.ok("credentials", "access token from MUSE_ACCESS_TOKEN: "+masked(getenv("MUSE_ACCESS_TOKEN")))
	case getenv("MUSE_API_KEY") != "":
		d.ok("credentials", "API key from MUSE_API_KEY: "+masked(getenv("MUSE_API_KEY")))
	case anthropic && token != "":
		d.ok("credentials", "access token (bearer) from ANTHROPIC_AUTH_TOKEN: "+masked(token))
	case anthropic && key != "":
		d.ok("credentials", "API key (x-api-key) from ANTHROPIC_API_KEY: "+masked(key))
	case prof.AccessTokenEnv != "" || prof.AccessTokenCmd != "":
		a.doctorSecret(d, "access token", prof.AccessTokenEnv, prof.AccessTokenCmd, prof.CredentialTimeout, masked, drop)
	case prof.APIKeyEnv != "" || prof.APIKeyCmd != "":
		a.doctorSecret(d, "API key", prof.APIKeyEnv, prof.APIKeyCmd, prof.CredentialTimeout, masked, drop)
	case loopbackURL(base.value):
		d.ok("credentials", "none, and none needed: the service is on this machine")
	case anthropicFrom != "":
		d.bad("credentials", "none for this address: "+anthropicFrom+" goes only to ANTHROPIC_BASE_URL; set MUSE_ACCESS_TOKEN (or MUSE_API_KEY), or access_token_env in the profile")
	default:
		d.bad("credentials", "none: set MUSE_ACCESS_TOKEN (or MUSE_API_KEY, ANTHROPIC_AUTH_TOKEN, ANTHROPIC_API_KEY), or access_token_env / access_token_cmd in a profile")
	}
	if base.value != "" {
		// The credential's value is not needed to check its transport.
		opts := []api.Option{api.WithInsecureHTTP(allowInsecure(getenv, prof))}
		if !loopbackURL(base.value) {
			opts = append(opts, api.WithAccessToken("x"))
		}
		if err := api.New(base.value, opts...).Check(); err != nil {
			d.bad("transport", sanitize.Line(err.Error()))
		}
	}
}

// stdoutFile is env's standard output as a file, for a terminal query, or
// nil when it is no file.
func stdoutFile(env Env) *os.File {
	f, _ := env.Stdout.(*os.File)
	return f
}

// doctorSecret resolves a profile's credential as muse would and reports
// whether it did, never what it is; a command runs without the variables
// that hold muse's credentials and those the MCP servers name (drop, see
// childDrop).
func (a *app) doctorSecret(d *report, what, envName, cmd string, timeout time.Duration, masked func(string) string, drop []string) {
	key := strings.ReplaceAll(strings.ToLower(what), " ", "_") // access_token, api_key
	from := "the profile's " + key + "_cmd"
	if envName != "" {
		from = "$" + envName + " (the profile's " + key + "_env)"
	}
	v, err := cfgfile.ResolveSecret(envName, cmd, timeout, a.env.Getenv, credentialCommand(drop, nil))
	if err != nil {
		d.bad("credentials", what+" from "+from+": "+err.Error())
		return
	}
	d.ok("credentials", what+" from "+from+": "+masked(v))
}

// doctorTerminal reports the terminal: colours, background, kitty graphics
// and the clipboard. It asks the terminal only when it is muse's own.
func (a *app) doctorTerminal(d *report) {
	env := a.env
	if env.StdoutTTY {
		size := "width unknown"
		if env.Width > 0 {
			size = fmt.Sprintf("%d columns", env.Width)
		}
		d.ok("stdout", "a terminal, "+size)
	} else {
		d.ok("stdout", "not a terminal: -p prints raw text, and the chat screen will not start")
	}
	termName := env.Getenv("TERM")
	if termName == "" {
		termName = "(unset)"
	}
	extra := ""
	for _, k := range []string{"COLORTERM", "TERM_PROGRAM", "TMUX", "STY", "ZELLIJ", "SSH_TTY"} {
		if v := env.Getenv(k); v != "" {
			if k == "TMUX" || k == "SSH_TTY" {
				v = "set"
			}
			extra += ", " + k + " " + v
		}
	}
	d.ok("TERM", termName+extra)
	out := termenv.NewOutput(os.Stdout, termenv.WithEnvironment(environ{env.Getenv}), termenv.WithTTY(env.StdoutTTY))
	profile := out.EnvColorProfile()
	why := ""
	if env.Getenv("NO_COLOR") != "" {
		why = " (NO_COLOR is set)"
	}
	d.ok("colour profile", profileName(profile)+why)
	if env.own && env.StdoutTTY {
		bg := "light"
		if lipgloss.HasDarkBackground() { // asked once, by Bubble Tea's init
			bg = "dark"
		}
		d.ok("background", bg+" (asked the terminal; --theme or theme = … overrides it)")
	} else {
		d.ok("background", "not asked: not muse's own terminal (the chat screen asks at start)")
	}
	switch {
	case !env.own || !env.StdoutTTY:
		d.ok("kitty graphics", "not asked: not muse's own terminal")
	case profile != termenv.TrueColor && profile != termenv.ANSI256:
		d.ok("kitty graphics", "no: previews need 256 colours or more; half blocks or a label instead")
	case preview.Detect(env.Getenv, os.Stdin, stdoutFile(env), time.Second).Kitty:
		d.ok("kitty graphics", "yes: previews are real images")
	default:
		d.ok("kitty graphics", "no: previews are drawn with half blocks")
	}
	d.ok("clipboard", clipboardReach(env))
}

// clipboardReach says how ctrl+y would reach the clipboard.
func clipboardReach(env Env) string {
	switch {
	case !env.StdoutTTY:
		return "not reachable from here: OSC 52 needs a terminal on stdout"
	case env.Getenv("TMUX") != "":
		s := "OSC 52 through tmux (needs set-clipboard on)"
		if p, err := exec.LookPath("tmux"); err == nil {
			s += ", and tmux load-buffer (" + p + ")"
		} else {
			s += "; tmux is not on PATH, so its paste buffer is not filled"
		}
		return s
	case strings.HasPrefix(env.Getenv("TERM"), "screen"):
		return "OSC 52 through screen"
	case env.Getenv("SSH_TTY") != "":
		return "OSC 52 over SSH to your local terminal, if it allows it"
	}
	return "OSC 52 to the terminal, if it allows it (most do; some ask first)"
}

// doctorFolders reports muse's folders and their permissions.
func (a *app) doctorFolders(d *report, configPath string) {
	if configPath != "" {
		d.ok("config folder", filepath.Dir(configPath)+" ("+describePath(filepath.Dir(configPath))+")")
	}
	if dir, err := sessionsDir(a.env); err != nil {
		d.bad("sessions", err.Error())
	} else {
		desc := describePath(dir)
		if entries, err := os.ReadDir(dir); err == nil {
			n := 0
			for _, e := range entries {
				if strings.HasSuffix(e.Name(), ".jsonl") {
					n++
				}
			}
			desc += ", " + textfmt.Plural(n, "session")
		}
		if fi, err := os.Stat(dir); err == nil && fi.Mode().Perm()&0o077 != 0 {
			d.bad("sessions", dir+" ("+desc+"): others may read it: chmod 700 it")
		} else {
			d.ok("sessions", dir+" ("+desc+")")
		}
		d.ok("images", filepath.Join(filepath.Dir(dir), "images")+" ("+describePath(filepath.Join(filepath.Dir(dir), "images"))+")")
	}
	if dir, err := dirs.CacheDir(a.env.dirGetenv(), a.env.goos); err == nil {
		d.ok("search index", dir+" ("+describePath(dir)+"; derived from the sessions, rebuilt when gone)")
	}
	if dir, err := dirs.LockDir(a.env.dirGetenv(), a.env.goos); err == nil {
		d.ok("session locks", dir+" ("+describePath(dir)+")")
	}
	if p, err := debugLogPath(a.env); err != nil {
		d.ok("debug log", "nowhere: "+err.Error())
	} else {
		d.ok("debug log", p+" ("+describePath(p)+"; --debug or MUSE_DEBUG=1 writes it)")
	}
	if _, err := a.env.baseDir(dirs.DataBase); err != nil {
		d.bad("data folder", err.Error())
	}
}

// doctorMCP starts each MCP server of the profile and of --mcp-config, in
// parallel, each within the start-up time limit, and reports its tools or
// why it failed, with the end of what it wrote on standard error; then it
// stops them. servers and serversErr are what mcpServers gave.
func (a *app) doctorMCP(d *report, prof *cfgfile.Profile, c *config, servers []mcp.Server, serversErr error) {
	var mgr *mcp.Manager
	err := serversErr
	if err == nil {
		mgr, err = mcpManager(&a.f, prof, c, a.env, servers)
	}
	switch {
	case err != nil:
		for _, l := range errorLines(err) {
			d.bad("servers", l)
		}
		return
	case mgr == nil:
		d.ok("servers", "none (--mcp-config FILE, or [profiles.NAME.mcp.SERVER] in a profile)")
		return
	}
	defer mgr.Close()
	names := mgr.Names()
	took := make([]time.Duration, len(names))
	var wg sync.WaitGroup
	for i, name := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			start := time.Now()
			_ = mgr.Start(context.Background(), name) // Status says how it went
			took[i] = time.Since(start)
		}()
	}
	wg.Wait()
	for i, st := range mgr.Status() {
		from := st.Type + ", " + st.Where
		if st.State != mcp.Ready {
			d.bad(st.Name, fmt.Sprintf("failed after %s (%s): %s: fix its entry in %s, or remove it", seconds(took[i]), st.Type, st.Err, st.Where))
			for _, l := range mcp.StderrLines(st.Stderr, doctorStderrLines) {
				d.more("stderr: " + l)
			}
			continue
		}
		d.ok(st.Name, fmt.Sprintf("ready in %s (%s): %s", seconds(took[i]), from, textfmt.Plural(len(st.Tools), "tool")))
		if len(st.Tools) > 0 {
			d.more(strings.Join(st.Tools, ", "))
		}
		for _, n := range st.Skipped {
			d.more(n)
		}
	}
}

// doctorStderrLines is how many of the last lines a failed MCP server
// wrote on standard error muse doctor shows.
const doctorStderrLines = 8

// seconds writes d as "0.8 s".
func seconds(d time.Duration) string {
	return fmt.Sprintf("%.1f s", d.Seconds())
}

// describePath says whether path exists, what it is and its permissions.
func describePath(path string) string {
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "not there yet"
	case err != nil:
		return "cannot look: " + err.Error()
	case fi.IsDir():
		return fmt.Sprintf("folder, %04o", fi.Mode().Perm())
	}
	return fmt.Sprintf("%04o, %d bytes", fi.Mode().Perm(), fi.Size())
}

// profileName names a colour profile.
func profileName(p termenv.Profile) string {
	switch p {
	case termenv.TrueColor:
		return "true colour (24-bit)"
	case termenv.ANSI256:
		return "256 colours"
	case termenv.ANSI:
		return "16 colours"
	}
	return "no colour"
}

// report writes the lines of muse doctor: a label, then what was found,
// marked ✗ when it is a problem.
type report struct {
	w      io.Writer
	failed bool
	// width, when above 0, is the terminal's: values wrap at words under
	// their column instead of where the terminal cuts them.
	width int
}

func (r *report) section(name string) { fmt.Fprintf(r.w, "\n%s\n", name) }

// line writes "mark label  text", text sanitized and wrapped to width,
// every text in one column: a label wider than its column (an MCP
// server's name) has its text on the next line.
func (r *report) line(mark, label, text string) {
	text = sanitize.Line(text)
	const labelW = 16
	const indent = labelW + 3 // the mark, the label's column and a space
	if r.width-indent >= 20 {
		text = strings.ReplaceAll(textfmt.Wrap(text, r.width-indent), "\n", "\n"+strings.Repeat(" ", indent))
	}
	label = sanitize.Line(label)
	if w := textfmt.Width(label); w > labelW {
		label += "\n" + strings.Repeat(" ", indent-1)
	} else {
		label += strings.Repeat(" ", labelW-w)
	}
	fmt.Fprintf(r.w, "%s %s %s\n", mark, label, text)
}

func (r *report) ok(label, text string) { r.line(" ", label, text) }

func (r *report) bad(label, text string) {
	r.failed = true
	r.line("✗", label, text)
}

// more writes a line that goes on with the one before.
func (r *report) more(text string) { r.line(" ", "", text) }
