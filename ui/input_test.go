package ui

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"

	"muse/session"
	"muse/session/prompts"
	"muse/ui/sanitize"
)

// lockedBuffer is a clipboard sink the copy command writes from its goroutine.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

func TestCopyLastReplyOSC52(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		want string
	}{
		{"plain", map[string]string{}, "\x1b]52;c;"},
		{"screen", map[string]string{"TERM": "screen-256color"}, "\x1bP\x1b]52;c;"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h := newHarness(t, 0)
			m := h.model(t, nil)
			clip := &lockedBuffer{}
			m.opts.Terminal = clip
			m.opts.Getenv = func(k string) string { return tc.env[k] }
			tm := start(t, m, 80, 24)
			send(tm, "hello")
			waitFor(t, tm, "stop end_turn")
			tm.Send(tea.KeyMsg{Type: tea.KeyCtrlY})
			waitFor(t, tm, "copied")
			final := quit(t, tm)
			reply := final.conv.Entries()[1].Message.Text()
			got := strings.ReplaceAll(clip.String(), "\x1b\\\x1bP", "") // screen splits the sequence in chunks
			if !strings.HasPrefix(got, tc.want) || !strings.Contains(got, base64.StdEncoding.EncodeToString([]byte(reply))) {
				t.Errorf("clipboard got %q, want %q + base64 of the reply", got, tc.want)
			}
		})
	}
}

func TestPromptRecallAcrossSessions(t *testing.T) {
	h := newHarness(t, 0)
	hist, err := prompts.Open(filepath.Join(t.TempDir(), "prompts.jsonl"), 100)
	if err != nil {
		t.Fatal(err)
	}
	hist.Add("old-session", "from another session")
	m := h.modelWith(t, nil, func(o *Options) { o.Prompts = hist })
	tm := start(t, m, 80, 24)
	send(tm, "first prompt")
	waitFor(t, tm, "stop end_turn")
	up := tea.KeyMsg{Type: tea.KeyUp}
	tm.Send(up)
	waitFor(t, tm, "› first prompt")
	tm.Send(up)
	waitFor(t, tm, "› from another session")
	tm.Send(tea.KeyMsg{Type: tea.KeyDown})
	final := quit(t, tm)
	if v := final.comp.Input().Value(); v != "first prompt" {
		t.Errorf("after up, up, down the input is %q", v)
	}
	if got := hist.Prompts(); len(got) != 2 || got[1] != "first prompt" {
		t.Errorf("history %q", got)
	}
}

func TestPasteMultiLineDoesNotSend(t *testing.T) {
	h := newHarness(t, 0)
	tm := start(t, h.model(t, nil), 80, 24)
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("line one\nline two"), Paste: true})
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlJ})
	tm.Type("three")
	final := quit(t, tm)
	if v := final.comp.Input().Value(); v != "line one\nline two\nthree" {
		t.Errorf("input %q", v)
	}
	if n := len(final.conv.Entries()); n != 0 {
		t.Errorf("%d entries: the paste was sent", n)
	}
}

func TestRetryReplacesTheLastReply(t *testing.T) {
	h := newHarness(t, 0)
	tm := start(t, h.model(t, nil), 80, 30)
	// The demo refuses the first request of this prompt with a 429.
	send(tm, "demo:ratelimit first")
	waitFor(t, tm, "rate_limit_error")
	// The failed prompt is back in the input; /retry sends it again instead.
	for range "demo:ratelimit first" {
		tm.Send(tea.KeyMsg{Type: tea.KeyBackspace})
	}
	send(tm, "/retry")
	waitFor(t, tm, "stop end_turn")
	final := quit(t, tm)
	es := final.conv.Entries()
	if len(es) != 2 || es[0].Kind != session.KindUser || es[1].Kind != session.KindAssistant || es[1].Message.Text() == "" {
		t.Fatalf("entries after /retry: %+v", es)
	}
	if final.comp.Input().Value() != "" {
		t.Errorf("input %q after /retry", final.comp.Input().Value())
	}
	sess, err := h.store.Latest()
	if err != nil {
		t.Fatal(err)
	}
	if len(sess.Entries) != 2 || sess.Entries[1].ID != es[1].ID || sess.Entries[1].Kind != session.KindAssistant {
		t.Errorf("saved entries %+v, want the prompt and the new reply", sess.Entries)
	}
}

