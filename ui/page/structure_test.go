package page

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
	"golang.org/x/net/html"
)

// parse parses a page as a browser would.
func parse(t testing.TB, page string) *html.Node {
	t.Helper()
	doc, err := html.Parse(strings.NewReader(page))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

var hashes = regexp.MustCompile(`'sha256-[A-Za-z0-9+/=]+'`)

// outline returns the structure of a page, one node a line, indented by
// its depth: an element's tag, id, classes and other attributes, a text's
// first 60 characters. The stylesheet's text, the hashes that name it and
// the data of images are left out: a change of CSS changes no line.
func outline(n *html.Node) string {
	var b strings.Builder
	var walk func(n *html.Node, depth int)
	walk = func(n *html.Node, depth int) {
		pad := strings.Repeat("  ", depth)
		switch n.Type {
		case html.ElementNode:
			b.WriteString(pad + n.Data)
			for _, a := range n.Attr {
				v := a.Val
				switch {
				case a.Key == "id":
					b.WriteString("#" + v)
					continue
				case a.Key == "class":
					b.WriteString("." + strings.ReplaceAll(v, " ", "."))
					continue
				case a.Key == "content":
					v = hashes.ReplaceAllString(v, "'sha256-…'")
				case a.Key == "src" && strings.HasPrefix(v, "data:"):
					v = v[:strings.Index(v, ",")+1] + "…"
				}
				fmt.Fprintf(&b, " %s=%q", a.Key, v)
			}
			b.WriteString("\n")
			if n.Data == "style" || n.Data == "script" {
				b.WriteString(pad + "  (its own)\n")
				return
			}
		case html.TextNode:
			text := strings.Join(strings.Fields(n.Data), " ")
			if text == "" {
				return
			}
			r := []rune(text)
			if len(r) > 60 {
				text = string(r[:60]) + "…"
			}
			fmt.Fprintf(&b, "%s%q\n", pad, text)
			return
		case html.DocumentNode:
			depth = -1
		default:
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c, depth+1)
		}
	}
	walk(n, 0)
	return b.String()
}

// TestPageStructure holds the structure of the fixture's page in a golden
// file (go test -run TestPageStructure -update rewrites it): head, header,
// each message in order, the branch in its <details>, the hostile reply as
// text in its own article.
func TestPageStructure(t *testing.T) {
	f := newFixture(t)
	page := render(t, f.sess, Options{Files: f.store})
	// The id is replaced before the outline, which cuts long text.
	out := outline(parse(t, strings.ReplaceAll(page, f.sess.ID, "SESSION-ID")))
	golden.RequireEqual(t, []byte(out))
}

// allowedTags are the elements a page is made of.
var allowedTags = map[string]bool{}

func init() {
	for _, t := range strings.Fields(`html head meta title style body div header h1 h2 h3 h4 h5 h6 dl dt dd p
		details summary ol ul li a main article span time pre code figure img figcaption table thead tbody
		tr th td input del strong em blockquote hr br footer script`) {
		allowedTags[t] = true
	}
}

// inert checks that nothing in a page can run, load or restyle: the only
// elements are the page's own, its one script and one stylesheet are its
// own, no element has an event handler or a style attribute, links go
// only to http, https, mailto or an anchor, images only come from data:,
// and no NUL, escape or bidi override is left in its text.
func inert(t testing.TB, page string) {
	t.Helper()
	var walk func(n *html.Node)
	scripts, styles := 0, 0
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			if !allowedTags[n.Data] {
				t.Errorf("element <%s> on the page", n.Data)
			}
			switch n.Data {
			case "script":
				scripts++
				if n.FirstChild == nil || n.FirstChild.Data != script {
					t.Error("a script that is not the page's")
				}
			case "style":
				styles++
				if n.FirstChild == nil || n.FirstChild.Data != stylesheet() {
					t.Error("a stylesheet that is not the page's")
				}
			case "input":
				if attr(n, "type") != "checkbox" || !hasAttr(n, "disabled") {
					t.Errorf("an input that is not a task list's disabled checkbox: %v", n.Attr)
				}
			}
			for _, a := range n.Attr {
				switch k := strings.ToLower(a.Key); {
				case strings.HasPrefix(k, "on"), k == "style", k == "srcdoc", k == "formaction":
					t.Errorf("<%s %s=%q>", n.Data, a.Key, a.Val)
				case k == "href" && safeURL(a.Val) == "":
					t.Errorf("<%s href=%q>", n.Data, a.Val)
				case k == "src" && !regexp.MustCompile(`^data:image/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=]+$`).MatchString(a.Val):
					t.Errorf("<%s src=%.60q>", n.Data, a.Val)
				}
			}
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(parse(t, page))
	if scripts != 1 || styles != 1 {
		t.Errorf("%d scripts and %d stylesheets, want the page's one of each", scripts, styles)
	}
	if i := strings.IndexAny(page, "\x00\x1b\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"); i >= 0 {
		t.Errorf("a control character left at byte %d: %q", i, page[max(0, i-20):min(len(page), i+20)])
	}
	if !strings.HasSuffix(page, "</html>\n") {
		t.Error("the page does not end with </html>")
	}
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

func hasAttr(n *html.Node, key string) bool {
	for _, a := range n.Attr {
		if a.Key == key {
			return true
		}
	}
	return false
}

// TestHostileReplyIsInert renders the fixture, whose reply and title are
// hostile, and checks that the page is inert and its structure whole: the
// hostile reply's closing tags close nothing of the page's.
func TestHostileReplyIsInert(t *testing.T) {
	f := newFixture(t)
	page := render(t, f.sess, Options{Files: f.store})
	inert(t, page)
	doc := parse(t, page)
	var articles []*html.Node
	var find func(n *html.Node)
	find = func(n *html.Node) {
		if n.Type == html.ElementNode && n.Data == "article" {
			articles = append(articles, n)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			find(c)
		}
	}
	find(doc)
	if len(articles) != len(f.texts)+1 {
		t.Fatalf("%d articles, want %d messages and the other branch's", len(articles), len(f.texts)+1)
	}
	last := articles[len(articles)-1]
	text := textOf(last)
	for _, want := range []string{"HOSTILE-REPLY", "</details></article></main><p>broken out?</p>", "<style>body{display:none!important}", "onerror=", "overlay"} {
		if !strings.Contains(text, want) {
			t.Errorf("the hostile article does not show %q as text", want)
		}
	}
	if last.Parent.Data != "main" {
		t.Errorf("the hostile reply's article is in <%s>, not <main>", last.Parent.Data)
	}
}

// textOf returns the text of n and its descendants.
func textOf(n *html.Node) string {
	var b strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}
