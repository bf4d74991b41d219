package ui

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"

	"muse/api"
	"muse/api/demo"
	"muse/session"
	"muse/ui/engine"
	"muse/ui/input"
	"muse/ui/turns"
)

func toolModel(t *testing.T, tools ...engine.Tool) (Model, *harness) {
	h := newHarness(t, 0)
	m := h.model(t, nil)
	m.opts.Tools = tools
	m.opts.RunTool = engine.Commands(0, nil)
	return m, h
}

func TestToolRoundTrip(t *testing.T) {
	tool := engine.Tool{
		Def:     api.Tool{Name: "get_time", Description: "the time", InputSchema: json.RawMessage(`{"type":"object","properties":{"tz":{"type":"string"}}}`)},
		Command: []string{"sh", "-c", "printf 'input was: '; cat; printf '\\nit is 12:00'"},
	}
	m, h := toolModel(t, tool)
	tm := start(t, m, 100, 40)
	send(tm, "demo:tool what time is it?")
	waitFor(t, tm, "run tool get_time")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("y")})
	waitFor(t, tm, "The tool returned")
	waitSaved(t, h.store, session.KindAssistant)
	final := quit(t, tm)
	es := final.conv.Entries()
	if len(es) != 4 || es[1].Message.StopReason != "tool_use" || es[2].Kind != session.KindTool || es[3].Kind != session.KindAssistant {
		t.Fatalf("entries: %+v", es)
	}
	res := es[2].ToolResults[0]
	if res.Approval != "yes" || res.ExitCode != 0 || !strings.Contains(res.Output, `input was: {"tz":`) || !strings.Contains(res.Output, "it is 12:00") {
		t.Errorf("result %+v", res)
	}
	if !strings.Contains(es[3].Message.Text(), "it is 12:00") {
		t.Errorf("the continued reply did not get the result: %q", es[3].Message.Text())
	}
	sess, _ := h.store.Latest()
	if len(sess.Entries) != 4 || sess.Entries[2].ToolResults[0].Approval != "yes" {
		t.Errorf("saved: %+v", sess.Entries)
	}
}

func TestToolDeclinedAndTyped(t *testing.T) {
	run := engine.Tool{Def: api.Tool{Name: "rm_rf", InputSchema: json.RawMessage(`{"type":"object"}`)}, Command: []string{"false"}}
	m, _ := toolModel(t, run)
	tm := start(t, m, 100, 30)
	send(tm, "demo:tool do it")
	waitFor(t, tm, "run tool rm_rf")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("n")})
	waitFor(t, tm, "why not?")
	send(tm, "use trash instead")
	waitFor(t, tm, "The tool returned")
	final := quit(t, tm)
	if r := final.conv.Entries()[2].ToolResults[0]; r.Approval != "no" || !r.IsError || r.Output != "the user declined to run this tool: use trash instead" {
		t.Errorf("declined result %+v", r)
	}
	if final.comp.Input().Value() != "" {
		t.Errorf("the reason stayed in the input: %q", final.comp.Input().Value())
	}

	// n, then esc: declined with no reason.
	m, _ = toolModel(t, run)
	tm = start(t, m, 100, 30)
	send(tm, "demo:tool do it")
	waitFor(t, tm, "run tool rm_rf")
	tm.Send(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("n")})
	waitFor(t, tm, "why not?")
	tm.Send(tea.KeyMsg{Type: tea.KeyEsc})
	waitFor(t, tm, "The tool returned")
	final = quit(t, tm)
	if r := final.conv.Entries()[2].ToolResults[0]; r.Output != "the user declined to run this tool" {
		t.Errorf("declined without a reason %+v", r)
	}

	typed := engine.Tool{Def: api.Tool{Name: "ask_user", InputSchema: json.RawMessage(`{"type":"object"}`)}}
	m, _ = toolModel(t, typed)
	tm = start(t, m, 100, 30)
	send(tm, "demo:tool weather?")
	waitFor(t, tm, "type the result of ask_user")
	send(tm, "sunny and warm")
	waitFor(t, tm, "The tool returned: sunny and warm")
	final = quit(t, tm)
	if r := final.conv.Entries()[2].ToolResults[0]; r.Approval != "typed" || r.Output != "sunny and warm" {
		t.Errorf("typed result %+v", r)
	}
}

