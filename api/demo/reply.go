package demo

import (
	"encoding/base64"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Vocabulary the canned replies are assembled from.
var (
	openers = []string{
		"Here is a compact answer.",
		"Short version first, details below.",
		"Good question; the answer fits on one screen.",
		"Let's break this down into small pieces.",
		"This is a canned demo reply, shaped like a real one.",
		"There are a few ways to look at this.",
		"The honest answer is that it depends, but a default exists.",
	}
	adjectives = []string{
		"careful", "small", "explicit", "predictable", "layered",
		"incremental", "boring", "testable", "observable", "composable",
	}
	nouns = []string{
		"design", "interface", "pipeline", "workflow", "plan",
		"module", "approach", "cache", "protocol", "loop",
	}
	verbs = []string{
		"keeps the moving parts visible",
		"trades a little speed for clarity",
		"fails loudly instead of silently",
		"makes the common case fast",
		"leaves room to grow later",
		"is easy to test in isolation",
		"survives a restart without losing work",
	}
	bullets = []string{
		"**Start small**: get one path working end to end.",
		"**Measure**: numbers beat intuition every time.",
		"**Name things well** so the code explains itself.",
		"**Handle errors** where you can act on them.",
		"**Write the test first** when the behaviour is clear.",
		"**Keep state local** and pass data explicitly.",
		"**Document the why**, not the what.",
		"**Prefer plain data** over clever types.",
		"**Automate the boring parts** before they bite.",
		"**Review the edge cases**: empty, huge and malformed input.",
	}
	tableRows = [][3]string{
		{"Simple loop", "easy to read", "slower on big inputs"},
		{"Worker pool", "uses every core", "needs careful shutdown"},
		{"Channel pipeline", "clear stages", "more goroutines to track"},
		{"Batch job", "high throughput", "higher latency"},
		{"Cache layer", "fast repeats", "risk of stale data"},
		{"Event stream", "live updates", "harder to replay"},
	}
	idents   = []string{"total", "count", "score", "items", "limit", "width", "budget"}
	greeting = []string{"hello", "ready", "done", "muse", "demo", "ok"}
	closings = []string{
		"Let me know if you want a deeper dive into any part.",
		"That should be enough to get started.",
		"Try it, measure, and adjust as you learn more.",
		"Happy hacking!",
		"Ask again with more detail and I will narrow it down.",
	}
	sentences = []string{
		"The %s %s %s, which matters once the input grows beyond a toy example.",
		"Choosing the %s %s is rarely the fastest option, but it is the one you can still debug at midnight.",
		"When in doubt, pick the %s %s and revisit the choice after measuring real traffic.",
		"Most teams discover that the %s %s %s only after the first outage.",
		"It helps to write down why the %s %s exists before adding a second one.",
		"Keep the %s %s small enough that a new teammate can read it in one sitting.",
	}
	steps = []string{
		"Sketch the data flow on paper.",
		"Write a failing test for the main path.",
		"Implement the smallest version that passes.",
		"Add logging around every external call.",
		"Measure latency under a realistic load.",
		"Remove whatever the measurements say is unused.",
		"Ship it behind a flag and watch the dashboards.",
	}
	quotes = []string{
		"Simple things should be simple, complex things should be possible.",
		"Make it work, make it right, make it fast.",
		"Clear is better than clever.",
		"Errors are values.",
		"A little copying is better than a little dependency.",
	}
)

// hostileText carries terminal escapes and look-alikes for sanitizer demos.
const hostileText = "\n\n### Hostile bytes\n\n" +
	"This part of the reply is hostile on purpose. A clipboard write \x1b]52;c;aGVsbG8=\x07 then a " +
	"screen clear \x1b[2J then a title change \x1b]0;pwned by demo\x07 then the literal entity text " +
	"&#27;[31mred and a C1 control \u009b31mred\u009b0m must all reach the screen harmless.\n"

// widthsReply is the answer to demo:widths: the clusters terminals draw at
// different widths, in a table, a quote and a code block.
const widthsReply = "## Widths\n\n" +
	"| Cluster | Name | Code points |\n|---|---|---|\n" +
	"| 👍🏽 | thumb, skin tone | 2 |\n" +
	"| 🇫🇷 | flag | 2 |\n" +
	"| 👨\u200d👩\u200d👧 | family | 5 |\n" +
	"| n\u0303 | n, combining tilde | 2 |\n" +
	"| ab | letters | 2 |\n\n" +
	"> a quote with 👨\u200d👩\u200d👧 in it\n\n" +
	"```\nrow 👍🏽 🇫🇷 👨\u200d👩\u200d👧 n\u0303 end\nrow plain end\n```\n"

// echo collapses whitespace in s and cuts it to at most n runes, at the
// end of a word when one ends in the second half, marking a cut with "…".
func echo(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := string([]rune(s)[:n+1])
	if i := strings.LastIndex(r, " "); i > len(r)/2 {
		return r[:i] + "…"
	}
	return strings.TrimSpace(string([]rune(s)[:n])) + "…"
}

// titleRunes is the most of a prompt demo:long echoes as its banner: a
// prompt a new user types whole, a pasted page cut. Other replies echo 60
// runes, cut at a word end.
const titleRunes = 120

// truncateRunes cuts s to at most n runes.
func truncateRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n])
}

