package cli

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi"
	"github.com/spf13/cobra"

	"muse/session"
	"muse/session/transcript"
	"muse/ui/sanitize"
	"muse/ui/textfmt"
)

// sessionsCmd is "muse sessions" and its commands.
func (a *app) sessionsCmd() *cobra.Command {
	cmd := &cobra.Command{
		Use: "sessions",
		Example: `  muse sessions list --json
  muse sessions export 20261122-0415 --format json -o talk.json
  muse sessions import talk.json`,
		Args: cobra.ArbitraryArgs,
	}
	list := &cobra.Command{
		Use:   "list",
		Short: "id, title, updated, messages and model of each session, newest first",
		Args:  noArgs,
	}
	asJSON := list.Flags().Bool("json", false, "print JSON: an array of id, title, created, updated, messages, model, and damaged for a journal that cannot be loaded")
	list.RunE = a.withStore(func(store *session.Store, _ []string) int {
		return listSessions(a.env, store, *asJSON)
	})

	show := &cobra.Command{
		Use:               "show ID",
		Short:             "print a session's transcript",
		Args:              needArgs(1, "show ID"),
		ValidArgsFunction: a.completeSessionArg,
	}
	showAll := show.Flags().Bool("all-branches", false, "print every branch, not only the active one")
	show.RunE = a.withStore(func(store *session.Store, args []string) int {
		sess, err := findAndLoad(store, args[0])
		if err != nil {
			return fail(a.env, err)
		}
		write := transcript.Text
		if *showAll {
			write = transcript.TextBranches
		}
		// Sanitized as a stream, as it is written: a long session is
		// never held whole a second time.
		out := &cleanOut{w: a.env.Stdout, clean: sanitize.Stream{Plain: !a.env.StdoutTTY}}
		if err := write(sess, out); err != nil {
			return fail(a.env, err)
		}
		if err := out.Flush(); err != nil {
			return fail(a.env, fmt.Errorf("show session %s: %w", sess.ID, err))
		}
		return ExitOK
	})

	exp := &cobra.Command{
		Use:   "export ID",
		Short: "write a session as markdown, JSON or an HTML page, to stdout or a new file",
		Long: `Write a session as markdown, JSON or one self-contained HTML page, to standard
output (a page not to a terminal) or, with -o, to a new file (0600). -o
refuses an existing FILE unless --force. The page (--format html) holds every branch and its images, and
loads nothing from anywhere; --redact masks what looks like a secret.`,
		Args:              needArgs(1, "export ID [--format md|json|html] [-o FILE]"),
		ValidArgsFunction: a.completeSessionArg,
	}
	format := exp.Flags().String("format", "md", "export format: md, json or html")
	pageOpts := pageFlags(exp)
	out := exp.Flags().StringP("output", "o", "", "write the export to `FILE`")
	force := exp.Flags().Bool("force", false, "let -o replace an existing FILE")
	expAll := exp.Flags().Bool("all-branches", false, "every branch: in markdown after the active one, in JSON as a tree that import rebuilds")
	exp.RunE = a.withStore(func(store *session.Store, args []string) int {
		if *format != "md" && *format != "json" && *format != "html" {
			return fail(a.env, usagef("--format must be md, json or html, got %q", *format))
		}
		for _, name := range []string{"max-image-px", "redact", "no-thinking", "no-tools"} {
			if *format != "html" && exp.Flags().Changed(name) {
				return fail(a.env, usagef("--%s is for --format html", name))
			}
		}
		if *format == "html" && *out == "" && a.env.StdoutTTY {
			// A page is tens of kilobytes of markup: on a terminal it is
			// noise, as git refuses to print a binary diff there.
			id, file := shellQuote(sanitize.Line(args[0])), shellQuote(sanitize.Line(args[0])+".html")
			return fail(a.env, usagef("--format html writes a whole page, not for a terminal: name a file with %[1]s sessions export %[2]s --format html -o %[3]s (or redirect: > %[3]s)", cmdName(a.env), id, file))
		}
		sess, err := findAndLoad(store, args[0])
		if err != nil {
			return fail(a.env, err)
		}
		if *format == "html" {
			return a.exportPage(store, sess, pageOpts, *out, *force)
		}
		return export(a.env, store, sess, *format, *out, *force, *expAll)
	})

	open := a.openCmd()

	fork := &cobra.Command{
		Use:   "fork ID",
		Short: "copy a session's active branch, up to message N, into a new session; prints its id",
		Long: `Copy the active branch of a session, up to and including message N (all of
it by default), into a new session, which records where it came from. Prints
the new session's id; continue it with muse -r ID.`,
		Args:              needArgs(1, "fork ID [--at N] [--title T]"),
		ValidArgsFunction: a.completeSessionArg,
	}
	at := fork.Flags().Int("at", 0, "copy up to message `N` of the active branch (from 1; 0 copies all)")
	forkTitle := fork.Flags().String("title", "", "the new session's `TITLE` (default: the old one, marked as a fork)")
	fork.RunE = a.withStore(func(store *session.Store, args []string) int {
		if *at < 0 {
			return fail(a.env, usagef("--at must be a message number from 1, got %d", *at))
		}
		info, err := store.Find(args[0])
		if err != nil {
			return fail(a.env, err)
		}
		sess, err := store.Fork(info.ID, *at, *forkTitle)
		if err != nil {
			return fail(a.env, err)
		}
		fmt.Fprintln(a.env.Stdout, sess.ID)
		return ExitOK
	})

	imp := &cobra.Command{
		Use:   "import FILE|-",
		Short: "merge a session exported with --format json into the one it came from, or save it as a new one; - reads stdin",
		Long: `Import a session that muse sessions export --format json wrote. When this
muse holds the session it was exported from (the same id), the export is
merged into it: entries it lacks are added as branches where they belong,
and nothing of it is changed or lost. Otherwise, or with --copy, it is saved
as a new session, titled "… (imported)".`,
		Args: needArgs(1, "import FILE|- (a file written by muse sessions export --format json)"),
	}
	importCopy := imp.Flags().Bool("copy", false, "save it as a new session even when this muse holds the one it was exported from")
	imp.RunE = a.withStore(func(store *session.Store, args []string) int {
		return importSession(a.env, store, args[0], *importCopy)
	})

	rename := &cobra.Command{
		Use:               "rename ID TITLE",
		Short:             "give a session a new title",
		Args:              needArgs(2, "rename ID TITLE"),
		ValidArgsFunction: a.completeSessionArg,
	}
	rename.RunE = a.withStore(func(store *session.Store, args []string) int {
		info, err := store.Find(args[0])
		if err != nil {
			return fail(a.env, err)
		}
		title := strings.Join(args[1:], " ")
		if err := store.Rename(info.ID, title); err != nil {
			return fail(a.env, err)
		}
		fmt.Fprintf(a.env.Stdout, "renamed %s to %q\n", info.ID, sanitize.Line(title))
		return ExitOK
	})

	del := &cobra.Command{
		Use:               "delete ID",
		Short:             "delete a session, after asking unless --yes",
		Long:              "Delete a session, after asking unless --yes: its journal, its attachments\n(attachments/ID/) and the images it generated (images/ID/; files you put\nthere yourself stay).",
		Args:              needArgs(1, "delete ID [--yes]"),
		ValidArgsFunction: a.completeSessionArg,
	}
	yes := del.Flags().Bool("yes", false, "delete without asking")
	del.RunE = a.withStore(func(store *session.Store, args []string) int {
		return deleteSession(a.env, store, args[0], *yes)
	})

	search := a.searchCmd()
	subs := []*cobra.Command{list, show, exp, open, imp, fork, rename, del, search}
	cmd.AddCommand(subs...)
	// Named from the commands themselves, so that the lists never miss one.
	all := subNames(subs, "and")
	cmd.Short = all + " saved sessions"
	cmd.Long = strings.ToUpper(all[:1]) + all[1:] + ` the saved sessions.

ID may be a session id, a unique prefix of one, or a title.`
	cmd.RunE = groupRunE(subNames(subs, "or"))
	return cmd
}

