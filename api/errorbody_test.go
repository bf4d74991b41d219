package api

import (
	"strings"
	"testing"
)

func TestErrorBodySummary(t *testing.T) {
	cases := []struct {
		name, body string
		status     int
		want       string
	}{
		{"nginx 502", "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.25.3</center>\r\n</body>\r\n</html>\r\n", 502, "Bad Gateway"},
		{"h1 only", "<html><body><h1>502 Bad Gateway</h1></body></html>", 502, "Bad Gateway"},
		{"doctype and attributes", "<!DOCTYPE html>\n<HTML lang=en><HEAD><meta charset=utf-8><TITLE id=\"t\">\n  Service\n  Unavailable </TITLE></HEAD></HTML>", 503, "Service Unavailable"},
		{"entities and inner tags", "<html><h1 class=x>Error 503: <b>back &amp; forth</b> &lt;soon&gt;</h1></html>", 503, "Error 503: back & forth <soon>"},
		{"other status kept", "<html><title>500 Internal Server Error</title></html>", 502, "500 Internal Server Error"},
		{"status with colon", "<html><title>429: Too Many Requests</title></html>", 429, "Too Many Requests"},
		{"empty title falls back to h1", "<html><head><title> </title></head><body><h1>Oops</h1></body></html>", 500, "Oops"},
		{"no title nor h1", "<html><head><style>p{color:red}</style><script>var x = '<b>';</script></head><body><!-- c --><p>Upstream\n timed   out</p></body></html>", 504, "Upstream timed out"},
		{"empty page", "<html><body></body></html>", 500, "an HTML page without text"},
		{"unclosed title", "<html><title>Maintenance", 503, "Maintenance"},
		{"escapes kept", "<html><title>bad \x1b[2J day</title></html>", 500, "bad \x1b[2J day"},
		{"xml is not html", `<?xml version="1.0"?><Error><Code>AccessDenied</Code></Error>`, 403, `<?xml version="1.0"?><Error><Code>AccessDenied</Code></Error>`},
		{"plain text", "upstream connect error", 503, "upstream connect error"},
		{"long title cut", "<html><title>" + strings.Repeat("x", 300) + "</title></html>", 500, strings.Repeat("x", snippetLen) + "…"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			e := newAPIError(tc.status, []byte(tc.body), "")
			if e.Message != tc.want {
				t.Errorf("message %q, want %q", e.Message, tc.want)
			}
		})
	}
}

func TestOneLine(t *testing.T) {
	cases := map[string]string{
		"":                            "",
		"plain":                       "plain",
		"  a \r\n\tb\u2028c\u0085d  ": "a b c d",
		"bad \xff\xfe utf8":           "bad \uFFFD utf8",
		"esc \x1b[1m kept\x07":        "esc \x1b[1m kept\x07",
	}
	for in, want := range cases {
		if got := oneLine(in); got != want {
			t.Errorf("oneLine(%q) = %q, want %q", in, got, want)
		}
	}
}
