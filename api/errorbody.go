package api

import (
	"bytes"
	"html"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// snippetLen is how much of a body that is not Anthropic's error shape is
// shown, in bytes.
const snippetLen = 200

// snippet returns the start of body as one line: at most snippetLen bytes,
// cut on a rune boundary, with "…" when something was cut.
func snippet(body []byte) string {
	return clip(oneLine(string(body)), snippetLen)
}

// oneLine makes s a single line of valid UTF-8: every run of white space
// (line breaks, tabs, U+2028 and the like) becomes one space, leading and
// trailing white space is dropped, and bytes that are not UTF-8 become
// U+FFFD. Nothing else changes: control characters such as ESC are kept, for
// the front end to sanitize.
func oneLine(s string) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if !needsFolding(s) {
		return s
	}
	return strings.Join(strings.Fields(s), " ")
}

// needsFolding reports whether oneLine has white space to fold in s, which
// must be valid UTF-8: a fast path for the usual single-line message.
func needsFolding(s string) bool {
	if s == "" {
		return false
	}
	if s[0] == ' ' || s[len(s)-1] == ' ' || strings.Contains(s, "  ") {
		return true
	}
	for _, r := range s {
		if r != ' ' && unicode.IsSpace(r) {
			return true
		}
	}
	return false
}

// clip cuts s, valid UTF-8, to at most n bytes on a rune boundary and adds
// "…" when it cut something.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	cut := n
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return strings.TrimRight(s[:cut], " ") + "…"
}

// htmlSummary summarises an HTML error page, as proxies and load balancers
// send, by the text of its <title> or, failing that, of its first <h1>: tags
// are dropped, entities decoded, and a leading status code equal to status
// removed, so nginx's "502 Bad Gateway" page gives "Bad Gateway". A page with
// neither gives the start of its text without tags. ok is false when body
// does not look like HTML.
func htmlSummary(body []byte, status int) (summary string, ok bool) {
	trimmed := bytes.TrimSpace(bytes.TrimPrefix(bytes.TrimSpace(body), []byte("\xEF\xBB\xBF")))
	if len(trimmed) == 0 || trimmed[0] != '<' {
		return "", false
	}
	lower := asciiLower(trimmed)
	if !looksLikeHTML(lower) {
		return "", false
	}
	for _, tag := range []string{"title", "h1"} {
		if inner, found := element(trimmed, lower, tag); found {
			s := dropStatus(htmlText(inner), status)
			if s != "" {
				return clip(s, snippetLen), true
			}
		}
	}
	s := clip(htmlText(trimmed), snippetLen)
	if s == "" {
		s = "an HTML page without text"
	}
	return s, true
}

// dropStatus removes from s a leading status code equal to status, with the
// space or colon after it: the status is shown beside the message already.
func dropStatus(s string, status int) string {
	if status == 0 {
		return s
	}
	rest, ok := strings.CutPrefix(s, strconv.Itoa(status))
	if !ok || (rest != "" && rest[0] != ' ' && rest[0] != ':') {
		return s
	}
	return strings.TrimLeft(rest, " :")
}

// looksLikeHTML reports whether lower, a body in ASCII lower case that starts
// with '<', is an HTML document rather than, say, XML.
func looksLikeHTML(lower []byte) bool {
	for _, p := range []string{"<!doctype html", "<html", "<head", "<body", "<title", "<h1", "<center", "<p>", "<div", "<!--"} {
		if bytes.HasPrefix(lower, []byte(p)) {
			return true
		}
	}
	return bytes.Contains(lower, []byte("<html")) || bytes.Contains(lower, []byte("<body"))
}

// element returns what is inside the first <tag ...>...</tag> of body; lower
// is body in ASCII lower case, so both have the same offsets. An element that
// is never closed runs to the end of body.
func element(body, lower []byte, tag string) ([]byte, bool) {
	open := []byte("<" + tag)
	from := 0
	for {
		i := bytes.Index(lower[from:], open)
		if i < 0 {
			return nil, false
		}
		i += from
		after := i + len(open)
		if after < len(lower) && (lower[after] == '>' || lower[after] == ' ' || lower[after] == '\t' ||
			lower[after] == '\n' || lower[after] == '\r' || lower[after] == '/') {
			gt := bytes.IndexByte(lower[after:], '>')
			if gt < 0 {
				return nil, false
			}
			start := after + gt + 1
			end := bytes.Index(lower[start:], []byte("</"+tag))
			if end < 0 {
				return body[start:], true
			}
			return body[start : start+end], true
		}
		from = after
	}
}

// htmlText returns the text of an HTML fragment as one line: tags, comments
// and the content of script and style elements dropped, entities decoded.
func htmlText(frag []byte) string {
	lower := asciiLower(frag)
	var b strings.Builder
	for i := 0; i < len(frag); {
		if frag[i] != '<' {
			j := bytes.IndexByte(frag[i:], '<')
			if j < 0 {
				j = len(frag) - i
			}
			b.Write(frag[i : i+j])
			i += j
			continue
		}
		b.WriteByte(' ')
		switch {
		case bytes.HasPrefix(lower[i:], []byte("<!--")):
			i = skipPast(lower, i+4, "-->")
		case bytes.HasPrefix(lower[i:], []byte("<script")):
			i = skipPast(lower, i+7, "</script>")
		case bytes.HasPrefix(lower[i:], []byte("<style")):
			i = skipPast(lower, i+6, "</style>")
		default:
			i = skipPast(lower, i+1, ">")
		}
	}
	return oneLine(html.UnescapeString(b.String()))
}

// skipPast returns the offset just after the first end in s at or after
// from, or len(s) when there is none.
func skipPast(s []byte, from int, end string) int {
	if j := bytes.Index(s[from:], []byte(end)); j >= 0 {
		return from + j + len(end)
	}
	return len(s)
}

// asciiLower returns a copy of b with ASCII letters in lower case; unlike
// bytes.ToLower it keeps every offset.
func asciiLower(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		out[i] = c
	}
	return out
}
