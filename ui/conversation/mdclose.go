package conversation

import "strings"

// closeOpenInline makes the unfinished last line of a streaming reply's
// tail render as it will once its markers close: an emphasis (**) or a
// strikethrough (~~) opened on it and not yet closed is closed at its end
// (before trailing spaces), or dropped when nothing follows it yet, and an
// unclosed code span gets its closing backticks. Without this, "**bold"
// shows its asterisks until the reply writes the closing pair. Only the
// unfinished line changes, and only while the reply streams: mdStream
// never keeps that line in its stable prefix, and a finished reply is
// rendered from its own text.
func closeOpenInline(tail string) string {
	start := strings.LastIndexByte(tail, '\n') + 1
	line := tail[start:]
	if line == "" || !strings.ContainsAny(line, "*~`") || isFenceLine(line) {
		return tail
	}
	code := -1              // where an unclosed code span's backticks start
	ticks := 0              // how many backticks open it
	var stars, tildes []int // where each ** and ~~ outside code starts
	for i := 0; i < len(line); {
		c := line[i]
		if c != '`' && c != '*' && c != '~' {
			i++
			continue
		}
		j := i
		for j < len(line) && line[j] == c {
			j++
		}
		n := j - i
		switch {
		case c == '`' && code < 0:
			code, ticks = i, n
		case c == '`' && n == ticks:
			code = -1
		case code >= 0:
		case c == '*':
			for k := 0; k+1 < n; k += 2 {
				stars = append(stars, i+k)
			}
		case c == '~':
			for k := 0; k+1 < n; k += 2 {
				tildes = append(tildes, i+k)
			}
		}
		i = j
	}
	if code >= 0 {
		return tail + strings.Repeat("`", ticks)
	}
	closeAt := func(line string, at []int, marker string) string {
		if len(at)%2 == 0 {
			return line
		}
		p := at[len(at)-1]
		if strings.TrimSpace(line[p+2:]) == "" {
			return line[:p] + line[p+2:] // nothing after it yet: not drawn
		}
		body := strings.TrimRight(line, " \t")
		return body + marker + line[len(body):]
	}
	// ~~ first: closing it does not move a ** opened before it.
	line = closeAt(line, tildes, "~~")
	line = closeAt(line, stars, "**")
	return tail[:start] + line
}

// isFenceLine reports whether line opens or closes a code fence.
func isFenceLine(line string) bool {
	l := strings.TrimLeft(line, " ")
	return len(line)-len(l) < 4 && (strings.HasPrefix(l, "```") || strings.HasPrefix(l, "~~~"))
}

// inFence reports whether the end of text is inside a code fence opened
// in it: an odd number of fence lines.
func inFence(text string) bool {
	open := false
	for len(text) > 0 {
		line := text
		if i := strings.IndexByte(text, '\n'); i >= 0 {
			line, text = text[:i], text[i+1:]
		} else {
			text = ""
		}
		if isFenceLine(line) {
			open = !open
		}
	}
	return open
}