// subNames lists the names of cmds, the last after conj: "list, show
// and search".
func subNames(cmds []*cobra.Command, conj string) string {
	names := make([]string, len(cmds))
	for i, c := range cmds {
		names[i] = c.Name()
	}
	return joinNames(names, conj)
}

// withStore returns a command's RunE that opens the session store and runs
// do with it.
func (a *app) withStore(do func(store *session.Store, args []string) int) func(*cobra.Command, []string) error {
	return func(_ *cobra.Command, args []string) error {
		store, err := openStore(a.env)
		if err != nil {
			return err
		}
		return status(do(store, args))
	}
}

// needArgs requires at least n arguments, else says how to call the
// command: "usage: muse sessions " and usage.
func needArgs(n int, usage string) cobra.PositionalArgs {
	return func(_ *cobra.Command, args []string) error {
		if len(args) < n {
			return usagef("usage: muse sessions %s", usage)
		}
		return nil
	}
}

// noArgs refuses arguments.
func noArgs(c *cobra.Command, args []string) error {
	if len(args) > 0 {
		return usagef("%s: unexpected argument %q (see %s --help)", c.CommandPath(), args[0], c.CommandPath())
	}
	return nil
}

// deleteSession deletes the session query names, after asking on stdin
// unless yes.
func deleteSession(env Env, store *session.Store, query string, yes bool) int {
	info, err := store.Find(query)
	if err != nil {
		return fail(env, err)
	}
	if !yes {
		fmt.Fprintf(env.Stderr, "delete session %s %q (%s)? [y/N] ", info.ID, sanitize.Line(info.Title), textfmt.Plural(info.Messages, "message"))
		answer, _ := bufio.NewReader(orEmpty(env.Stdin)).ReadString('\n')
		if a := strings.ToLower(strings.TrimSpace(answer)); a != "y" && a != "yes" {
			fmt.Fprintln(env.Stderr, "kept")
			return ExitFailed
		}
	}
	if err := store.Delete(info.ID); err != nil {
		return fail(env, err)
	}
	fmt.Fprintf(env.Stdout, "deleted %s\n", info.ID)
	return ExitOK
}