func TestEditorFillsTheInput(t *testing.T) {
	dir := t.TempDir()
	script := filepath.Join(dir, "editor.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nprintf 'written in the editor' > \"$1\"\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("VISUAL", "")
	t.Setenv("EDITOR", script)
	h := newHarness(t, 0)
	tm := start(t, h.model(t, nil), 80, 24)
	tm.Type("draft")
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlX})
	waitFor(t, tm, "written in the editor") // drawn: the model holds it, and quit comes after
	final := quit(t, tm)
	if v := final.comp.Input().Value(); v != "written in the editor" {
		t.Errorf("input %q", v)
	}
}

func TestCopyInsideTmuxFillsItsBuffer(t *testing.T) {
	dir := t.TempDir()
	got := filepath.Join(dir, "buffer")
	script := "#!/bin/sh\n[ \"$1 $2 $3\" = \"load-buffer -w -\" ] || exit 9\ncat > " + got + "\n"
	if err := os.WriteFile(filepath.Join(dir, "tmux"), []byte(script), 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	clip := &lockedBuffer{}
	m := Model{common: &common{opts: Options{Terminal: clip, Getenv: func(k string) string {
		if k == "TMUX" {
			return "/tmp/tmux-0/default,1,0"
		}
		return ""
	}}}}
	msg := copyText(m.opts, "copied text", "text")()
	if cm := msg.(copiedMsg); cm.err != nil || cm.chars != 11 {
		t.Fatalf("copy: %+v", cm)
	}
	if data, err := os.ReadFile(got); err != nil || string(data) != "copied text" {
		t.Errorf("tmux buffer got %q, %v", data, err)
	}
	if !strings.HasPrefix(clip.String(), "\x1bPtmux;\x1b\x1b]52;c;") {
		t.Errorf("OSC 52 not wrapped for tmux: %q", clip.String())
	}
}

func TestHelpCommandListsEverything(t *testing.T) {
	h := newHarness(t, 0)
	tm := start(t, h.model(t, nil), 60, 20)
	send(tm, "/help")
	final := quit(t, tm)
	es := final.conv.Entries()
	if len(es) != 1 || es[0].Kind != session.KindNotice {
		t.Fatalf("entries %+v", es)
	}
	for _, want := range []string{"ctrl+c", "pgup/wheel", "/temperature X", "/tool-choice", "/image [PROMPT]", "/quit",
		"ctrl+a", "start of the line", "ctrl+e", "end of the line", "clear the input", "ctrl+↑", "shift+drag", "--no-mouse", "mouse = false"} {
		if !strings.Contains(es[0].Text, want) {
			t.Errorf("/help lacks %q", want)
		}
	}
}

// A prompt longer than the width wraps, and the input grows with it: the
// conversation gives it the rows, and the screen keeps its height (the
// input's own drawing is tested in ui/input).
func TestInputGrowsWithWrappedRows(t *testing.T) {
	h := newHarness(t, 0)
	m := h.model(t, nil)
	m, _ = updateModel(m, tea.WindowSizeMsg{Width: 40, Height: 30})
	m, _ = updateModel(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(strings.Repeat("word ", 20) + "end")})
	if m.comp.Input().Height() != 3 {
		t.Errorf("input is %d rows high, want 3 for 103 characters at 40 columns", m.comp.Input().Height())
	}
	if !strings.Contains(m.View(), "› word") {
		t.Errorf("the input does not show:\n%s", m.View())
	}
	if n := strings.Count(m.View(), "\n") + 1; n != 30 {
		t.Errorf("view has %d lines, want 30", n)
	}
}

