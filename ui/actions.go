package ui

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"muse/session"
	"muse/ui/composer"
	"muse/ui/engine"
	"muse/ui/launch"
	"muse/ui/meter"
	"muse/ui/sessions"
	"muse/ui/slash"
	"muse/ui/themes"
)

// runCommandAfter runs command, typed after the text muse put in the input
// (a failed prompt put back) or kept there (a draft typed while the turn
// that failed ran): the text is kept in the input, for enter to send, but
// after /retry when it is the prompt /retry sends; a command refused
// leaves the input as it was.
func (m Model) runCommandAfter(command, given string) (tea.Model, tea.Cmd) {
	typed := m.comp.Input().Value()
	resent := false // /retry sends given: it leaves the input
	if es := m.conv.Entries(); strings.Fields(command)[0] == "/retry" {
		u := lastIndex(es, session.KindUser)
		resent = u >= 0 && strings.TrimSpace(given) == es[u].Text
	}
	m.comp = m.comp.SetInput(m.comp.Input().SetValue(command))
	next, cmd := m.runCommand(command)
	n, ok := next.(Model)
	if !ok {
		return next, cmd
	}
	switch in := n.comp.Input(); {
	case in.Value() == command: // refused: the notice says why
		n.comp = n.comp.SetInput(in.KeepCommandAfter(typed, given))
	case in.Value() == "" && !resent:
		n.comp = n.comp.SetInput(in.SetValue(given))
	}
	return n.layout(), cmd
}

// waitsForTurn are the commands that wait for the turn in flight to end,
// each with what the status line says after busyNotice: refused while it
// is in flight, the command stays in the input, to be sent again with
// enter once the turn ends, so nothing typed is lost.
var waitsForTurn = map[slash.Action]string{
	slash.ActionRetry:    ": esc cancels it first",
	slash.ActionContinue: ": esc cancels it",
	slash.ActionCompact:  ": esc cancels it first",
	slash.ActionClear:    ": esc cancels it first",
	slash.ActionImage:    ": esc cancels it, or wait for it to end",
}

// runCommand carries out the slash command line, typed in the input. One
// that does not parse, or waits for the turn in flight, stays in the input.
func (m Model) runCommand(line string) (tea.Model, tea.Cmd) {
	res, err := slash.Run(line, m.params, slash.Env{Tools: toolNames(m.opts), ImageAPI: m.opts.ImageAPI})
	if err != nil {
		m.status = m.status.Note(err.Error())
		return m, nil // the command stays in the input to be fixed
	}
	if hint, waits := waitsForTurn[res.Action]; waits && m.turns.Busy() {
		m.status = m.status.Busy(busyNotice + hint)
		return m.layout(), nil
	}
	m.comp = m.comp.SetInput(m.comp.Input().Reset().EndRecall())
	m.status = m.status.Note(res.Notice)
	m = m.layout()
	switch res.Action {
	case slash.ActionSet:
		m.params = res.Params
		return m.layout(), sessions.SaveParams(m.writer, m.params)
	case slash.ActionRetry:
		return m.retry()
	case slash.ActionContinue:
		if !engine.Continuable(m.conv.Entries()) {
			m.status = m.status.Note(engine.ErrNoContinue.Error())
			return m, nil
		}
		return m.startTurn(engine.Turn{Continue: true})
	case slash.ActionCopy:
		return m.copyCommand(res.Arg == "code", res.N)
	case slash.ActionInfo:
		m.status = m.status.Note("")
		info := infoText(m.conv.Entries(), m.usage, m.meter.SetModel(m.params.Model), m.status.Notices().SetSize(m.size.Width).View(), m.params)
		m.conv = m.conv.Note(session.Entry{Kind: session.KindNotice, Text: info}, m.now())
		return m, nil
	case slash.ActionApprove:
		return m.setApproveAll(res.Arg == "all"), nil
	case slash.ActionCompact:
		if len(m.conv.Entries()) == 0 {
			m.status = m.status.Note("nothing to compact yet")
			return m, nil
		}
		// The new branch replaces the view; the old one stays in the session ([ ] on the first prompt goes back).
		cut := m
		cut.conv = cut.conv.Truncate(0)
		return cut.startTurn(engine.Turn{Compact: true, Prompt: res.Arg})
	case slash.ActionContext:
		m.conv = m.conv.Note(session.Entry{Kind: session.KindNotice, Text: m.meter.SetModel(m.params.Model).Context()}, m.now())
		return m, nil
	case slash.ActionClear:
		return m.clear()
	case slash.ActionRename:
		m.title = res.Arg
		m.status = m.status.Note("renamed")
		return m, sessions.SetTitle(m.writer, res.Arg)
	case slash.ActionExport:
		export := exportSession(m.writer, res.Arg, m.now(), m.opts.Secrets)
		return m, func() tea.Msg {
			msg := export().(exportedMsg)
			msg.line = line // put back if it is refused
			return msg
		}
	case slash.ActionSessions:
		next, cmd, _ := m.updateSession(openPickerMsg{})
		return next, cmd
	case slash.ActionImage:
		return m.startImage(res.Arg, imageParams(m.params.Image, m.opts.ImageModel), nil)
	case slash.ActionOpen:
		return m.openImage(res.N)
	case slash.ActionAttach:
		sources, retype, err := attachArg(res.Arg, res.N, m.conv.Entries(), m.writer)
		if err != nil {
			m.status = m.status.Note(err.Error())
			return m, nil
		}
		return m.compose(m.comp.Attach(sources, retype))
	case slash.ActionDetach:
		return m.compose(m.comp.Detach(res.N))
	case slash.ActionMCP:
		return m.mcpCommand(res.Arg)
	case slash.ActionTheme:
		notice, loaded, cmd := themes.Command(res.Arg, m.th, m.opts.Profile)
		if loaded != nil {
			return m.themeLoaded(*loaded)
		}
		if notice != "" {
			m.status = m.status.Note(notice)
		}
		return m, cmd
	case slash.ActionHelp:
		// Into the conversation, where it scrolls, whatever the window's size.
		m.conv = m.conv.Note(session.Entry{Kind: session.KindNotice, Text: m.keys.helpText()}, m.now())
		return m.layout(), nil
	case slash.ActionQuit:
		return m.stopAndQuit()
	case slash.ActionEditSystem:
		return m, editText(m.params.System, editSystem)
	}
	return m.layout(), nil
}

