package picker

import (
	"os"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"muse/session"
	"muse/session/index"
	"muse/theme"
)

// BenchmarkSearchKeystroke is the picker's search as you type, from the
// key that ends a word to the hits drawn: Update, the search it asks for
// (the index's query and snippets), Update with the hits, View. It needs
// a large history: MUSE_BENCH_SESSIONS names its sessions directory, as
// scripts/genhistory writes it, and MUSE_BENCH_CACHE the cache folder of
// its index (scripts/benchhistory sets both).
func BenchmarkSearchKeystroke(b *testing.B) {
	dir := os.Getenv("MUSE_BENCH_SESSIONS")
	if dir == "" {
		if os.Getenv("CI") != "" {
			b.Fatal("MUSE_BENCH_SESSIONS is not set: CI runs no benchmarks; scripts/benchhistory runs this one")
		}
		b.Skip("MUSE_BENCH_SESSIONS is not set: see scripts/benchhistory")
	}
	store, err := session.OpenAt(dir, session.Places{Cache: os.Getenv("MUSE_BENCH_CACHE")})
	if err != nil {
		b.Fatal(err)
	}
	shared := index.NewShared(store)

	th, _ := theme.New("", true)
	// Three whole words, rare to common, and two prefixes of them: no word
	// of any session, so searched as prefixes (index.Query.PrefixLast).
	for _, word := range []string{"zebracorn", "adyrruke", "dywq", "zebrac", "dyw"} {
		b.Run(word, func(b *testing.B) {
			p := New(store, shared, th).SetSize(120, 40)
			p, cmd := p.Open("")
			p, _ = p.Update(cmd())
			p, _ = p.Update(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{'f'}})
			p, _ = typed(p, word[:len(word)-1])
			last := tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{rune(word[len(word)-1])}}
			for b.Loop() {
				q, cmd := p.Update(last)
				q, _ = q.Update(listed(cmd))
				if q.View() == "" {
					b.Fatal("nothing drawn")
				}
			}
		})
	}
}

// listed runs the commands of cmd, a batch, each in a goroutine, and
// returns the first ListedMsg one gives: others, as the cursor's blink,
// wait for a timer.
func listed(cmd tea.Cmd) tea.Msg {
	out := make(chan tea.Msg, 1)
	var run func(tea.Cmd)
	run = func(c tea.Cmd) {
		switch m := c().(type) {
		case tea.BatchMsg:
			for _, c := range m {
				if c != nil {
					go run(c)
				}
			}
		case ListedMsg:
			out <- m
		}
	}
	go run(cmd)
	return <-out
}