// ctrl+c with a draft clears it into the prompt history, where ↑ finds it;
// on an empty input ctrl+c quits.
func TestCtrlCKeepsTheDraft(t *testing.T) {
	h := newHarness(t, 0)
	hist, err := prompts.Open(filepath.Join(t.TempDir(), "prompts.jsonl"), 100)
	if err != nil {
		t.Fatal(err)
	}
	m := h.modelWith(t, nil, func(o *Options) { o.Prompts = hist })
	tm := start(t, m, 80, 24)
	tm.Type("a half-written thought")
	waitFor(t, tm, "half-written thought")
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC})
	waitFor(t, tm, "input cleared · ↑ brings it back")
	tm.Send(tea.KeyMsg{Type: tea.KeyUp})
	waitFor(t, tm, "› a half-written thought")
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC}) // clears it again
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC}) // empty: asks for a second
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlC}) // the second, at once: quits
	final := finalModel(t, tm)
	if v := final.comp.Input().Value(); v != "" {
		t.Errorf("input %q after ctrl+c", v)
	}
	if got := hist.Prompts(); len(got) != 1 || got[0] != "a half-written thought" {
		t.Errorf("history %q, want the draft once", got)
	}
	if n := len(final.conv.Entries()); n != 0 {
		t.Errorf("%d entries: the draft was sent", n)
	}
}

// ctrl+a and ctrl+e move to the start and the end of the line.
func TestLineStartAndEnd(t *testing.T) {
	h := newHarness(t, 0)
	m := h.model(t, nil)
	m, _ = updateModel(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	for _, k := range []tea.KeyMsg{
		{Type: tea.KeyRunes, Runes: []rune("middle")},
		{Type: tea.KeyCtrlA}, {Type: tea.KeyRunes, Runes: []rune("<")},
		{Type: tea.KeyCtrlE}, {Type: tea.KeyRunes, Runes: []rune(">")},
	} {
		m, _ = updateModel(m, k)
	}
	if v := m.comp.Input().Value(); v != "<middle>" {
		t.Errorf("input %q, want <middle>", v)
	}
}

// Typing "/" opens the menu of commands with their help, filtered as the
// name is typed; ↓ and ↑ move its mark (round the ends), tab takes the
// marked command with a space for its argument; esc closes the menu
// before it cancels anything.
func TestCommandMenu(t *testing.T) {
	h := newHarness(t, 0)
	m := h.model(t, nil)
	m, _ = updateModel(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	typeText := func(s string) {
		for _, r := range s {
			m, _ = updateModel(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}})
		}
	}
	tab := tea.KeyMsg{Type: tea.KeyTab}
	typeText("/ex")
	if v := m.View(); !strings.Contains(v, "▸ /extend on|off") || !strings.Contains(v, "  /export [") || !strings.Contains(v, "save this session") {
		t.Errorf("the menu does not list /extend and /export with their help:\n%s", v)
	}
	m, _ = updateModel(m, tea.KeyMsg{Type: tea.KeyDown})
	if v := m.View(); !strings.Contains(v, "▸ /export") {
		t.Errorf("↓ did not mark /export:\n%s", v)
	}
	m, _ = updateModel(m, tea.KeyMsg{Type: tea.KeyDown}) // round to the first
	m, _ = updateModel(m, tea.KeyMsg{Type: tea.KeyUp})   // and back to the last
	m, _ = updateModel(m, tab)
	if v := m.comp.Input().Value(); v != "/export " {
		t.Errorf("tab took %q, want /export", v)
	}
	// esc closes the menu; the text stays.
	m.comp = m.comp.SetInput(m.comp.Input().Reset())
	typeText("/ex")
	m, _ = updateModel(m, tea.KeyMsg{Type: tea.KeyEsc})
	if v := m.View(); strings.Contains(v, "/extend") || m.comp.Input().Value() != "/ex" {
		t.Errorf("after esc, input %q and view:\n%s", m.comp.Input().Value(), v)
	}

	m.comp = m.comp.SetInput(m.comp.Input().Reset())
	typeText("/ret")
	m, _ = updateModel(m, tab)
	if v := m.comp.Input().Value(); v != "/retry " {
		t.Errorf("tab on /ret gave %q, want %q", v, "/retry ")
	}
}

