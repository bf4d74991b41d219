package sanitize

import (
	"fmt"
	"muse/ui/internal/streamtest"
	"strings"
	"testing"
	"unicode/utf8"
	"unsafe"

	"github.com/charmbracelet/glamour"
	"github.com/charmbracelet/glamour/styles"
)

// corpus maps hostile and benign inputs to their expected Text output.
var corpus = []struct {
	name, in, want string
}{
	// Benign text is kept as it is.
	{"empty", "", ""},
	{"ascii", "hello, world", "hello, world"},
	{"tabs and newlines", "a\tb\nc\n\n\td", "a\tb\nc\n\n\td"},
	{"emoji and CJK", "héllo 👋 世界 🇯🇵 e\u0301 👩‍💻", "héllo 👋 世界 🇯🇵 e\u0301 👩‍💻"},
	{"literal U+FFFD", "a\uFFFDb", "a\uFFFDb"},
	{"LRM in right-to-left text", "\u05e9\u05dc\u05d5\u05dd\u200e!", "\u05e9\u05dc\u05d5\u05dd\u200e!"},
	{"LRM in left-to-right text does nothing", "a\u200eb", "ab"},
	{"line and paragraph separators are line breaks", "ls: a\u2028b\u2029c", "ls: a\nb\nc"},
	{"brackets without ESC", "[2J ]52;c; [31m", "[2J ]52;c; [31m"},

	// SGR is kept.
	{"SGR bold red", "\x1b[1;31mred\x1b[0m", "\x1b[1;31mred\x1b[0m"},
	{"SGR 256 colour", "\x1b[38;5;200mx", "\x1b[38;5;200mx"},
	{"SGR colon truecolour", "\x1b[38:2::1:2:3mx", "\x1b[38:2::1:2:3mx"},
	{"SGR reset empty", "x\x1b[m", "x\x1b[m"},
	{"SGR at 64 bytes", "\x1b[" + strings.Repeat("1", 61) + "m", "\x1b[" + strings.Repeat("1", 61) + "m"},
	{"SGR over 64 bytes", "a\x1b[" + strings.Repeat("1", 62) + "mb", "ab"},
	{"SGR with private marker", "\x1b[>4;2mx", "x"},
	{"SGR with intermediate", "\x1b[1 mx", "x"},
	{"SGR unterminated", "x\x1b[1;31", "x"},

	// CSI other than SGR.
	{"CSI clear screen", "a\x1b[2Jb", "ab"},
	{"CSI cursor up", "a\x1b[1Ab", "ab"},
	{"CSI home and erase", "\x1b[H\x1b[2J\x1b[3J", ""},
	{"CSI private alt screen", "a\x1b[?1049hb", "ab"},
	{"CSI private hide cursor", "\x1b[?25l", ""},
	{"CSI intermediate cursor style", "a\x1b[0 qb", "ab"},
	{"CSI intermediate soft reset", "a\x1b[!pb", "ab"},
	{"CSI device status report", "\x1b[6n", ""},
	{"CSI report title", "\x1b[21t", ""},
	{"CSI unterminated", "x\x1b[12", "x"},
	{"CSI broken by control", "\x1b[2\x08J", "J"},
	{"CSI broken by SGR", "\x1b[\x1b[0m2J", "\x1b[0m2J"},

	// OSC.
	{"OSC 52 BEL", "a\x1b]52;c;aGVsbG8=\x07b", "ab"},
	{"OSC 52 ST", "a\x1b]52;c;aGVsbG8=\x1b\\b", "ab"},
	{"OSC 52 8-bit ST", "a\x1b]52;c;aGVsbG8=\u009cb", "ab"},
	{"OSC 0 title", "\x1b]0;pwned\x07", ""},
	{"OSC 8 hyperlink", "\x1b]8;;https://evil.example\x1b\\click\x1b]8;;\x1b\\", "click"},
	{"OSC 8 hyperlink BEL", "see \x1b]8;;https://evil.example\x07here\x1b]8;;\x07.", "see here."},
	{"OSC with UTF-8 payload", "\x1b]0;ĜĜ\u009c\x07x", "x"},
	{"OSC aborted by ESC", "\x1b]0;t\x1b[31mred", "\x1b[31mred"},
	{"OSC aborted by CAN", "\x1b]0;t\x18after", "after"},
	{"OSC unterminated", "ok\x1b]52;c;aGVsbG8=", "ok"},
	{"OSC unterminated long", "ok\x1b]0;" + strings.Repeat("payload ", 100), "ok"},

	// DCS, SOS, PM, APC.
	{"DCS sixel", "a\x1bPq#0;2;0;0;0#1;2;100;100;0~~@@\x1b\\b", "ab"},
	{"DCS DECRQSS", "\x1bP$qm\x1b\\", ""},
	{"DCS ignores BEL", "\x1bPabc\x07def\x1b\\x", "x"},
	{"DCS tmux passthrough", "\x1bPtmux;\x1b\x1b]52;c;aGVsbG8=\x07\x1b\\", ""},
	{"DCS unterminated", "ok\x1bPq payload", "ok"},
	{"DCS unterminated with BEL", "ok\x1bPq\x07payload", "ok"},
	{"APC kitty graphics", "a\x1b_Gf=100;AAAA\x1b\\b", "ab"},
	{"APC unterminated", "ok\x1b_Gf=100;AAAA", "ok"},
	{"SOS", "a\x1bXsos\x1b\\b", "ab"},
	{"PM", "a\x1b^pm\x1b\\b", "ab"},

	// Other escape sequences.
	{"lone ESC at end", "ok\x1b", "ok"},
	{"ESC ESC", "\x1b\x1b[31mx", "\x1b[31mx"},
	{"ESC before non-ASCII", "\x1bé", "é"},
	{"ESC before newline", "a\x1b\nb", "a\nb"},
	{"RIS full reset", "a\x1bcb", "ab"},
	{"DECSC DECRC", "\x1b7x\x1b8", "x"},
	{"reverse index", "\x1bM\x1bM", ""},
	{"keypad", "\x1b=\x1b>", ""},
	{"Fp back and forward index", "\x1b6\x1b9\x1b0x", "x"},
	{"nF charset", "a\x1b(Bb", "ab"},
	{"nF DEC graphics", "\x1b(0lqk", "lqk"},
	{"nF DECALN", "\x1b#8", ""},
	{"nF UTF-8 select", "\x1b%Gx", "x"},
	{"nF unterminated", "x\x1b(", "x"},
	{"nF broken", "\x1b(\x07x", "x"},

	// 8-bit C1 controls as runes.
	{"C1 CSI", "a\u009b2Jb", "ab"},
	{"C1 CSI SGR", "\u009b31mx", "x"},
	{"C1 OSC ST", "\u009d0;t\u009c", ""},
	{"C1 OSC BEL", "\u009d0;t\x07x", "x"},
	{"C1 OSC unterminated", "ok\u009d52;c;aGVsbG8=", "ok"},
	{"C1 DCS", "\u0090q\u009cx", "x"},
	{"C1 SOS", "\u0098s\x1b\\x", "x"},
	{"C1 PM", "\u009ep\u009cx", "x"},
	{"C1 APC", "\u009fGf=100;AAAA\u009cx", "x"},
	{"C1 APC BEL is payload", "\u009fG\x07x", ""},
	{"C1 NEL", "a\u0085b", "ab"},
	{"C1 RI and ST", "a\u008d\u009cb", "ab"},

	// 8-bit C1 and other invalid UTF-8 as raw bytes.
	{"raw CSI", "\x9b2J", "\uFFFD2J"},
	{"raw OSC", "\x9d0;t\x9c", "\uFFFD0;t\uFFFD"},
	{"invalid bytes", "a\xff\xfeb", "a\uFFFD\uFFFDb"},
	{"truncated rune", "\xe4\xb8", "\uFFFD\uFFFD"},
	{"overlong", "\xc0\xaf", "\uFFFD\uFFFD"},
	{"surrogate", "\xed\xa0\x80", "\uFFFD\uFFFD\uFFFD"},
	{"split by ESC", "\xe4\x1b[2J\xb8\x96", "\uFFFD\uFFFD\uFFFD"},

	// C0 controls and DEL.
	{"BEL", "ding\x07", "ding"},
	{"CR", "a\rb", "ab"},
	{"CRLF", "a\r\nb\r\n", "a\nb\n"},
	{"CR CRLF", "a\r\r\nb", "a\nb"},
	{"backspace", "abc\x08\x08\x08xyz", "abcxyz"},
	{"NUL", "a\x00b", "ab"},
	{"DEL", "a\x7fb", "ab"},
	{"VT FF", "a\x0b\x0cb", "ab"},
	{"all C0", "\x00\x01\x02\x03\x04\x05\x06\x07\x08\t\n\x0b\x0c\r\x0e\x0f" +
		"\x10\x11\x12\x13\x14\x15\x16\x17\x18\x19\x1a\x1c\x1d\x1e\x1f", "\t\n"},

	// Bidi controls.
	{"bidi override", "a\u202eevil\u202cb", "aevilb"},
	{"bidi embeddings", "\u202a\u202b\u202c\u202d\u202ex", "x"},
	{"bidi isolates", "\u2066\u2067\u2068x\u2069", "x"},
}