// shift+tab turns approve all on: it is said on the status line, and a
// tool call then runs unasked; /approve ask asks again.
func TestApproveAllMode(t *testing.T) {
	ran := t.TempDir() + "/ran"
	tool := engine.Tool{Def: api.Tool{Name: "touch_it", InputSchema: json.RawMessage(`{"type":"object"}`)}, Command: []string{"touch", ran}}
	m, _ := toolModel(t, tool)
	tm := start(t, m, 100, 30)
	tm.Send(tea.KeyMsg{Type: tea.KeyShiftTab})
	waitFor(t, tm, "approve all: every tool call runs unasked")
	send(tm, "demo:tool go")
	waitFor(t, tm, "The tool returned")
	send(tm, "/approve ask")
	waitFor(t, tm, "approve ask: each tool call waits")
	send(tm, "demo:tool again")
	waitFor(t, tm, "run tool touch_it?")
	tm.Send(tea.KeyMsg{Type: tea.KeyEsc})
	final := quit(t, tm)
	if _, err := os.Stat(ran); err != nil {
		t.Errorf("the call did not run under approve all: %v", err)
	}
	if r := final.conv.Entries()[2].ToolResults[0]; r.Approval != "yes" {
		t.Errorf("result %+v", r)
	}
}

// While approve all is on, the status line says so whatever else it says.
func TestApproveAllOnTheStatusLine(t *testing.T) {
	m, _ := toolModel(t, demoTool())
	m, _ = updateModel(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	m, _ = updateModel(m, tea.KeyMsg{Type: tea.KeyShiftTab})
	m.status = m.status.Note("")
	if s := statusOf(m); !strings.Contains(s, "approve all") {
		t.Errorf("status %q", s)
	}
	m.status = m.status.Note("something else entirely, long enough to take the whole line and more of it")
	if s := statusOf(m); !strings.Contains(s, "all!") && !strings.Contains(s, "approve all") {
		t.Errorf("status with a notice %q", s)
	}
	m, _ = updateModel(m, tea.KeyMsg{Type: tea.KeyShiftTab})
	m.status = m.status.Note("")
	if s := statusOf(m); strings.Contains(s, "all") {
		t.Errorf("status after ask %q", s)
	}
}

func TestTruncatedToolCallNeverRuns(t *testing.T) {
	ran := t.TempDir() + "/ran"
	tool := engine.Tool{Def: api.Tool{Name: "touch_it", InputSchema: json.RawMessage(`{"type":"object","properties":{"path":{"type":"string"},"mode":{"type":"string"}}}`)},
		Command: []string{"touch", ran}}
	m, _ := toolModel(t, tool)
	tm := start(t, m, 100, 30)
	send(tm, "/max-tokens 11")
	send(tm, "demo:tool go")
	waitFor(t, tm, "stop max_tokens")
	final := quit(t, tm)
	view := final.View()
	if !strings.Contains(view, "truncated, not run") {
		t.Errorf("no truncated notice:\n%s", view)
	}
	if final.turns.Turn() != nil || strings.Contains(view, "run tool") {
		t.Errorf("a truncated call was offered to run")
	}
	if _, err := os.Stat(ran); err == nil {
		t.Errorf("the truncated call ran")
	}
}

func TestQuitCommandWhileStreamingKeepsTheTurn(t *testing.T) {
	h, hd := newHeldHarness(t, "keep this") // the reply is in flight until /quit
	tm := start(t, h.modelWith(t, nil, shortReplies), 80, 24)
	send(tm, "keep this")
	waitFor(t, tm, "Good question; the answer fits") // the reply's first words
	ht := hd.held(t)
	send(tm, "/quit")
	finalModel(t, tm) // the program ends on /quit
	ht.cancelled(t)
	sess, err := h.store.Latest()
	if err != nil {
		t.Fatal(err)
	}
	if len(sess.Entries) != 2 || sess.Entries[0].Text != "keep this" || sess.Entries[1].Status != session.StatusCancelled || sess.Entries[1].Message.Text() == "" {
		t.Errorf("saved on /quit: %+v", sess.Entries)
	}
}

// demoTool is the tool --demo offers.
func demoTool() engine.Tool {
	def, argv := demo.TimeTool()
	return engine.Tool{Def: def, Command: argv}
}

// stopWaiting stops the program while a tool call waits, and cancels the
// turn, so the engine ends.
func stopWaiting(t *testing.T, tm *teatest.TestModel) Model {
	t.Helper()
	tm.Send(testStopMsg{})
	m := finalModel(t, tm)
	if m.turns.Turn() == nil || m.turns.Ask() == nil {
		t.Fatalf("no tool call waits")
	}
	t.Cleanup(m.turns.Turn().Cancel)
	return m
}

// slowTool is a tool whose command line needs quoting.
func slowTool() engine.Tool {
	def, _ := demo.TimeTool()
	def.Name = "slow_cmd"
	return engine.Tool{Def: def, Command: []string{"sh", "-c", "sleep 100; echo done"}}
}

// The approval box shows the tool, the command line as it will run and
// its folder, its input and the keys that answer, above the input, at the
// sizes people use; at 40x10 the input scrolls, never cut.
func TestToolApprovalBoxGolden(t *testing.T) {
	for _, size := range []struct{ w, h int }{{120, 40}, {80, 24}, {40, 10}} {
		t.Run(fmt.Sprintf("%dx%d", size.w, size.h), func(t *testing.T) {
			m, _ := toolModel(t, slowTool())
			tm := start(t, m, size.w, size.h)
			send(tm, "demo:tool what time is it?")
			waitFor(t, tm, "run tool slow_cmd?")
			final := stopWaiting(t, tm)
			view := final.View()
			wants := []string{"run tool slow_cmd?", "waiting for your answer"}
			if size.h >= 24 {
				wants = append(wants, `$ sh -c "sleep 100; echo done"`, "in /srv/project", `"timezone": "UTC"`, "y yes · n no, say why · a always")
			}
			for _, want := range wants {
				if !strings.Contains(view, want) {
					t.Errorf("view lacks %q:\n%s", want, view)
				}
			}
			for i, line := range strings.Split(view, "\n") {
				if w := visibleWidth(line); w > size.w {
					t.Errorf("line %d is %d wide: %q", i, w, line)
				}
			}
			if n := strings.Count(view, "\n") + 1; n != size.h {
				t.Errorf("view has %d lines, want %d", n, size.h)
			}
			golden.RequireEqual(t, []byte(view))
		})
	}
}

// While a call waits for y, n or a, other keys change nothing on screen,
// and the draft in the input is kept.
func TestToolApprovalIgnoresOtherKeys(t *testing.T) {
	m, _ := toolModel(t, demoTool())
	m, _ = updateModel(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	m.comp = m.comp.SetInput(m.comp.Input().SetValue("my draft"))
	ch := make(chan turns.Item)
	answer := make(chan engine.Approval, 1)
	m.turns = m.turns.With(turns.Run{ID: 1, Cancel: func() {}})
	next, _ := m.askCall(&turns.Ask{Call: api.ContentBlock{Type: api.BlockToolUse, Name: "get_time", Input: json.RawMessage(`{"timezone":"UTC"}`)}, HasCommand: true, Answer: answer}, ch)
	m = next.(Model)
	before := m.View()
	for _, k := range []tea.KeyMsg{
		{Type: tea.KeyRunes, Runes: []rune("hello?")}, {Type: tea.KeyEnter}, {Type: tea.KeyBackspace},
		{Type: tea.KeyPgUp}, {Type: tea.KeyCtrlUp}, {Type: tea.KeyTab}, {Type: tea.KeyRunes, Runes: []rune("?")},
	} {
		m, _ = updateModel(m, k)
		if v := m.View(); v != before {
			t.Fatalf("%s changed the screen:\n%s\n---\n%s", k, before, v)
		}
	}
	m = settle(t, m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("a")})
	if a := <-answer; !a.Run || !a.Always {
		t.Errorf("a answered %+v", a)
	}
	if m.comp.Input().Value() != "my draft" || m.turns.Ask() != nil || strings.Contains(m.View(), "run tool") {
		t.Errorf("after the answer: input %q, ask %v", m.comp.Input().Value(), m.turns.Ask())
	}
}

// On a 40×10 screen the box shows one line at a time: ↓ and pgdn scroll
// through every line of the command and the input, none cut.
func TestToolApprovalOnATinyScreen(t *testing.T) {
	m, _ := toolModel(t, slowTool())
	tm := start(t, m, 40, 10)
	send(tm, "demo:tool what time is it?")
	waitFor(t, tm, "run tool slow_cmd?")
	m = stopWaiting(t, tm)
	body := m.approvalBox().Body()
	seen := map[string]bool{}
	for i := 0; i < len(body)+2; i++ {
		view := m.View()
		if strings.Count(view, "\n") != 9 {
			t.Fatalf("the view is not 10 lines:\n%s", view)
		}
		for _, l := range body {
			if strings.Contains(view, l) {
				seen[l] = true
			}
		}
		m, _ = updateModel(m, tea.KeyMsg{Type: tea.KeyDown})
	}
	for _, l := range body {
		if !seen[l] || strings.Contains(l, "…") {
			t.Errorf("line %q never shown whole", l)
		}
	}
	if !seen[`$ sh -c "sleep 100; echo done"`] && !seen[`$ sh -c "sleep 100; echo`] {
		t.Errorf("the command line is not shown: %q", body)
	}
	m, _ = updateModel(m, tea.KeyMsg{Type: tea.KeyPgUp})
	if box := m.approvalBox().View(); !strings.Contains(box, body[len(body)-2]) || strings.Contains(box, body[len(body)-1]) {
		t.Errorf("pgup did not scroll one line up:\n%s", box)
	}
}

// TestApprovalRightAfterAPasteIsNoAnswer checks a paste that holds a false
// end of paste and then "y": Bubble Tea delivers the y as the next key, and
// it must not run the tool. The same key pressed again does.
func TestApprovalRightAfterAPasteIsNoAnswer(t *testing.T) {
	m, _ := toolModel(t, demoTool())
	m, _ = updateModel(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	ch := make(chan turns.Item)
	answer := make(chan engine.Approval, 1)
	m.turns = m.turns.With(turns.Run{ID: 1, Cancel: func() {}})
	next, _ := m.askCall(&turns.Ask{Call: api.ContentBlock{Type: api.BlockToolUse, Name: "get_time", Input: json.RawMessage(`{"timezone":"UTC"}`)}, HasCommand: true, Answer: answer}, ch)
	m = next.(Model)
	m, _ = updateModel(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("x"), Paste: true})
	m, _ = updateModel(m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("y")})
	select {
	case a := <-answer:
		t.Fatalf("the y behind a paste answered %+v", a)
	default:
	}
	if !strings.Contains(m.View(), "press it again") {
		t.Errorf("the screen does not say why the y was not taken:\n%s", m.View())
	}
	m = settle(t, m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("y")})
	if a := <-answer; !a.Run {
		t.Errorf("y pressed again answered %+v", a)
	}
}

