// Package meter measures what a conversation spends: how much of the
// model's context window its last request filled, and, where the profile
// gives prices, what the last turn and the session cost. It is a child of
// the chat screen: it draws a fragment of the status line and the reports
// of /context and /info, and does no I/O.
package meter

import (
	"fmt"
	"strconv"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"muse/session"
)

// Full is the share of the window past which the status line warns.
const Full = 80

// Prices are what a million tokens cost, in dollars, as a profile gives
// them (price_input, price_output, price_cache_read, price_cache_write).
type Prices struct {
	Input, Output, CacheRead, CacheWrite float64
}

// Set says whether any price is given.
func (p Prices) Set() bool { return p != Prices{} }

// Cost is what u cost at these prices, in dollars.
func (p Prices) Cost(u session.Usage) float64 {
	return (float64(u.InputTokens)*p.Input + float64(u.OutputTokens)*p.Output +
		float64(u.CacheReadInputTokens)*p.CacheRead + float64(u.CacheCreationInputTokens)*p.CacheWrite) / 1e6
}

// Options configure the meter.
type Options struct {
	// Window is the profile's context_window, used for a model the models
	// list gives no window for; 0 when unset.
	Window int
	// Prices are the profile's, zero when it gives none.
	Prices Prices
	// AutoCompact compacts the conversation once it fills AutoAt percent
	// of the window (the profile's auto_compact).
	AutoCompact bool
}

// AutoAt is the share of the window at which auto_compact compacts.
const AutoAt = 90

// WindowsMsg carries the context windows the service's models list gives,
// by model id; models it gives none for are left out.
type WindowsMsg map[string]int

// Model is the meter.
type Model struct {
	opts   Options
	listed map[string]int
	model  string

	// used is what the last request held, its reply included: the size of
	// the conversation as the model last saw it. short says the server
	// never counted that reply's output (session.Counted), which used
	// leaves out: it is the least the conversation holds.
	used  int
	short bool
	// turn and total are what the last turn's requests and all of the
	// branch's spent.
	turn, total session.Usage
}

// New returns a meter of nothing yet.
func New(opts Options) Model { return Model{opts: opts} }

// Update takes the models list's windows.
func (m Model) Update(msg tea.Msg) Model {
	if w, ok := msg.(WindowsMsg); ok {
		m.listed = w
	}
	return m
}

// SetModel says which model the next requests go to.
func (m Model) SetModel(model string) Model {
	m.model = model
	return m
}

// Measure reads the branch b as the screen shows it: its last reply says
// how full the context is, and the replies after its last prompt are the
// turn; total is what the session spent. It reads b from the end, back
// to the reply before the last prompt only, so a long session costs no
// more to measure than a short one.
func (m Model) Measure(b session.Branch, total session.Usage) Model {
	m.used, m.short, m.turn, m.total = 0, false, session.Usage{}, total
	seenPrompt := false
	for i := len(b) - 1; i >= 0; i-- {
		e := b[i]
		if e.Kind == session.KindUser {
			seenPrompt = true
		}
		if e.Message == nil {
			continue
		}
		u := session.Spent(e.Message)
		if m.used == 0 {
			m.used = u.InputTokens + u.CacheReadInputTokens + u.CacheCreationInputTokens + u.OutputTokens
			m.short = u.Uncounted > 0
		}
		if !seenPrompt {
			m.turn.Add(u)
		}
		if seenPrompt {
			break
		}
	}
	return m
}

// Compacted says the last turn compacted the conversation: its request
// held the whole old branch, but the next one holds only the summary and
// its prompt, which the summary's own length stands for until then.
func (m Model) Compacted() Model {
	m.used, m.short = m.turn.OutputTokens, m.turn.Uncounted > 0
	return m
}

// Window is the context window of the model: the models list's, else the
// profile's; 0 when neither says. from names where it came from.
func (m Model) Window() (n int, from string) {
	if n := m.listed[m.model]; n > 0 {
		return n, "the service's models list"
	}
	if m.opts.Window > 0 {
		return m.opts.Window, "the profile's context_window"
	}
	return 0, ""
}