// Esc goes from the inside out: it closes the help, then the hint of a
// command, and only then cancels the reply in flight.
func TestEscClosesOverlaysBeforeCancelling(t *testing.T) {
	h, hd := newHeldHarness(t, "a long one") // the reply is in flight until let
	tm := start(t, h.modelWith(t, nil, shortReplies), 80, 30)
	send(tm, "a long one")
	waitFor(t, tm, "There are a few") // the reply's first words
	ht := hd.held(t)
	tm.Type("?")
	waitFor(t, tm, "esc closes")
	tm.Send(tea.KeyMsg{Type: tea.KeyEsc}) // closes the help
	tm.Type("/te")
	waitFor(t, tm, "sampling temperature")
	tm.Send(tea.KeyMsg{Type: tea.KeyEsc}) // closes the hint; Send returns once the loop has taken it
	ht.let(t)
	waitSaved(t, h.store, session.KindAssistant)
	final := quit(t, tm)
	es := final.conv.Entries()
	if last := es[len(es)-1]; last.Status != session.StatusComplete {
		t.Errorf("the reply ended %q: esc cancelled it instead of closing the hint", last.Status)
	}
}

// Enter on the prompt a failed request put back retries that turn: the
// session holds the prompt once.
func TestEnterRetriesAFailedPrompt(t *testing.T) {
	h := newHarness(t, 0)
	tm := start(t, h.model(t, nil), 80, 30)
	// The demo refuses the first request of this prompt with a 429.
	send(tm, "demo:ratelimit once")
	waitFor(t, tm, "the prompt is back in the input")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "stop end_turn")
	final := quit(t, tm)
	es := final.conv.Entries()
	if len(es) != 2 || es[0].Kind != session.KindUser || es[1].Kind != session.KindAssistant {
		t.Errorf("entries on screen: %+v", es)
	}
	sess, err := h.store.Latest()
	if err != nil {
		t.Fatal(err)
	}
	users := 0
	for _, e := range sess.All {
		if e.Kind == session.KindUser {
			users++
		}
	}
	if users != 1 || len(sess.Entries) != 2 || sess.Entries[1].Kind != session.KindAssistant {
		t.Errorf("saved %d user entries and the branch %+v; want the prompt once, then the reply", users, sess.Entries)
	}
}

// Selection mode: ctrl+↑ selects the last message, ↑ moves up, y copies the
// selected message's markdown and c its code blocks one after another; esc
// goes back to the input.
func TestSelectionCopiesMessagesAndCode(t *testing.T) {
	h := newHarness(t, 0)
	m := h.model(t, nil)
	clip := &lockedBuffer{}
	m.opts.Terminal = clip
	tm := start(t, m, 80, 30)
	send(tm, "show me some go code")
	waitFor(t, tm, "stop end_turn")
	copied := func(want, text string) {
		t.Helper()
		waitFor(t, tm, want)
		if enc := base64.StdEncoding.EncodeToString([]byte(text)); !strings.Contains(clip.String(), enc) {
			t.Errorf("%s: the clipboard did not get %q", want, text)
		}
	}
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlUp})
	waitFor(t, tm, "selected: reply, 2 of 2")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("c")})
	copied("copied code block 1 of", "package main")
	tm.Send(tea.KeyMsg{Type: tea.KeyUp, Alt: true}) // alt+↑ moves too
	waitFor(t, tm, "selected: prompt, 1 of 2")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("y")})
	copied("copied the prompt as markdown", "show me some go code")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("x")}) // does nothing here
	tm.Send(tea.KeyMsg{Type: tea.KeyEsc})
	tm.Type("typed")
	waitFor(t, tm, "› typed")
	final := quit(t, tm)
	if final.sel.Active() || final.conv.Selected() != "" || final.comp.Input().Value() != "typed" {
		t.Errorf("after esc: selection %+v, input %q", final.sel, final.comp.Input().Value())
	}
	reply := final.conv.Entries()[1].Message.Text()
	blocks := codeBlocks(reply)
	if len(blocks) == 0 || !strings.Contains(clip.String(), base64.StdEncoding.EncodeToString([]byte(blocks[0].text))) {
		t.Errorf("code block 1 %q not copied whole", blocks)
	}
}