// settle sends a yes to a waiting tool call and delivers the turns.AnswerDueMsg
// its command gives once it has settled.
func settle(t *testing.T, m Model, k tea.KeyMsg) Model {
	t.Helper()
	m, cmd := updateModel(m, k)
	if cmd == nil {
		t.Fatalf("%s gave no command: it was not taken as a yes", k)
	}
	due, ok := cmd().(turns.AnswerDueMsg)
	if !ok {
		t.Fatalf("%s gave %T, want turns.AnswerDueMsg", k, due)
	}
	m, _ = updateModel(m, due)
	return m
}

// TestApprovalInsideUnbracketedTextIsNoAnswer checks a paste without
// bracketed paste, which Bubble Tea splits at spaces: an "a" or "y" word
// inside it, after it or at its start never answers, and "always" is not
// given.
func TestApprovalInsideUnbracketedTextIsNoAnswer(t *testing.T) {
	runes := func(s string) tea.KeyMsg {
		if s == " " {
			return tea.KeyMsg{Type: tea.KeySpace, Runes: []rune(" ")}
		}
		return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
	}
	for _, words := range [][]string{{"take", " ", "a", " ", "look"}, {"why", " ", "y"}, {"a", " ", "b"}, {"y", "es"}} {
		m, _ := toolModel(t, demoTool())
		m, _ = updateModel(m, tea.WindowSizeMsg{Width: 80, Height: 24})
		answer := make(chan engine.Approval, 1)
		m.turns = m.turns.With(turns.Run{ID: 1, Cancel: func() {}})
		next, _ := m.askCall(&turns.Ask{Call: api.ContentBlock{Type: api.BlockToolUse, Name: "get_time", Input: json.RawMessage(`{}`)}, HasCommand: true, Answer: answer}, make(chan turns.Item))
		m = next.(Model)
		var dues []tea.Msg
		for _, w := range words {
			var cmd tea.Cmd
			m, cmd = updateModel(m, runes(w))
			if cmd != nil {
				dues = append(dues, cmd())
			}
		}
		for _, d := range dues { // the ticks of any yes arrive after the burst
			m, _ = updateModel(m, d)
		}
		select {
		case a := <-answer:
			t.Errorf("%q answered %+v", strings.Join(words, ""), a)
		default:
		}
		if !strings.Contains(m.View(), "press it again") {
			t.Errorf("%q: the screen does not say the answer was not taken", strings.Join(words, ""))
		}
	}
}

