package cli

import (
	"strings"
	"testing"

	"github.com/muesli/termenv"

	"muse/theme"
)

// BenchmarkPrintHostile is -p on a terminal given the 160 KB reply of
// "[a](" that made goldmark quadratic: it is printed flat.
func BenchmarkPrintHostile(b *testing.B) {
	th, err := theme.New("dark", true)
	if err != nil {
		b.Fatal(err)
	}
	evs := replyEvents(strings.Repeat("[a](", 40_000))
	for b.Loop() {
		o, err := newMDOut(new(byteCount), th.Markdown, termenv.TrueColor, 100)
		if err != nil {
			b.Fatal(err)
		}
		o.start()
		for _, ev := range evs {
			o.event(ev)
		}
		o.end()
	}
}