// attachArg is where /attach ARG takes its files from: a path, image n of
// the last image turn of es, or the clipboard's image; retype is the
// command put back into the input if the file is refused.
func attachArg(arg string, n int, es []session.Entry, w *session.Writer) (sources []composer.Source, retype string, err error) {
	switch arg {
	case "image":
		path, err := imagePath(es, n)
		if err != nil {
			return nil, "", err
		}
		return []composer.Source{composer.Image(w, session.Image{Path: path})}, "", nil
	case "clipboard":
		return composer.Clipboard, "", nil
	}
	return []composer.Source{{Path: arg}}, "/attach " + arg, nil
}

// lastIndex returns the index of the last entry of kind, or -1.
func lastIndex(es []session.Entry, kind string) int {
	for i := len(es) - 1; i >= 0; i-- {
		if es[i].Kind == kind {
			return i
		}
	}
	return -1
}

// retry regenerates the reply to the last prompt as a new branch: what
// followed the prompt leaves the view, and stays in the session.
func (m Model) retry() (Model, tea.Cmd) {
	if m.turns.Busy() {
		m.status = m.status.Busy(busyNotice + ": esc cancels it first")
		return m, nil
	}
	es := m.conv.Entries()
	u := lastIndex(es, session.KindUser)
	if u < 0 {
		m.status = m.status.Note("nothing to retry yet: send a prompt first")
		return m, nil
	}
	if strings.TrimSpace(m.comp.Input().Value()) == es[u].Text {
		m.comp = m.comp.SetInput(m.comp.Input().Reset())
	}
	for _, e := range es[u+1:] {
		m.conv = m.conv.Remove(e.ID)
	}
	next, cmd := m.startTurn(engine.Turn{Retry: true})
	next.turns = next.turns.WithPrompt(es[u].Text) // back into the input if the retry fails too
	return next, cmd
}

// copyCommand carries out /copy and the copy key: the last reply, message
// n from the end, or code block n of the last reply (its last when n is
// 0).
func (m Model) copyCommand(code bool, n int) (tea.Model, tea.Cmd) {
	text, what, refused := copyChoice(m.conv.Entries(), code, n)
	if refused != "" {
		m.status = m.status.Note(refused)
		return m, nil
	}
	return m, copyText(m.opts, text, what)
}

// clear starts a new session; the old one stays saved.
func (m Model) clear() (Model, tea.Cmd) {
	if m.turns.Busy() {
		m.status = m.status.Busy(busyNotice + ": esc cancels it first")
		return m, nil
	}
	cmd := sessions.Leave(m.writer)
	w := session.NewWriter(m.opts.Store, m.opts.Params)
	m = m.resumeFrom(w, w.Snapshot())
	m.status = m.status.Note("new session · the last one is saved")
	return m.layout(), cmd
}

// editTarget says what an editor session edits.
type editTarget int

const (
	editPrompt editTarget = iota
	editSystem
)

