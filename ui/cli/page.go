package cli

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"muse/session"
	"muse/session/transcript"
	"muse/ui/launch"
	"muse/ui/page"
	"muse/ui/sanitize"
)

// pageFlagValues are the flags of a page: export --format html and open.
type pageFlagValues struct {
	maxImagePx          *int
	redact              *bool
	noThinking, noTools *bool
}

// pageFlags adds the flags of a page to cmd.
func pageFlags(cmd *cobra.Command) pageFlagValues {
	return pageFlagValues{
		maxImagePx: cmd.Flags().Int("max-image-px", 0, "html: scale images down to at most `N` pixels a side (0: as stored)"),
		redact:     cmd.Flags().Bool("redact", false, "html: mask what looks like a secret (API keys, tokens, private keys, muse's credentials)"),
		noThinking: cmd.Flags().Bool("no-thinking", false, "html: leave the replies' thinking out"),
		noTools:    cmd.Flags().Bool("no-tools", false, "html: leave tool calls, their results and server tool blocks out"),
	}
}

// options returns the page's options for a session of store.
func (a *app) pageOptions(store *session.Store, v pageFlagValues) (page.Options, error) {
	if *v.maxImagePx < 0 {
		return page.Options{}, usagef("--max-image-px must be 0 (as stored) or a number of pixels, got %d", *v.maxImagePx)
	}
	opt := page.Options{MaxImagePx: *v.maxImagePx, Redact: *v.redact, NoThinking: *v.noThinking, NoTools: *v.noTools}
	if store != nil {
		opt.Files = store
	}
	if opt.Redact {
		opt.Secrets = a.credentials()
	}
	return opt, nil
}

// credentials returns muse's credentials as the environment holds them
// (MUSE_ACCESS_TOKEN, MUSE_API_KEY and the variables the profiles name),
// for --redact to mask. A credential command is not run for it.
func (a *app) credentials() []string {
	var out []string
	for _, n := range a.credentialNames() {
		if v := a.env.Getenv(n); v != "" {
			out = append(out, v)
		}
	}
	return out
}

// credentialNames lists the variables that hold muse's credentials: its
// own and those every profile of the configuration file names.
func (a *app) credentialNames() []string {
	var names []string
	if file, err := loadConfigFile(a.f.configPath, a.env); err == nil {
		names = namesOf(file).cred
	}
	return secretEnv(names)
}

// childNames lists the variables no child of a command outside the chat
// gets: muse's credentials and what any profile's MCP servers name (but
// the variables muse reads itself, see serverOnly).
func (a *app) childNames() []string {
	var names fileNames
	if file, err := loadConfigFile(a.f.configPath, a.env); err == nil {
		names = namesOf(file)
	}
	return names.childDrop()
}

// exportPage runs "muse sessions export --format html": the page of sess
// to standard output, or to the new file out.
func (a *app) exportPage(store *session.Store, sess *session.Session, v pageFlagValues, out string, force bool) int {
	opt, err := a.pageOptions(store, v)
	if err != nil {
		return fail(a.env, err)
	}
	write := func(w io.Writer) error { return page.Write(w, sess, opt) }
	if out == "" || out == "-" {
		if err := write(a.env.Stdout); err != nil {
			return fail(a.env, err)
		}
		return ExitOK
	}
	if err := transcript.WriteFile(out, force, write); err != nil {
		return fail(a.env, fmt.Errorf("export to %s: %w", out, err))
	}
	fmt.Fprintf(a.env.Stderr, "exported %s to %s\n", sess.ID, sanitize.Line(out))
	return ExitOK
}

// openCmd is "muse sessions open ID": the page of a session, written to a
// file of its own in the temporary folder and opened in the browser.
func (a *app) openCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use:   "open ID",
		Short: "write a session as an HTML page to a temporary file and open it in the browser",
		Long: `Write a session as one self-contained HTML page (as export --format html does)
to a new file (0600) in the temporary folder, print its path, and open it in
the system's browser. Nothing is uploaded.`,
		Args:              needArgs(1, "open ID"),
		ValidArgsFunction: a.completeSessionArg,
	}
	v := pageFlags(cmd)
	cmd.RunE = a.withStore(func(store *session.Store, args []string) int {
		sess, err := findAndLoad(store, args[0])
		if err != nil {
			return fail(a.env, err)
		}
		opt, err := a.pageOptions(store, v)
		if err != nil {
			return fail(a.env, err)
		}
		path, err := writePageTemp(sess, opt)
		if err != nil {
			return fail(a.env, err)
		}
		fmt.Fprintln(a.env.Stdout, path)
		if a.env.own { // the browser muse starts gets no credential of muse's, nor an MCP server's
			guardSecrets(a.childNames(), nil)
		}
		if err := openPage(path); err != nil {
			return fail(a.env, err)
		}
		return ExitOK
	})
	return cmd
}

// openPage opens a page in the browser; tests replace it.
var openPage = defaultOpenPage

// defaultOpenPage opens a page as /open opens an image.
var defaultOpenPage = launch.Open

// writePageTemp writes the page of sess to a new file, 0600, in a folder of
// its own (0700) in the temporary folder, and returns its path.
func writePageTemp(sess *session.Session, opt page.Options) (string, error) {
	dir, err := os.MkdirTemp("", "muse-page-")
	if err != nil {
		return "", fmt.Errorf("open session %s: %w", sess.ID, err)
	}
	path := dir + string(os.PathSeparator) + "muse-" + sess.ID + ".html"
	if err := transcript.WriteFile(path, false, func(w io.Writer) error { return page.Write(w, sess, opt) }); err != nil {
		os.Remove(dir)
		return "", fmt.Errorf("open session %s: %w", sess.ID, err)
	}
	return path, nil
}
