package sanitize

import (
	"strings"
	"testing"
)

func TestStreamRemovesSplitEscapes(t *testing.T) {
	for _, text := range []string{
		"before \x1b]0;pwned\x07 after",
		"clear \x1b[2J\x1b[H home",
		"osc52 \x1b]52;c;aGk=\x1b\\ done",
		"c1 \u009b2J and \u009d0;title\u0007 end",
		"colour \x1b[31mred\x1b[0m stays",
		"runes ü 🎉 split",
	} {
		want := Text(text)
		for cut := 0; cut <= len(text); cut++ {
			for cut2 := cut; cut2 <= len(text); cut2++ {
				var s Stream
				got := s.Write(text[:cut]) + s.Write(text[cut:cut2]) + s.Write(text[cut2:]) + s.Flush()
				if got != want {
					t.Fatalf("%q cut at %d,%d: got %q, want %q", text, cut, cut2, got, want)
				}
			}
		}
	}
}

func FuzzStream(f *testing.F) {
	f.Add("a\x1b]0;x\x07b", 3)
	f.Add("\u009b31m", 1)
	f.Add("x\x1b[", 2)
	f.Fuzz(func(t *testing.T, text string, cut int) {
		if cut < 0 || cut > len(text) {
			return
		}
		var s Stream
		got := s.Write(text[:cut]) + s.Write(text[cut:]) + s.Flush()
		if !IsClean(got) {
			t.Fatalf("%q cut at %d gave unclean %q", text, cut, got)
		}
		if strings.Contains(got, "\x1b]") {
			t.Fatalf("an OSC survived: %q", got)
		}
	})
}
