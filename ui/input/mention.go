package input

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Mentions: a prompt names a file to attach with @ and its path, where the
// @ starts a word (at the start of a line or after a space), so that an
// email address (a@b.com) is no mention:
//
//	describe @shots/one.png and @~/notes.md
//	compare @"my file.png" with @"/tmp/other file.png"
//
// A path with a space, or one ending in one of the characters below, is
// written in double quotes (Tab completion quotes it so); a path with a
// double quote in it cannot be mentioned (/attach takes it). Unquoted, the
// punctuation that may follow a word in a sentence (. , ; : ! ? and closing
// brackets) is not part of the path: "see @notes.md." mentions notes.md.
// An @ inside code (between backticks, or in a ``` or ~~~ fenced block) is
// no mention, so pasted code with decorators or annotations stays text.
// Paths are returned as written: ~ is not expanded (see ExpandHome).

// trailingPunct ends a sentence or closes a bracket after an unquoted path,
// and is not part of it.
const trailingPunct = ".,;:!?)]}'\""

// Mentions finds the @path and @"path" mentions of prompt, and returns
// their paths, in order, and the prompt without them (with the space before
// each, and the whole trimmed).
func Mentions(prompt string) (paths []string, rest string) {
	out := make([]byte, 0, len(prompt))
	fence := ""
	for _, line := range strings.SplitAfter(prompt, "\n") {
		t := strings.TrimLeft(line, " \t")
		switch {
		case fence == "" && (strings.HasPrefix(t, "```") || strings.HasPrefix(t, "~~~")):
			fence = t[:3]
		case fence != "":
			if strings.HasPrefix(t, fence) {
				fence = ""
			}
		default:
			paths, out = mentionsInLine(line, paths, out)
			continue
		}
		out = append(out, line...)
	}
	return paths, strings.TrimSpace(string(out))
}

// mentionsInLine adds the mentions of line to paths, and appends line
// without them to out.
func mentionsInLine(line string, paths []string, out []byte) ([]string, []byte) {
	lineStart := len(out)
	code := false // inside `inline code`
	for i := 0; i < len(line); {
		r, size := utf8.DecodeRuneInString(line[i:])
		if r == '`' {
			code = !code
		}
		if r == '@' && !code && (i == 0 || startsWord(line[:i])) {
			if path, n := mentionAt(line[i:]); n > 0 {
				paths = append(paths, path)
				// Drop the spaces before the mention; at the line's start,
				// those after it.
				for len(out) > lineStart && (out[len(out)-1] == ' ' || out[len(out)-1] == '\t') {
					out = out[:len(out)-1]
				}
				i += n
				if len(out) == lineStart {
					for i < len(line) && (line[i] == ' ' || line[i] == '\t') {
						i++
					}
				}
				continue
			}
		}
		out = append(out, line[i:i+size]...)
		i += size
	}
	return paths, out
}

// startsWord reports whether a word starts after before: it ends with a
// space.
func startsWord(before string) bool {
	r, _ := utf8.DecodeLastRuneInString(before)
	return unicode.IsSpace(r)
}

// mentionAt reads the mention s starts with (s starts with @): its path and
// its length in bytes, 0 when s starts none.
func mentionAt(s string) (path string, n int) {
	s = s[1:]
	if strings.HasPrefix(s, `"`) {
		end := strings.IndexAny(s[1:], "\"\n")
		if end <= 0 || s[1+end] != '"' {
			return "", 0 // unterminated, or empty
		}
		return s[1 : 1+end], 1 + end + 2
	}
	end := strings.IndexFunc(s, unicode.IsSpace)
	if end < 0 {
		end = len(s)
	}
	path = strings.TrimRight(s[:end], trailingPunct)
	if path == "" {
		return "", 0
	}
	return path, 1 + len(path)
}

// needsQuotes reports whether path, mentioned, is written in double quotes:
// it has a space, or ends in what an unquoted mention leaves out.
func needsQuotes(path string) bool {
	return strings.IndexFunc(path, unicode.IsSpace) >= 0 ||
		(path != "" && strings.ContainsAny(path[len(path)-1:], trailingPunct))
}

// mention writes path as a mention; closed ends the quotes of a quoted one
// (a folder being completed stays open, for more of its path).
func mention(path string, quoted, closed bool) string {
	if !quoted && !needsQuotes(path) {
		return "@" + path
	}
	if closed {
		return `@"` + path + `"`
	}
	return `@"` + path
}

// Mention writes path as an @mention that Mentions reads back, quoted
// where it must be; "" for a path a mention cannot hold (one with a double
// quote or a line break).
func Mention(path string) string {
	if path == "" || strings.ContainsAny(path, "\"\n\r") {
		return ""
	}
	return mention(path, false, true)
}