// normalReply is the canned markdown answer to prompt.
func normalReply(prompt string) string {
	r := newRNG(hashString(prompt))
	title := echo(prompt, 60)
	if title == "" {
		title = "Your question"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "## %s\n\n", title)
	fmt.Fprintf(&b, "%s The %s %s %s. In this demo the answer is assembled from a hash of your prompt, "+
		"so asking the same thing again gives the same reply.\n\n",
		r.pick(openers), r.pick(adjectives), r.pick(nouns), r.pick(verbs))
	for _, item := range r.pickN(bullets, 3) {
		fmt.Fprintf(&b, "- %s\n", item)
	}
	b.WriteString("\n| Option | Strength | Trade-off |\n|---|---|---|\n")
	rows := r.between(2, 3)
	start := r.intn(len(tableRows))
	for i := 0; i < rows; i++ {
		row := tableRows[(start+i)%len(tableRows)]
		fmt.Fprintf(&b, "| %s | %s | %s |\n", row[0], row[1], row[2])
	}
	id := r.pick(idents)
	fmt.Fprintf(&b, "\n```go\npackage main\n\nimport \"fmt\"\n\nfunc main() {\n\t%s := %d\n\tfmt.Println(%q, %s)\n}\n```\n\n",
		id, r.between(2, 99), r.pick(greeting), id)
	b.WriteString(r.pick(closings))
	return b.String()
}

// longReply is a canned answer of about 3000 words with many headings,
// lists, tables and code blocks.
func longReply(prompt string) string {
	r := newRNG(hashString(prompt) ^ 0x6c6f6e67)
	title := echo(prompt, titleRunes)
	if title == "" {
		title = "Your question"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "# Long answer: %s\n\n", title)
	b.WriteString("This reply is deliberately long so you can scroll, search and copy from it.\n\n")
	for part := 1; countWords(b.String()) < 3000; part++ {
		adj, noun := r.pick(adjectives), r.pick(nouns)
		fmt.Fprintf(&b, "## Part %d: the %s %s\n\n", part, adj, noun)
		for i := 0; i < 6; i++ {
			tpl := sentences[r.intn(len(sentences))]
			args := []any{r.pick(adjectives), r.pick(nouns)}
			if strings.Count(tpl, "%s") == 3 {
				args = append(args, r.pick(verbs))
			}
			if i > 0 {
				b.WriteByte(' ')
			}
			fmt.Fprintf(&b, tpl, args...)
		}
		b.WriteString("\n\n### Checklist\n\n")
		for _, item := range r.pickN(bullets, 5) {
			fmt.Fprintf(&b, "- %s\n", item)
		}
		b.WriteString("\n### Steps\n\n")
		for i, s := range r.pickN(steps, 4) {
			fmt.Fprintf(&b, "%d. %s\n", i+1, s)
		}
		b.WriteString("\n| Option | Strength | Trade-off |\n|---|---|---|\n")
		start := r.intn(len(tableRows))
		for i := 0; i < 4; i++ {
			row := tableRows[(start+i)%len(tableRows)]
			fmt.Fprintf(&b, "| %s | %s | %s |\n", row[0], row[1], row[2])
		}
		id := r.pick(idents)
		fmt.Fprintf(&b, "\n```go\nfunc part%d(values []int) int {\n\t%s := 0\n\tfor _, v := range values {\n\t\t%s += v * %d\n\t}\n\treturn %s\n}\n```\n\n",
			part, id, id, r.between(2, 9), id)
		fmt.Fprintf(&b, "> %s\n\n", r.pick(quotes))
	}
	b.WriteString(r.pick(closings))
	return b.String()
}

// thinkingText is the canned reasoning shown before a reply.
func thinkingText(prompt string) string {
	r := newRNG(hashString(prompt) ^ 0x7468696e6b)
	topic := echo(prompt, 40)
	if topic == "" {
		topic = "an empty prompt"
	}
	return fmt.Sprintf("The user wrote %d words about: %s\n"+
		"I should answer with a heading, a short paragraph, a list, a table and a code sample.\n"+
		"The %s %s is the clearest framing, so I will lead with that.\n"+
		"Let me keep it concrete and deterministic.",
		countWords(prompt), topic, r.pick(adjectives), r.pick(nouns))
}

// signature is a fake base64 thinking signature derived from prompt.
func signature(prompt string) string {
	r := newRNG(hashString(prompt) ^ 0x7369676e)
	raw := make([]byte, 48)
	for i := range raw {
		raw[i] = byte(r.next())
	}
	return base64.StdEncoding.EncodeToString(raw)
}

// countWords counts whitespace-separated words, the demo's token unit.
func countWords(s string) int { return len(strings.Fields(s)) }

// splitWords splits s into tokens of one word each with the whitespace that
// follows it attached (leading whitespace joins the first token), so joining
// the tokens gives s back exactly.
func splitWords(s string) []string {
	var out []string
	start := 0
	inSpace, seenWord := false, false
	for i, c := range s {
		space := unicode.IsSpace(c)
		if !space && inSpace && seenWord {
			out = append(out, s[start:i])
			start = i
		}
		if !space {
			seenWord = true
		}
		inSpace = space
	}
	if start < len(s) {
		out = append(out, s[start:])
	}
	return out
}