// TestTypedResultWithItsEnter checks a typed result that arrives in one read
// with its enter ("forty", " ", "two", enter, as Bubble Tea splits it): the
// enter sends it once no key follows, as a prompt's does. It was refused as
// a key behind a paste, leaving the text in the input and the box waiting.
func TestTypedResultWithItsEnter(t *testing.T) {
	typed := engine.Tool{Def: api.Tool{Name: "ask_user", InputSchema: json.RawMessage(`{"type":"object"}`)}}
	m, _ := toolModel(t, typed)
	m, _ = updateModel(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	m.comp = m.comp.SetInput(m.comp.Input().SetValue("my draft"))
	answer := make(chan engine.Approval, 1)
	m.turns = m.turns.With(turns.Run{ID: 1, Cancel: func() {}})
	next, _ := m.askCall(&turns.Ask{Call: api.ContentBlock{Type: api.BlockToolUse, Name: "ask_user", Input: json.RawMessage(`{}`)}, Answer: answer}, make(chan turns.Item))
	m = next.(Model)
	var cmd tea.Cmd
	for _, k := range []tea.KeyMsg{
		{Type: tea.KeyRunes, Runes: []rune("forty")}, {Type: tea.KeySpace, Runes: []rune(" ")},
		{Type: tea.KeyRunes, Runes: []rune("two")}, {Type: tea.KeyEnter},
	} {
		m, cmd = updateModel(m, k)
	}
	if cmd == nil {
		t.Fatal("the enter gave no command")
	}
	due, ok := cmd().(input.SendDueMsg)
	if !ok {
		t.Fatalf("the enter gave %T, want input.SendDueMsg", due)
	}
	m, _ = updateModel(m, due)
	select {
	case a := <-answer:
		if a.Result == nil || *a.Result != "forty two" {
			t.Errorf("answered %+v", a)
		}
	default:
		t.Fatalf("the result was not sent; input %q, screen:\n%s", m.comp.Input().Value(), m.View())
	}
	if m.comp.Input().Value() != "my draft" {
		t.Errorf("the draft was not given back: %q", m.comp.Input().Value())
	}
}

// TestAlwaysHoldsForItsSession checks that "a always" is forgotten when
// another session is shown: a new session asks again (it ran the tool
// without asking).
func TestAlwaysHoldsForItsSession(t *testing.T) {
	m, _ := toolModel(t, demoTool())
	m, _ = updateModel(m, tea.WindowSizeMsg{Width: 80, Height: 24})
	m.approve = m.approve.Allow("get_time")
	m, _ = m.clear()
	if m.approve.Always("get_time") {
		t.Error("a new session still runs get_time without asking")
	}
}

// While a typed result is awaited, the status line says muse waits for the
// person: no rate or clock of the reply before it, however long it waits.
func TestTypedResultStatusSaysItWaitsForYou(t *testing.T) {
	typed := engine.Tool{Def: api.Tool{Name: "ask_user", InputSchema: json.RawMessage(`{"type":"object"}`)}}
	m, _ := toolModel(t, typed)
	clock := newMovingClock()
	m.opts.Now, m.now = clock.now, clock.now
	tm := start(t, m, 100, 30)
	send(tm, "demo:tool weather?")
	waitFor(t, tm, "type the result of ask_user")
	tm.Send(testStopMsg{})
	final := finalModel(t, tm)
	t.Cleanup(final.turns.Turn().Cancel)
	r := *final.turns.Turn()
	r.Tokens = 40 // as a reply before the call streamed
	final.turns = final.turns.With(r)
	clock.advance(10 * time.Second)
	lines := strings.Split(final.View(), "\n")
	status := lines[len(lines)-2]
	if !strings.Contains(status, "waiting for you: type the result of ask_user below") || strings.Contains(status, "tok/s") || strings.Contains(status, "10.0s") {
		t.Errorf("status %q", status)
	}
}
