package session

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestTitleFrom(t *testing.T) {
	long := "Please explain how the garbage collector in Go decides when to run a cycle"
	for _, tc := range []struct {
		name, prompt, want string
	}{
		{"empty", "", "untitled"},
		{"blank", " \n\t\n  \r\n", "untitled"},
		{"short", "Hello there", "Hello there"},
		{"collapsed", "  Hello \t  there\r\n", "Hello there"},
		{"multi-line", "\n\n   \n  First   real line \nsecond line\nthird", "First real line"},
		{"long", long, "Please explain how the garbage collector in Go…"},
		{"exactly 48", strings.Repeat("abcdefgh ", 5) + "abc", strings.Repeat("abcdefgh ", 5) + "abc"},
		{"49", strings.Repeat("abcdefgh ", 5) + "abcd", strings.Repeat("abcdefgh ", 4) + "abcdefgh…"},
		{"space at limit", strings.Repeat("a", 47) + " rest", strings.Repeat("a", 47) + "…"},
		{"one long word", strings.Repeat("x", 60), strings.Repeat("x", 47) + "…"},
		{"long word after short", "a " + strings.Repeat("x", 60), "a " + strings.Repeat("x", 45) + "…"},
		{"punctuation", "Compare these: apples, oranges, pears, plums, cherries", "Compare these: apples, oranges, pears, plums…"},
		{"unicode", strings.Repeat("日本語の文章", 10), strings.Repeat("日本語の文章", 7) + "日本語の文…"},
		{"unicode words", strings.Repeat("ünïcödé ", 8), "ünïcödé ünïcödé ünïcödé ünïcödé ünïcödé ünïcödé…"},
		{"emoji", "🎉 party " + strings.Repeat("🎈", 50), "🎉 party " + strings.Repeat("🎈", 39) + "…"},
		{"control characters", "red\x1b[31m text\x07 here", "red [31m text here"},
		{"bidi override", "abc\u202edef\u2066", "abcdef"},
		{"only controls", "\x1b\x07\n\u202e", "untitled"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := TitleFrom(tc.prompt)
			if got != tc.want {
				t.Errorf("TitleFrom(%q) = %q, want %q", tc.prompt, got, tc.want)
			}
			if n := utf8.RuneCountInString(got); n > 48 {
				t.Errorf("title has %d runes, want at most 48", n)
			}
			if !utf8.ValidString(got) {
				t.Errorf("title %q is not valid UTF-8", got)
			}
		})
	}
}

func TestInfo(t *testing.T) {
	sess := &Session{
		ID:     "20250301-090000-abcdef",
		Params: Params{Model: "m1"},
		Entries: []Entry{
			{ID: "1", Kind: KindUser}, {ID: "2", Kind: KindAssistant}, {ID: "3", Kind: KindError},
			{ID: "4", Kind: KindNotice}, {ID: "5", Kind: KindUser}, {ID: "6", Kind: KindAssistant, Status: StatusCancelled},
		},
		Created: clockStart,
		Updated: clockStart.Add(1),
	}
	want := Info{ID: sess.ID, Title: "untitled", Created: clockStart, Updated: clockStart.Add(1), Messages: 4, Model: "m1"}
	if got := sess.info(); got != want {
		t.Errorf("Info() = %+v, want %+v", got, want)
	}
	sess.Title = "Named"
	if got := sess.info().Title; got != "Named" {
		t.Errorf("Info().Title = %q, want Named", got)
	}
}