// Percent is how much of the window the conversation fills, rounded
// down; ok is false when the window is unknown or nothing was sent yet.
func (m Model) Percent() (pct int, ok bool) {
	w, _ := m.Window()
	if w <= 0 || m.used == 0 {
		return 0, false
	}
	return m.used * 100 / w, true
}

// Used is how many tokens the last request held, its reply included (the
// least it held when the server never counted that reply's output).
func (m Model) Used() int { return m.used }

// View is the status line's fragment: the context's share of the window,
// said to be nearly full past Full percent, and the cost of the turn and
// of the session where the profile gives prices; "" when there is
// nothing to show.
func (m Model) View() string {
	var parts []string
	if pct, ok := m.Percent(); ok {
		s := "ctx " + strconv.Itoa(pct) + "%" + plus(m.short)
		if pct >= Full {
			s += " full: /compact"
		}
		parts = append(parts, s)
	}
	if m.opts.Prices.Set() && m.total != (session.Usage{}) {
		parts = append(parts, Dollars(m.opts.Prices.Cost(m.turn))+plus(m.turn.Uncounted > 0)+" turn, "+
			Dollars(m.opts.Prices.Cost(m.total))+plus(m.total.Uncounted > 0)+" session")
	}
	return strings.Join(parts, " · ")
}

// AutoCompact says whether the conversation is to be compacted now:
// auto_compact is on and it fills AutoAt percent of the window or more.
func (m Model) AutoCompact() bool {
	pct, ok := m.Percent()
	return m.opts.AutoCompact && ok && pct >= AutoAt
}

// Warns says whether the context is past Full percent of the window.
func (m Model) Warns() bool {
	pct, ok := m.Percent()
	return ok && pct >= Full
}

// Context is what /context says: the tokens the conversation holds
// against the window, and where the window comes from.
func (m Model) Context() string {
	w, from := m.Window()
	var b strings.Builder
	switch {
	case m.used == 0 && w > 0:
		fmt.Fprintf(&b, "context: nothing sent yet · window %s tokens (from %s)", group(w), from)
	case m.used == 0:
		b.WriteString("context: nothing sent yet · window unknown: set context_window in the profile")
	case w > 0:
		pct, _ := m.Percent()
		fmt.Fprintf(&b, "context: %s%s of %s tokens (%d%%) · window from %s", atLeast(m.short), group(m.used), group(w), pct, from)
	default:
		fmt.Fprintf(&b, "context: %s%s tokens · window unknown: the service's models list does not give it; set context_window in the profile", atLeast(m.short), group(m.used))
	}
	if m.used > 0 && m.short {
		b.WriteString("\nthe last reply's output is not in it: the reply ended before the server counted it")
	}
	if pct, ok := m.Percent(); ok && pct >= Full {
		b.WriteString("\nnearly full: /compact [INSTRUCTIONS] summarises the conversation and goes on from the summary")
	}
	return b.String()
}

// Cost is what /info says of the cost: the turn's and the session's at
// the profile's prices; "" when it gives none.
func (m Model) Cost() string {
	p := m.opts.Prices
	if !p.Set() {
		return ""
	}
	return fmt.Sprintf("cost: last turn %s%s · session %s%s (at the profile's prices per million tokens: in $%g · out $%g · cache read $%g · cache write $%g)",
		atLeast(m.turn.Uncounted > 0), Dollars(p.Cost(m.turn)), atLeast(m.total.Uncounted > 0), Dollars(p.Cost(m.total)), p.Input, p.Output, p.CacheRead, p.CacheWrite)
}

// plus marks a figure that is the least of what was spent, in the status
// line: the output of a reply the server never counted is left out.
func plus(short bool) string {
	if short {
		return "+"
	}
	return ""
}

// atLeast is plus in words, for /context and /info.
func atLeast(short bool) string {
	if short {
		return "at least "
	}
	return ""
}

// Dollars writes an amount in dollars: cents from a dollar up, else four
// decimals, so that a cheap turn is not $0.00.
func Dollars(d float64) string {
	if d >= 1 {
		return fmt.Sprintf("$%.2f", d)
	}
	return fmt.Sprintf("$%.4f", d)
}

// group writes n with a comma between thousands.
func group(n int) string {
	s := strconv.Itoa(n)
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}
