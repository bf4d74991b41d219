package page

import (
	"strings"
	"testing"

	"muse/session"
)

// BenchmarkHostileLinks writes the page of a 160 KB reply of "[a](",
// which goldmark parses in time quadratic in its length: it is written
// flat (mdwrap.TooDeep).
func BenchmarkHostileLinks(b *testing.B) {
	sess := inMemory("hostile", session.Entry{Kind: session.KindUser, Text: "links"}, textReply("m", strings.Repeat("[a](", 40_000)))
	w := &peakWriter{}
	for b.Loop() {
		*w = peakWriter{}
		if err := Write(w, sess, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
