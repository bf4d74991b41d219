package mdwrap

import "testing"

func TestTrimPadding(t *testing.T) {
	for in, want := range map[string]string{
		"":                                "",
		"abc   ":                          "abc",
		"\x1b[1mabc\x1b[0m   \x1b[0m":     "\x1b[1mabc\x1b[0m",
		"\x1b[38;5;1m   \x1b[0m":          "",
		"\x1b[1mé  ":                      "\x1b[1mé\x1b[0m",
		"  indented \x1b[0m text \x1b[0m": "  indented \x1b[0m text\x1b[0m",
		"\x1b[1mbold\x1b[0m\x1b[38;5;252m \x1b[0m\x1b[38;5;252m \x1b[0m": "\x1b[1mbold\x1b[0m",
		"héllo wörld  \x1b[0m":              "héllo wörld\x1b[0m",
		"\x1b[31mred\x1b[0m tail\x1b[32m  ": "\x1b[31mred\x1b[0m tail\x1b[0m",
	} {
		if got := TrimPadding(in); got != want {
			t.Errorf("TrimPadding(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestTrimLines(t *testing.T) {
	in := "\n\x1b[38;5;252m  \x1b[0m\n  one  \n\x1b[1mtwo\x1b[0m   \n\n"
	if got, want := TrimLines(in), "  one\n\x1b[1mtwo\x1b[0m"; got != want {
		t.Errorf("TrimLines(%q) = %q, want %q", in, got, want)
	}
}