// editedMsg carries the text back from $EDITOR.
type editedMsg struct {
	target editTarget
	text   string
	err    error
}

// editText opens text in $VISUAL or $EDITOR (vi when neither is set): a
// command writes it to a temporary file, then the editor runs on it.
func editText(text string, target editTarget) tea.Cmd {
	return func() tea.Msg {
		f, err := os.CreateTemp("", "muse-*.md")
		if err != nil {
			return editedMsg{target: target, err: fmt.Errorf("create a file to edit: %w", err)}
		}
		path := f.Name()
		_, werr := f.WriteString(text)
		f.Close()
		if werr != nil {
			os.Remove(path)
			return editedMsg{target: target, err: fmt.Errorf("write %s: %w", path, werr)}
		}
		return editFileMsg{target: target, path: path}
	}
}

// editFileMsg says the text to edit is in path.
type editFileMsg struct {
	target editTarget
	path   string
}

// runEditor runs the editor on the file of msg, through run (tea.Exec or
// the screen's); the program waits for it.
func runEditor(msg editFileMsg, run func(tea.ExecCommand, tea.ExecCallback) tea.Cmd) tea.Cmd {
	editor := os.Getenv("VISUAL")
	if editor == "" {
		editor = os.Getenv("EDITOR")
	}
	if editor == "" {
		editor = "vi"
	}
	args := strings.Fields(editor)
	target, path := msg.target, msg.path
	cmd := exec.Command(args[0], append(args[1:], path)...)
	return run(execCmd{cmd}, func(err error) tea.Msg {
		defer os.Remove(path)
		if err != nil {
			return editedMsg{target: target, err: fmt.Errorf("run %s: %w (set $EDITOR)", args[0], err)}
		}
		data, rerr := os.ReadFile(path)
		if rerr != nil {
			return editedMsg{target: target, err: fmt.Errorf("read back %s: %w", path, rerr)}
		}
		return editedMsg{target: target, text: string(bytes.TrimRight(data, "\n"))}
	})
}

func (m Model) edited(msg editedMsg) (tea.Model, tea.Cmd) {
	if msg.err != nil {
		m.status = m.status.Note(msg.err.Error())
		return m, nil
	}
	switch msg.target {
	case editSystem:
		m.params.System = strings.TrimSpace(msg.text)
		m.status = m.status.Note("system prompt updated" + slash.FromNext)
		if m.params.System == "" {
			m.status = m.status.Note("system prompt cleared" + slash.FromNext)
		}
		return m.layout(), sessions.SaveParams(m.writer, m.params)
	default:
		m.comp = m.comp.SetInput(m.comp.Input().SetValue(msg.text))
		return m.layout(), nil
	}
}

// openImage opens image n of the last image turn in the system viewer; n
// = 0 opens the last image saved, whichever turn saved it.
func (m Model) openImage(n int) (tea.Model, tea.Cmd) {
	path, err := imagePath(m.conv.Entries(), n)
	if err != nil {
		m.status = m.status.Note(err.Error())
		return m, nil
	}
	// Only a file of muse's images folder: the journal may name any file.
	return m, launch.OpenImage(m.opts.imageStore(), path)
}

// stopAndQuit ends what is in flight, keeping and saving it, then quits
// once the engine has saved it.
func (m Model) stopAndQuit() (tea.Model, tea.Cmd) {
	var cmds []tea.Cmd
	if m.turns.Busy() {
		next, cmd := m.cancel()
		m, cmds = next.(Model), append(cmds, cmd)
	}
	next, cmd := m.quit()
	return next, tea.Batch(append(cmds, cmd)...)
}

// execCmd is an *exec.Cmd as a tea.ExecCommand.
type execCmd struct{ *exec.Cmd }

// SetStdin sets the command's standard input.
func (c execCmd) SetStdin(r io.Reader) { c.Stdin = r }

// SetStdout sets the command's standard output.
func (c execCmd) SetStdout(w io.Writer) { c.Stdout = w }

// SetStderr sets the command's standard error.
func (c execCmd) SetStderr(w io.Writer) { c.Stderr = w }

// toolNames are the names of the tools opts offers, for /tool-choice.
func toolNames(opts Options) []string {
	names := make([]string, 0, len(opts.Tools))
	for _, t := range opts.Tools {
		names = append(names, t.Def.Name)
	}
	if opts.MCP != nil {
		names = append(names, opts.MCP.ToolNames()...)
	}
	return names
}

// modelsListedMsg carries the service's models list, read in the
// background: the context windows it gives, for the meter, and the names,
// for /model's completions.
type modelsListedMsg struct {
	windows meter.WindowsMsg
	models  *slash.Models
}
