package api

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// fileNames are names a file may have, hostile ones among them.
var fileNames = []string{
	"notes.md", "", `say "hi".txt`, "a<b>c.go", "</file>", `"><file name="x">`, "a&amp;b", "&quot;",
	"two\nlines", "tab\there", "ünïcödé 文件.txt", "\x1b]0;title\x07.sh", "&", "\r",
}

// fileBodies are texts a file may hold.
var fileBodies = []string{
	"", "\n", "one line", "# Title\n\nbody\n", "</file>", "text\n</file>", "<file name=\"inner\">\nx\n</file>",
	"\r\n\r\n", strings.Repeat("long ", 1000),
}

// TestFileTextRoundTrip checks that ParseFileText reads back the name
// and text of every FileTextBlock, hostile names included: a control
// character other than a line break or tab in a name, or bytes that are
// not UTF-8, come back as U+FFFD, the one change.
func TestFileTextRoundTrip(t *testing.T) {
	for _, name := range fileNames {
		for _, body := range fileBodies {
			checkFileText(t, name, body)
		}
	}
}

// checkFileText checks one round trip of FileTextBlock and ParseFileText.
func checkFileText(t *testing.T, name, body string) {
	t.Helper()
	b := FileTextBlock(name, body)
	if b.Type != BlockText {
		t.Fatalf("type %q", b.Type)
	}
	firstLine, _, _ := strings.Cut(b.Text, "\n")
	if strings.Count(firstLine, `"`) != 2 || strings.ContainsAny(strings.TrimSuffix(strings.TrimPrefix(firstLine, "<file "), ">"), "<>") {
		t.Fatalf("the name breaks out of its tag: %q", firstLine)
	}
	gotName, gotBody, ok := ParseFileText(b.Text)
	if want := attrRoundTrip(name); !ok || gotName != want || gotBody != body {
		t.Fatalf("%q, %q: read back %q, %q, %v", name, body, gotName, gotBody, ok)
	}
}

// attrRoundTrip is name as EscapeAttr keeps it: its control characters
// but line breaks and tabs, and bytes that are not UTF-8, as U+FFFD.
func attrRoundTrip(name string) string {
	return strings.Map(func(r rune) rune {
		if (r < 0x20 && r != '\n' && r != '\r' && r != '\t') || (r >= 0x7f && r < 0xa0) {
			return utf8.RuneError
		}
		return r
	}, strings.ToValidUTF8(name, "\uFFFD"))
}

// TestFileNameIsAttributeText checks the name of a text file as it goes
// into the request: every quote, bracket, ampersand and line break is
// written as attribute text, so the name neither ends its attribute nor
// starts another, whichever quote a reader expects.
func TestFileNameIsAttributeText(t *testing.T) {
	for name, want := range map[string]string{
		`a" onload="x.txt`:        `<file name="a&quot; onload=&quot;x.txt">`,
		`it's.txt`:                `<file name="it&#39;s.txt">`,
		"two\nlines\r.txt":        `<file name="two&#10;lines&#13;.txt">`,
		"tab\t<b>&.txt":           `<file name="tab&#9;&lt;b&gt;&amp;.txt">`,
		"\x1b]0;x\x07\x00\xff.sh": "<file name=\"\uFFFD]0;x\uFFFD\uFFFD\uFFFD.sh\">",
	} {
		first, _, _ := strings.Cut(FileTextBlock(name, "body").Text, "\n")
		if first != want {
			t.Errorf("%q is written %s, want %s", name, first, want)
		}
	}
}

// TestParseFileTextRefuses checks that text not written by FileTextBlock
// is not taken for a file.
func TestParseFileTextRefuses(t *testing.T) {
	for _, text := range []string{
		"", "hello", "<file name=\"a\">", "<file name=\"a\">\nbody", "<file name=\"a\">body\n</file>",
		"<file name=\"a\"b\">\nx\n</file>", "<file name=\"a<b\">\nx\n</file>", " <file name=\"a\">\nx\n</file>",
		"<file name=\"a\">\nx\n</file>\n", "<file name='a'>\nx\n</file>",
	} {
		if name, body, ok := ParseFileText(text); ok {
			t.Errorf("%q read as a file %q: %q", text, name, body)
		}
	}
}

// FuzzFileText checks the round trip for any name and text, and that
// ParseFileText never panics and reads only what FileTextBlock could
// have written.
func FuzzFileText(f *testing.F) {
	for i, name := range fileNames {
		f.Add(name, fileBodies[i%len(fileBodies)])
	}
	f.Fuzz(func(t *testing.T, name, body string) {
		checkFileText(t, name, body)
		for _, text := range []string{name, body, name + body} {
			n, b, ok := ParseFileText(text)
			if !ok {
				continue
			}
			if strings.Contains(n, "\n") || !strings.HasSuffix(text, b+"\n</file>") {
				t.Fatalf("%q read as %q, %q", text, n, b)
			}
			if n2, b2, ok := ParseFileText(FileTextBlock(n, b).Text); !ok || n2 != n || b2 != b {
				t.Fatalf("%q read as %q, %q, written and read again as %q, %q, %v", text, n, b, n2, b2, ok)
			}
		}
		if utf8.ValidString(name) && !utf8.ValidString(FileTextBlock(name, "").Text) {
			t.Fatalf("a valid name %q made invalid UTF-8", name)
		}
	})
}
