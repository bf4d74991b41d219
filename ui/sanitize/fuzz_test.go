package sanitize

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// stripSGR removes the SGR sequences from s, which must satisfy onlySGR.
func stripSGR(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == 0x1b {
			i += strings.IndexByte(s[i:], 'm')
			continue
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// collapse replaces each run of '\n' and '\t' in s with one space.
func collapse(s string) string {
	var b strings.Builder
	run := false
	for i := 0; i < len(s); i++ {
		if s[i] == '\n' || s[i] == '\t' {
			if !run {
				b.WriteByte(' ')
			}
			run = true
			continue
		}
		run = false
		b.WriteByte(s[i])
	}
	return b.String()
}

func FuzzText(f *testing.F) {
	for _, tc := range corpus {
		f.Add(tc.in)
	}
	for _, tc := range invisibleCases {
		f.Add(tc.in)
	}
	f.Fuzz(func(t *testing.T, in string) {
		text, plain, line := Text(in), Plain(in), Line(in)

		if err := onlySGR(text); err != nil {
			t.Fatalf("Text(%q) = %q: %v", in, text, err)
		}
		if again := Text(text); again != text {
			t.Fatalf("Text not idempotent on %q: %q then %q", in, text, again)
		}
		if IsClean(in) != (text == in) {
			t.Fatalf("IsClean(%q) = %v, Text(%q) = %q", in, IsClean(in), in, text)
		}
		for name, out := range map[string]string{"Text": text, "Plain": plain, "Line": line} {
			if !utf8.ValidString(out) {
				t.Fatalf("%s(%q) = %q is not valid UTF-8", name, in, out)
			}
		}
		for name, out := range map[string]string{"Plain": plain, "Line": line} {
			if strings.IndexByte(out, 0x1b) >= 0 {
				t.Fatalf("%s(%q) = %q contains ESC", name, in, out)
			}
			if err := onlySGR(out); err != nil {
				t.Fatalf("%s(%q) = %q: %v", name, in, out, err)
			}
		}
		if strings.ContainsAny(line, "\n\t") {
			t.Fatalf("Line(%q) = %q contains a newline or tab", in, line)
		}
		// An SGR sequence or a newline between two runes changes what an
		// invisible character beside them does, so these hold exactly only
		// without invisible characters.
		if nextInvisible(in, 0) == len(in) {
			if want := stripSGR(text); plain != want {
				t.Fatalf("Plain(%q) = %q, want Text without SGR %q", in, plain, want)
			}
			if want := collapse(plain); line != want {
				t.Fatalf("Line(%q) = %q, want %q", in, line, want)
			}
		}
		if got := Line(plain); got != collapse(plain) {
			t.Fatalf("Line(Plain(%q)) = %q, want %q", in, got, collapse(plain))
		}
		if got := Plain(line); got != line {
			t.Fatalf("Plain(Line(%q)) = %q, want %q", in, got, line)
		}
		for name, out := range map[string]string{"Text": text, "Plain": plain, "Line": line} {
			if i := strings.IndexAny(out, alwaysInvisible); i >= 0 {
				t.Fatalf("%s(%q) = %q keeps an invisible character at %d", name, in, out, i)
			}
		}
		if Plain(plain) != plain || Line(line) != line {
			t.Fatalf("Plain or Line not idempotent on %q", in)
		}
	})
}