// cleanOut writes to w what is written to it, sanitized as a stream (an
// escape sequence split between two writes is removed whole); Flush
// writes what the stream holds back at the end.
type cleanOut struct {
	w     io.Writer
	clean sanitize.Stream
}

func (o *cleanOut) Write(p []byte) (int, error) {
	if _, err := io.WriteString(o.w, o.clean.Write(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// Flush writes what is held back.
func (o *cleanOut) Flush() error {
	_, err := io.WriteString(o.w, o.clean.Flush())
	return err
}

func findAndLoad(store *session.Store, query string) (*session.Session, error) {
	info, err := store.Find(query)
	if err != nil {
		return nil, err
	}
	return store.Load(info.ID)
}

// printSessions prints infos as "muse sessions list" does.
func printSessions(env Env, infos []session.Info, asJSON bool) int {
	if asJSON {
		if infos == nil {
			infos = []session.Info{} // [], not null
		}
		data, err := json.Marshal(infos)
		if err != nil {
			return fail(env, err)
		}
		// Titles are stored text: escape the runes encoding/json leaves raw.
		env.Stdout.Write(append(sanitize.JSON(data), '\n'))
		return ExitOK
	}
	if len(infos) == 0 {
		fmt.Fprintln(env.Stderr, "no sessions yet: run muse to start one")
		return ExitOK
	}
	// On a terminal the titles give way, down to 12 columns, so that the
	// other columns fit its width.
	// Titles and models are measured and cut as shown: sanitized.
	shown := make([][2]string, len(infos))
	for i, in := range infos {
		shown[i] = [2]string{sanitize.Line(in.Title), sanitize.Line(in.Model)}
	}
	titles, models := 48, 0
	if w := ttyWidth(env); w > 0 {
		models = 24 // a long model name does not take the titles' room
		idw, model, date := len("MESSAGES"), len("MODEL"), len("UPDATED")
		for i, in := range infos {
			idw, model = max(idw, len(in.ID)), max(model, min(utf8.RuneCountInString(shown[i][1]), models))
			date = max(date, len(in.UpdatedText("2006-01-02 15:04")))
		}
		titles = min(titles, max(12, w-(idw+2)-(date+2)-(len("MESSAGES")+2)-model-2))
	}
	rows := make([][]string, 0, len(infos)+1)
	rows = append(rows, []string{"ID", "TITLE", "UPDATED", "MESSAGES", "MODEL"})
	for i, in := range infos {
		rows = append(rows, []string{in.ID, truncate(shown[i][0], titles),
			in.UpdatedText("2006-01-02 15:04"), strconv.Itoa(in.Messages), cut(shown[i][1], models)})
	}
	if err := writeTable(env.Stdout, rows, ttyWidth(env)); err != nil {
		return fail(env, fmt.Errorf("write the list: %w", err))
	}
	return ExitOK
}

// writeTable writes rows as columns, as text/tabwriter does with a
// padding of two spaces: each cell but the last of its row padded with
// spaces to the widest of its column, plus two, measured in the columns
// the terminal draws (textfmt.Width: 東京 and 👍🏽 take two each, where
// tabwriter counts runes), and no blanks at the end of a line. A width above 0,
// a terminal's, cuts each line to it with "…" (the cells may hold escape
// sequences that mark text), so that no row wraps. It is the most of the
// time of a long list, and is buffered.
func writeTable(w io.Writer, rows [][]string, width int) error {
	var widths []int
	for _, row := range rows {
		for i, cell := range row[:max(len(row)-1, 0)] {
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], textfmt.Width(cell))
		}
	}
	out := bufio.NewWriterSize(w, 64<<10)
	var line strings.Builder
	for _, row := range rows {
		line.Reset()
		for i, cell := range row {
			line.WriteString(cell)
			if i < len(row)-1 {
				line.WriteString(strings.Repeat(" ", widths[i]-textfmt.Width(cell)+2))
			}
		}
		text := strings.TrimRight(line.String(), " ")
		if width > 0 {
			text = ansi.Truncate(text, width, "…")
		}
		out.WriteString(text)
		out.WriteByte('\n')
	}
	return out.Flush()
}

// ttyWidth is the width tables are cut to: the terminal's, when standard
// output is one, else 0 (whole lines, for a pipe or a file).
func ttyWidth(env Env) int {
	if !env.StdoutTTY {
		return 0
	}
	return env.Width
}

// cut is truncate, but n 0 keeps s whole.
func cut(s string, n int) string {
	if n <= 0 {
		return s
	}
	return truncate(s, n)
}

func truncate(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// export writes sess in format to standard output, or to the file out.
// transcript.Export removes the escape sequences of the texts (Markdown) or
// escapes them (JSON), so what it writes is safe on a terminal and in a file.
func export(env Env, store *session.Store, sess *session.Session, format, out string, force, all bool) int {
	exp := transcript.Export
	if all {
		exp = transcript.ExportBranches
	}
	var files transcript.Files
	if store != nil {
		files = store
	}
	write := func(w io.Writer) error { return exp(sess, format, w, sanitize.ForExport, files) }
	if out == "" || out == "-" {
		if err := write(env.Stdout); err != nil {
			return fail(env, err)
		}
		return ExitOK
	}
	if err := transcript.WriteFile(out, force, write); err != nil {
		return fail(env, fmt.Errorf("export to %s: %w", out, err))
	}
	fmt.Fprintf(env.Stderr, "exported %s to %s\n", sess.ID, sanitize.Line(out))
	return ExitOK
}

// importSession runs "muse sessions import FILE": it saves the session of
// the export in FILE, or on standard input for "-", as a new session, or
// merges it into the one it came from, and prints its id. It saves the
// export as it reads it (transcript.Save); ctrl+c stops it, and leaves
// nothing of it.
func importSession(env Env, store *session.Store, name string, copy bool) int {
	r, what := env.Stdin, "standard input"
	if name != "-" {
		f, err := os.Open(name)
		if err != nil {
			return fail(env, fmt.Errorf("import: %w", err))
		}
		defer f.Close()
		r, what = f, name
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	defer stop()
	saved, err := transcript.Save(store, &stoppable{ctx: ctx, r: orEmpty(r)}, !copy)
	if err != nil {
		if ctx.Err() != nil {
			return fail(env, fmt.Errorf("%s: the import was interrupted, and nothing of it was saved", what))
		}
		return fail(env, fmt.Errorf("%s: %w", what, err))
	}
	fmt.Fprintln(env.Stdout, saved.ID)
	if saved.Merged {
		fmt.Fprintf(env.Stderr, "merged %s into %s: %s\n", sanitize.Line(what), saved.ID, textfmt.Plural(saved.Entries, "new entry"))
		return ExitOK
	}
	fmt.Fprintf(env.Stderr, "imported %s from %s as %s\n", textfmt.Plural(saved.Entries, "entry"), sanitize.Line(what), saved.ID)
	return ExitOK
}

// stoppable is a reader that fails once ctx is done, even while a read
// waits (standard input at a terminal, a pipe that sends nothing): the
// signal that ends ctx no longer ends muse, so a read that went on waiting
// would keep ctrl+c from stopping the import. Each read is made by a
// goroutine into a buffer of its own; one that still waits when ctx ends
// is left to the process's exit (no read follows it: ctx is done).
type stoppable struct {
	ctx  context.Context
	r    io.Reader
	buf  []byte
	read chan readResult
}

// readResult is what a read of stoppable's reader gave.
type readResult struct {
	data []byte
	err  error
}

func (s *stoppable) Read(p []byte) (int, error) {
	if err := s.ctx.Err(); err != nil {
		return 0, err
	}
	if s.read == nil {
		s.read = make(chan readResult, 1)
	}
	if cap(s.buf) < len(p) {
		s.buf = make([]byte, len(p))
	}
	go func(buf []byte) {
		n, err := s.r.Read(buf)
		s.read <- readResult{buf[:n], err}
	}(s.buf[:len(p)])
	select {
	case res := <-s.read:
		if err := s.ctx.Err(); err != nil {
			return 0, err // stopped: what came with it is not wanted
		}
		return copy(p, res.data), res.err
	case <-s.ctx.Done():
		return 0, s.ctx.Err()
	}
}

// errNoSession says what to do when there is nothing to resume.
var errNoSession = errors.New("no saved session yet: run muse to start one")