// onlySGR returns an error describing the first escape or control in s that
// is not an SGR sequence (at most maxSGR bytes), '\n' or '\t', or the first
// invalid UTF-8 byte or bidi control. It is deliberately written
// independently of the code under test.
func onlySGR(s string) error {
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == 0x1b:
			j := i + 1
			if j < len(s) && s[j] == '[' {
				j++
				for j < len(s) && strings.IndexByte("0123456789;:", s[j]) >= 0 {
					j++
				}
				if j < len(s) && s[j] == 'm' && j+1-i <= 64 {
					i = j + 1
					continue
				}
			}
			return fmt.Errorf("offset %d: non-SGR escape %q", i, s[i:min(len(s), i+16)])
		case c == '\n' || c == '\t':
			i++
		case c < 0x20 || c == 0x7f:
			return fmt.Errorf("offset %d: control %#02x", i, c)
		case c < 0x80:
			i++
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			switch {
			case r == utf8.RuneError && n == 1:
				return fmt.Errorf("offset %d: invalid UTF-8 byte %#02x", i, c)
			case r >= 0x80 && r <= 0x9f:
				return fmt.Errorf("offset %d: C1 control %U", i, r)
			case r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069:
				return fmt.Errorf("offset %d: bidi control %U", i, r)
			}
			i += n
		}
	}
	return nil
}