func TestCodeBlocks(t *testing.T) {
	md := "Intro\n\n```go\npackage main\n\nfunc main() {}\n```\n\ntext\n\n~~~\nplain\n~~~\n\n    ```not a fence (indented)\n\n````md\n```inner```\n````\n\n```sh\nunclosed"
	got := codeBlocks(md)
	want := []codeBlock{{"go", "package main\n\nfunc main() {}"}, {"", "plain"}, {"md", "```inner```"}, {"sh", "unclosed"}}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("codeBlocks = %q, want %q", got, want)
	}
}

func TestCopyCommand(t *testing.T) {
	h := newHarness(t, 0)
	m := h.model(t, nil)
	clip := &lockedBuffer{}
	m.opts.Terminal = clip
	tm := start(t, m, 80, 30)
	send(tm, "show me some go code")
	waitFor(t, tm, "stop end_turn")
	send(tm, "/copy code")
	waitFor(t, tm, "copied code block")
	send(tm, "/copy 2")
	waitFor(t, tm, "copied the prompt, message 2 from the end")
	send(tm, "/copy 3")
	waitFor(t, tm, "the conversation has 2 messages")
	final := quit(t, tm)
	blocks := codeBlocks(final.conv.Entries()[1].Message.Text())
	for _, want := range []string{blocks[len(blocks)-1].text, "show me some go code"} {
		if !strings.Contains(clip.String(), base64.StdEncoding.EncodeToString([]byte(want))) {
			t.Errorf("the clipboard did not get %q", want)
		}
	}
}

// TestKeyNamesTypedAreText checks input that comes in one read without
// bracketed paste, which Bubble Tea v1 splits at spaces: the letters of
// "enter", "ctrl+c", "up" or "tab" are typed, never pressed, and a CRLF in a
// paste is one line break.
func TestKeyNamesTypedAreText(t *testing.T) {
	h := newHarness(t, 0)
	tm := start(t, h.model(t, nil), 80, 24)
	for _, word := range []string{"press", " ", "enter", " ", "or", " ", "ctrl+c", " ", "up", " ", "tab", " ", "esc", " ", "?"} {
		tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(word)})
	}
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("\tcol2\r\nline2"), Paste: true})
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("\r\nx\r\n")})
	final := quit(t, tm)
	if v, want := final.comp.Input().Value(), "press enter or ctrl+c up tab esc ?    col2\nline2\nx\n"; v != want {
		t.Errorf("input %q, want %q", v, want)
	}
	if n := len(final.conv.Entries()); n != 0 {
		t.Errorf("%d entries: a word was taken for enter", n)
	}
}

