package page

import (
	"bytes"
	"html"
	"strings"
	"sync"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	"github.com/yuin/goldmark/renderer"
	"github.com/yuin/goldmark/util"
)

// markdown renders the Markdown of the page: CommonMark with GitHub's
// tables, task lists, strikethrough and autolinks. Raw HTML is shown as
// text, links go only to http, https and mailto, images are links, and
// code is highlighted (see mdRenderer). It is made on first use: a
// command that writes no page never pays for it.
var markdown = sync.OnceValue(func() goldmark.Markdown {
	return goldmark.New(
		goldmark.WithExtensions(
			extension.NewTable(extension.WithTableCellAlignMethod(extension.TableCellAlignAttribute)),
			extension.Strikethrough, extension.Linkify, extension.TaskList,
		),
		goldmark.WithRendererOptions(renderer.WithNodeRenderers(util.Prioritized(mdRenderer{}, 100))),
	)
})

// mdRenderer renders the nodes whose HTML the page decides itself, in
// place of goldmark's (priority 1000, registered before it).
type mdRenderer struct{}

// RegisterFuncs implements renderer.NodeRenderer.
func (mdRenderer) RegisterFuncs(reg renderer.NodeRendererFuncRegisterer) {
	reg.Register(ast.KindRawHTML, rawHTML)
	reg.Register(ast.KindHTMLBlock, htmlBlock)
	reg.Register(ast.KindLink, link)
	reg.Register(ast.KindAutoLink, autoLink)
	reg.Register(ast.KindImage, mdImage)
	reg.Register(ast.KindFencedCodeBlock, codeBlock)
	reg.Register(ast.KindCodeBlock, codeBlock)
}

// rawHTML writes inline HTML as the text it is.
func rawHTML(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if entering {
		segs := node.(*ast.RawHTML).Segments
		for i := range segs.Len() {
			seg := segs.At(i)
			w.WriteString(html.EscapeString(string(seg.Value(source))))
		}
	}
	return ast.WalkSkipChildren, nil
}

// htmlBlock writes a block of HTML as text in a paragraph, its lines kept.
func htmlBlock(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.HTMLBlock)
	var b strings.Builder
	lines := n.Lines()
	for i := range lines.Len() {
		seg := lines.At(i)
		b.Write(seg.Value(source))
	}
	if n.HasClosure() {
		b.Write(n.ClosureLine.Value(source))
	}
	w.WriteString(`<p class="raw">` + html.EscapeString(strings.TrimRight(b.String(), "\n")) + "</p>\n")
	return ast.WalkSkipChildren, nil
}

// safeURL returns dest when a page may link to it: an http, https or
// mailto address, or an anchor of the page; else "".
func safeURL(dest string) string {
	lower := strings.ToLower(dest)
	for _, scheme := range []string{"http://", "https://", "mailto:"} {
		if strings.HasPrefix(lower, scheme) && len(dest) > len(scheme) {
			return dest
		}
	}
	if strings.HasPrefix(dest, "#") {
		return dest
	}
	return ""
}

// openLink writes the start of a link to dest, which safeURL allowed.
func openLink(w util.BufWriter, dest, title, class string) {
	w.WriteString(`<a href="` + html.EscapeString(string(util.URLEscape([]byte(dest), false))) + `"`)
	if class != "" {
		w.WriteString(` class="` + class + `"`)
	}
	if title != "" {
		w.WriteString(` title="` + html.EscapeString(title) + `"`)
	}
	if !strings.HasPrefix(dest, "#") {
		w.WriteString(` rel="noopener noreferrer"`)
	}
	w.WriteString(">")
}

// link writes a link whose address safeURL allows; of another, its text.
func link(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.Link)
	dest := safeURL(string(n.Destination))
	switch {
	case dest == "":
	case entering:
		openLink(w, dest, string(n.Title), "")
	default:
		w.WriteString("</a>")
	}
	return ast.WalkContinue, nil
}

// autoLink writes an address found in the text as a link, when safeURL
// allows it.
func autoLink(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	n := node.(*ast.AutoLink)
	url, label := string(n.URL(source)), string(n.Label(source))
	switch {
	case n.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(strings.ToLower(url), "mailto:"):
		url = "mailto:" + url
	case strings.HasPrefix(strings.ToLower(url), "www."):
		url = "http://" + url
	}
	if url = safeURL(url); url == "" {
		w.WriteString(html.EscapeString(label))
		return ast.WalkContinue, nil
	}
	openLink(w, url, "", "")
	w.WriteString(html.EscapeString(label) + "</a>")
	return ast.WalkContinue, nil
}

// mdImage writes a Markdown image as a link to it, never loaded: "[image:
// alt]".
func mdImage(w util.BufWriter, _ []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	n := node.(*ast.Image)
	dest := safeURL(string(n.Destination))
	if entering {
		if dest != "" {
			openLink(w, dest, string(n.Title), "image")
		}
		w.WriteString("[image: ")
		return ast.WalkContinue, nil
	}
	w.WriteString("]")
	if dest != "" {
		w.WriteString("</a>")
	}
	return ast.WalkContinue, nil
}

// codeBlock writes a fenced or indented code block with writeCode.
func codeBlock(w util.BufWriter, source []byte, node ast.Node, entering bool) (ast.WalkStatus, error) {
	if !entering {
		return ast.WalkContinue, nil
	}
	var lang string
	if f, ok := node.(*ast.FencedCodeBlock); ok && f.Info != nil {
		lang = string(f.Language(source))
	}
	var code bytes.Buffer
	lines := node.Lines()
	for i := range lines.Len() {
		seg := lines.At(i)
		code.Write(seg.Value(source))
	}
	writeCode(w, lang, code.String())
	return ast.WalkSkipChildren, nil
}