func TestOnlySGR(t *testing.T) {
	good := []string{"", "a\tb\n", "\x1b[1;31mx\x1b[0m", "\x1b[38:2::1:2:3m", "世界"}
	for _, s := range good {
		if err := onlySGR(s); err != nil {
			t.Errorf("onlySGR(%q) = %v, want nil", s, err)
		}
	}
	bad := []string{"\x1b", "\x1b[2J", "\x1b[?25l", "\x1b]0;t\x07", "\x1b[1", "a\rb", "\x7f",
		"\u009b", "\xff", "\u202e", "\x1b[" + strings.Repeat("1", 62) + "m"}
	for _, s := range bad {
		if err := onlySGR(s); err == nil {
			t.Errorf("onlySGR(%q) = nil, want an error", s)
		}
	}
}

func TestText(t *testing.T) {
	for _, tc := range corpus {
		t.Run(tc.name, func(t *testing.T) {
			got := Text(tc.in)
			if got != tc.want {
				t.Errorf("Text(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if err := onlySGR(got); err != nil {
				t.Errorf("Text(%q) = %q: %v", tc.in, got, err)
			}
			if again := Text(got); again != got {
				t.Errorf("Text not idempotent on %q: %q then %q", tc.in, got, again)
			}
			if clean := IsClean(tc.in); clean != (got == tc.in) {
				t.Errorf("IsClean(%q) = %v, but Text changes it: %v", tc.in, clean, got != tc.in)
			}
		})
	}
}

func TestPlain(t *testing.T) {
	tests := []struct{ in, want string }{
		{"plain", "plain"},
		{"a\tb\nc", "a\tb\nc"},
		{"\x1b[1;31mred\x1b[0m", "red"},
		{"\x1b[38:2::1:2:3mx\x1b[m", "x"},
		{"a\x1b[2Jb\x1b]0;t\x07c", "abc"},
		{"a\r\nb", "a\nb"},
	}
	for _, tc := range tests {
		if got := Plain(tc.in); got != tc.want {
			t.Errorf("Plain(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	for _, tc := range corpus {
		if got := Plain(tc.in); strings.IndexByte(got, 0x1b) >= 0 {
			t.Errorf("Plain(%q) = %q contains ESC", tc.in, got)
		}
	}
}

func TestLine(t *testing.T) {
	tests := []struct{ in, want string }{
		{"title", "title"},
		{"a\n\tb", "a b"},
		{"title\r\nsecond", "title second"},
		{"a\n\x1b[2J\nb", "a b"},
		{"a\n\x07\t\rb", "a b"},
		{"\tx\t", " x "},
		{"a \n b", "a   b"},
		{"a\n\nb\n\nc", "a b c"},
		{"\x1b[1mbold\x1b[0m\nnext", "bold next"},
		{"https://ex.example/\x1b]8;;x\x07p\u202eath", "https://ex.example/path"},
		{"report\u2066.pdf\u2069.exe", "report.pdf.exe"},
		{"T\u2028evil\u2029\nx", "T evil x"},
	}
	for _, tc := range tests {
		if got := Line(tc.in); got != tc.want {
			t.Errorf("Line(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestNoAllocWhenClean(t *testing.T) {
	clean := []string{
		"",
		"hello, world",
		strings.Repeat("The quick brown fox jumps over the lazy dog.\n", 100),
		"héllo 👋 世界\tcolumns\n",
	}
	textOnly := []string{
		"\x1b[1;31mred\x1b[0m \x1b[38:2::1:2:3mtrue\x1b[m",
		"a\tb\nc",
	}
	for _, s := range append(clean, textOnly...) {
		if got := Text(s); unsafe.StringData(got) != unsafe.StringData(s) || got != s {
			t.Errorf("Text(%q) did not return its argument", s)
		}
		if n := testing.AllocsPerRun(100, func() { _ = Text(s) }); n != 0 {
			t.Errorf("Text(%q): %v allocs, want 0", s, n)
		}
		if n := testing.AllocsPerRun(100, func() { _ = IsClean(s) }); n != 0 {
			t.Errorf("IsClean(%q): %v allocs, want 0", s, n)
		}
	}
	for _, s := range clean {
		if strings.ContainsAny(s, "\n\t") {
			continue
		}
		for name, f := range map[string]func(string) string{"Plain": Plain, "Line": Line} {
			if got := f(s); unsafe.StringData(got) != unsafe.StringData(s) || got != s {
				t.Errorf("%s(%q) did not return its argument", name, s)
			}
			if n := testing.AllocsPerRun(100, func() { _ = f(s) }); n != 0 {
				t.Errorf("%s(%q): %v allocs, want 0", name, s, n)
			}
		}
	}
	dirty := "x\x1b]52;c;aGVsbG8=\x07y" + strings.Repeat("z", 1000) + "\x1b[2J"
	if n := testing.AllocsPerRun(100, func() { _ = IsClean(dirty) }); n != 0 {
		t.Errorf("IsClean(dirty): %v allocs, want 0", n)
	}
	if n := testing.AllocsPerRun(100, func() { _ = Text(dirty) }); n > 1 {
		t.Errorf("Text(dirty): %v allocs, want at most 1", n)
	}
}

func TestIsClean(t *testing.T) {
	for s, want := range map[string]bool{
		"":                  true,
		"hi\tthere\n":       true,
		"\x1b[31mred\x1b[m": true,
		"\x1b[2J":           false,
		"a\r\nb":            false,
		"\xff":              false,
		"\u202e":            false,
		"\u0085":            false,
		"\x1b":              false,
	} {
		if got := IsClean(s); got != want {
			t.Errorf("IsClean(%q) = %v, want %v", s, got, want)
		}
	}
}

// TestGlamour shows that glamour decodes numeric character references into
// raw control characters and that Text neutralises its output.
func TestGlamour(t *testing.T) {
	r, err := glamour.NewTermRenderer(
		glamour.WithStyles(styles.DarkStyleConfig),
		glamour.WithWordWrap(80),
	)
	if err != nil {
		t.Fatal(err)
	}
	md := "# Title &#27;]0;title&#7;\n\n" +
		"Copy this: &#27;]52;c;aGVsbG8=&#7; then &#x1b;[2J and **&#27;]0;title&#7;**.\n\n" +
		"- item &#x1b;]8;;https://evil.example&#x1b;\\link&#x1b;]8;;&#x1b;\\\n\n" +
		"`&#27;]52;c;aGVsbG8=&#7;` and &#x9b;2J and &#x202e;txt.exe\n"
	raw, err := r.Render(md)
	if err != nil {
		t.Fatal(err)
	}
	// The threat is real: glamour emits OSC 52 and OSC 0 verbatim.
	for _, hostile := range []string{"\x1b]52;c;aGVsbG8=\x07", "\x1b]0;title\x07"} {
		if !strings.Contains(raw, hostile) {
			t.Errorf("glamour output lacks %q; has glamour started escaping entities?\n%q", hostile, raw)
		}
	}
	if onlySGR(raw) == nil {
		t.Fatalf("glamour output unexpectedly safe:\n%q", raw)
	}
	out := Text(raw)
	if err := onlySGR(out); err != nil {
		t.Fatalf("Text(glamour output): %v\n%q", err, out)
	}
	// Payloads of the sequences glamour left intact must not leak as text.
	// (In the heading and after "[2J" glamour itself splices SGR between ESC
	// and the rest, so a terminal would print "]0;title" and "2J" there as
	// harmless text; Text does the same.)
	if !strings.Contains(raw, "\u202e") {
		t.Errorf("glamour output lacks the decoded U+202E:\n%q", raw)
	}
	for _, leak := range []string{"52;c;aGVsbG8=", "evil.example", "\u202e"} {
		if strings.Contains(out, leak) {
			t.Errorf("Text(glamour output) leaks payload %q:\n%q", leak, out)
		}
	}
	for _, kept := range []string{"Title", "Copy this:  then", "2J", "link", "txt.exe"} {
		if !strings.Contains(Plain(raw), kept) {
			t.Errorf("Plain(glamour output) lost %q:\n%q", kept, Plain(raw))
		}
	}
	if IsClean(raw) || !IsClean(out) {
		t.Errorf("IsClean(raw) = %v, IsClean(out) = %v; want false, true", IsClean(raw), IsClean(out))
	}
}

// TestLinearCost feeds pathological inputs that a backtracking or
// rescanning implementation would do quadratic work on: each pattern
// repeated to four times the length costs at most five times the bytes,
// counted, not timed.
func TestLinearCost(t *testing.T) {
	patterns := []string{
		"\x1b", "\x1b[", "\x1b]", "\x1bP", "\x1b[1;", "\x1b(", "\u009b", "\u009d",
		"\x1b[" + strings.Repeat("1", 70), "\x1b[" + strings.Repeat("1", 61) + "m",
		"\xff", "\r\n", "\n\x07\t", "a\x1b", "\u0301", "a" + strings.Repeat("\u0300", 40),
	}
	for _, p := range patterns {
		cost := func(n int) uint64 {
			s := strings.Repeat(p, n/len(p))
			return streamtest.Allocated(func() {
				for _, f := range []func(string) string{Text, Plain, Line} {
					f(s)
				}
				_ = IsClean(s)
			})
		}
		cost(1 << 10)
		if small, large := cost(1<<18), cost(1<<20); large > 5*small+4096 {
			t.Errorf("pattern %q: four times the input cost %.1f times the bytes (%d, %d)", p, float64(large)/float64(max(small, 1)), small, large)
		}
		s := strings.Repeat(p, (1<<20)/len(p))
		for _, f := range []func(string) string{Text, Plain, Line} {
			if err := onlySGR(f(s)); err != nil {
				t.Errorf("pattern %q: %v", p, err)
			}
		}
	}
}