// TestLongNoticeContinuesOnTheHelpLine checks a notice too long for the
// status line: it goes on under it, cut with "…" when longer still, and the
// A notice too long for the status line continues on the row above it,
// never on the key help, which keeps the hint of the command in the input;
// the screen keeps its height.
func TestLongNoticeNeverWrapsOntoTheHelpLine(t *testing.T) {
	h := newHarness(t, 0)
	m := h.model(t, nil)
	tm := start(t, m, 60, 20)
	tm.Type("/size 0*0")
	tm.Send(tea.KeyMsg{Type: tea.KeyEnter})
	waitFor(t, tm, "size must be")
	final := quit(t, tm)
	view := final.View()
	lines := strings.Split(view, "\n")
	if len(lines) != 20 {
		t.Fatalf("%d lines, want the screen's 20:\n%s", len(lines), view)
	}
	above, status, help := lines[len(lines)-3], lines[len(lines)-2], lines[len(lines)-1]
	if !strings.Contains(above, "size must be") || strings.Contains(help, "size must") || !strings.Contains(help, "/size W*H") {
		t.Fatalf("above %q, status %q, help %q: want the notice above and on the status line, the hint below", above, status, help)
	}
	if !strings.Contains(status, "demo-chat") {
		t.Errorf("the status line %q drops the model beside the notice", status)
	}
	for _, l := range []string{above, status, help} {
		if w := lipgloss.Width(l); w > 60 {
			t.Errorf("line %q is %d wide", l, w)
		}
	}
}

// TestCopyIsWhatTheScreenShows checks that a copied reply holds no escape
// sequence: a command hidden in ESC X … ESC \ would run when pasted into a
// shell, though the screen never showed it.
func TestCopyIsWhatTheScreenShows(t *testing.T) {
	h := newHarness(t, 0)
	m := h.model(t, nil)
	clip := &lockedBuffer{}
	m.opts.Terminal = clip
	m.opts.Getenv = func(string) string { return "" }
	tm := start(t, m, 80, 24)
	send(tm, "demo:hostile")
	waitFor(t, tm, "stop end_turn")
	tm.Send(tea.KeyMsg{Type: tea.KeyCtrlY})
	waitFor(t, tm, "copied")
	final := quit(t, tm)
	reply := final.conv.Entries()[1].Message.Text()
	if sanitize.Plain(reply) == reply {
		t.Fatal("the hostile reply holds nothing to remove: the test shows nothing")
	}
	payload := strings.TrimPrefix(clip.String(), "\x1b]52;c;")
	payload = payload[:strings.IndexAny(payload, "\x07\x1b")]
	got, err := base64.StdEncoding.DecodeString(payload)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != sanitize.Plain(reply) || strings.ContainsAny(string(got), "\x1b\u009b") {
		t.Errorf("copied %q, want the reply as shown: %q", got, sanitize.Plain(reply))
	}
}

// TestEnterInsideAnUnbracketedPasteIsALineBreak checks a multi-line paste
// without bracketed paste: Bubble Tea makes each CR an enter, right behind
// the pasted words. An enter with keys behind it is a line break; one with
// none sends once it has settled.
func TestEnterInsideAnUnbracketedPasteIsALineBreak(t *testing.T) {
	h := newHarness(t, 0)
	m := h.model(t, nil)
	m, _ = updateModel(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	m, _ = updateModel(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("first")})
	m, due := updateModel(m, tea.KeyMsg{Type: tea.KeyEnter})
	m, _ = updateModel(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("second")})
	if due == nil {
		t.Fatal("the enter behind pasted text sent at once")
	}
	m, _ = updateModel(m, due()) // settles after the keys behind it: nothing
	if v := m.comp.Input().Value(); v != "first\nsecond" || len(m.conv.Entries()) != 0 {
		t.Fatalf("input %q, %d entries: want one line break and nothing sent", v, len(m.conv.Entries()))
	}
	m, due = updateModel(m, tea.KeyMsg{Type: tea.KeyEnter})
	m, _ = updateModel(m, due())
	if m.turns.Turn() == nil {
		t.Fatal("an enter with nothing behind it did not send")
	}
	t.Cleanup(m.turns.Turn().Cancel)
	if m.turns.Turn().Prompt != "first\nsecond" {
		t.Errorf("sent %q", m.turns.Turn().Prompt)
	}
}
