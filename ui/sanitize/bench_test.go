package sanitize

import (
	"strings"
	"testing"
)

const benchSize = 4 << 10

// cleanText is 4 KiB of ASCII prose with newlines and tabs.
var cleanText = strings.Repeat("The quick brown fox jumps over the lazy dog;\tpack my box.\n", benchSize/58+1)[:benchSize]

// mixedText is 4 KiB of prose with SGR and hostile sequences mixed in.
var mixedText = func() string {
	chunks := []string{
		"plain words here ", "\x1b[1;31m", "red text", "\x1b[0m", " more ",
		"\x1b]52;c;aGVsbG8=\x07", "\x1b[2J", "\x1b]8;;https://evil.example\x1b\\link\x1b]8;;\x1b\\",
		"\r\n", "\u009b1A", "\x1b_Gf=100;AAAA\x1b\\", "世界 👋 ", "\u202e", "\x07", "\x1b[38;5;200m",
	}
	var b strings.Builder
	for b.Len() < benchSize {
		for _, c := range chunks {
			b.WriteString(c)
		}
	}
	return b.String()[:benchSize]
}()

func bench(b *testing.B, f func(string) string, s string) {
	b.SetBytes(int64(len(s)))
	b.ReportAllocs()
	for b.Loop() {
		_ = f(s)
	}
}

func BenchmarkTextClean(b *testing.B)  { bench(b, Text, cleanText) }
func BenchmarkTextMixed(b *testing.B)  { bench(b, Text, mixedText) }
func BenchmarkPlainMixed(b *testing.B) { bench(b, Plain, mixedText) }
func BenchmarkLineMixed(b *testing.B)  { bench(b, Line, mixedText) }

func BenchmarkIsCleanClean(b *testing.B) {
	b.SetBytes(int64(len(cleanText)))
	b.ReportAllocs()
	for b.Loop() {
		_ = IsClean(cleanText)
	}
}
