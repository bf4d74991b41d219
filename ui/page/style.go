package page

import (
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"strings"
	"sync"

	"github.com/muesli/termenv"

	"muse/theme"
)

// scheme is the colours of a page in one of light and dark, as CSS hex
// colours: the role colours of muse's theme of that name, on backgrounds
// chosen so that every text reaches WCAG AA (4.5:1) on what it is drawn
// on (TestContrast measures it).
type scheme struct {
	// Bg is the page's background; CodeBg a code block's; InlineBg that of
	// code in a line of text, which is drawn in Fg.
	Bg, CodeBg, InlineBg string
	// Fg is the text; the others are the theme's roles.
	Fg, Muted, Accent, User, Assistant, Error, Warning, Success string
	// Border draws lines, never text.
	Border string
}

// hex returns the CSS colour of an ANSI 256 colour code.
func hex(code string) string {
	return termenv.ConvertToRGB(termenv.ANSI256.Color(code)).Hex()
}

// schemeOf returns the scheme of muse's built-in theme name ("light" or
// "dark") on the backgrounds given.
func schemeOf(name, bg, codeBg, inlineBg string) scheme {
	th, err := theme.New(name, name == "dark")
	if err != nil {
		panic(err) // the built-in themes always build
	}
	p := th.Palette
	return scheme{
		Bg: bg, CodeBg: codeBg, InlineBg: inlineBg,
		Fg: hex(p.Text), Muted: hex(p.Muted), Accent: hex(p.Accent), User: hex(p.User),
		Assistant: hex(p.Assistant), Error: hex(p.Error), Warning: hex(p.Warning), Success: hex(p.Success),
		Border: hex(p.Border),
	}
}

// The page's schemes. The light one draws code on white, in a border: its
// green and orange fall below 4.5:1 on any grey.
var (
	lightScheme = schemeOf("light", "#ffffff", "#ffffff", "#eeeeee")
	darkScheme  = schemeOf("dark", "#121212", "#1c1c1c", "#262626")
)

// vars returns the CSS custom properties of s.
func (s scheme) vars() string {
	return fmt.Sprintf("--bg:%s;--code-bg:%s;--inline-bg:%s;--fg:%s;--muted:%s;--accent:%s;--user:%s;--assistant:%s;--error:%s;--warning:%s;--success:%s;--border:%s",
		s.Bg, s.CodeBg, s.InlineBg, s.Fg, s.Muted, s.Accent, s.User, s.Assistant, s.Error, s.Warning, s.Success, s.Border)
}

// stylesheet is the page's one stylesheet, which the Content-Security-
// Policy allows by its hash, made on first use.
var stylesheet = sync.OnceValue(func() string {
	return ":root{color-scheme:light dark;" + lightScheme.vars() + "}\n" +
		"@media (prefers-color-scheme:dark){:root{" + darkScheme.vars() + "}}\n" +
		// The print stylesheet is the light scheme whatever the screen's.
		strings.Replace(baseCSS, "{print-vars}", lightScheme.vars(), 1)
})

// baseCSS lays the page out: one column, at most 50rem wide, from 390 px
// phones up; a print stylesheet at its end.
const baseCSS = `*{box-sizing:border-box}
html{-webkit-text-size-adjust:100%;text-size-adjust:100%}
body{margin:0;background:var(--bg);color:var(--fg);font:16px/1.6 system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif}
.wrap{max-width:50rem;margin:0 auto;padding:2rem 1.25rem 4rem}
a{color:var(--accent)}
code,pre{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,"Liberation Mono",monospace;font-size:.875rem}
.page-head{border-bottom:1px solid var(--border);padding-bottom:1rem;margin-bottom:1.5rem}
.page-head h1{font-size:1.75rem;line-height:1.25;margin:0 0 .75rem;overflow-wrap:anywhere}
.facts{display:flex;flex-wrap:wrap;gap:.25rem 1.5rem;margin:0;font-size:.875rem;color:var(--muted)}
.facts div{display:flex;gap:.4rem;min-width:0}
.facts dt{font-weight:600}
.facts dd{margin:0;color:var(--fg);overflow-wrap:anywhere}
.note{margin:.75rem 0 0;font-size:.875rem;color:var(--warning)}
.toc{margin-top:1rem}
.toc ol{margin:.5rem 0;padding-left:2.25rem;font-size:.9rem}
.toc li{margin:.15rem 0;overflow-wrap:anywhere}
article{margin:0 0 1.75rem;padding:0 0 0 1rem;border-left:3px solid var(--border);scroll-margin-top:1rem;overflow-wrap:anywhere}
article>header{display:flex;flex-wrap:wrap;align-items:baseline;gap:0 .75rem;margin-bottom:.35rem;font-size:.8125rem;color:var(--muted)}
article>header>a{font-weight:700;font-size:.9375rem;text-decoration:none;color:var(--fg)}
article>header>a:hover{text-decoration:underline}
article.user{border-left-color:var(--user)}
.user>header>a{color:var(--user)}
article.assistant{border-left-color:var(--assistant)}
.assistant>header>a{color:var(--assistant)}
article.image{border-left-color:var(--accent)}
.image>header>a{color:var(--accent)}
.tool>header>a{color:var(--muted)}
article.error{border-left-color:var(--error)}
.error>header>a,.error p{color:var(--error)}
article.notice{color:var(--muted);font-size:.9rem}
article:target{border-left-width:6px}
article>header+*,.inner>:first-child{margin-top:0}
article>:last-child,.inner>:last-child{margin-bottom:0}
article p,article ul,article ol,article table,article blockquote{margin:.6rem 0}
article h1,article h2,article h3,article h4,article h5,article h6{line-height:1.3;margin:1.1rem 0 .5rem}
article h1{font-size:1.35rem}article h2{font-size:1.2rem}article h3{font-size:1.075rem}article h4,article h5,article h6{font-size:1rem}
article ul,article ol{padding-left:1.5rem}
article li>p{margin:.25rem 0}
article li:has(>input[type=checkbox]){list-style:none;margin-left:-1.25rem}
article blockquote{padding-left:.85rem;border-left:3px solid var(--border);color:var(--muted)}
article table{display:block;max-width:100%;overflow-x:auto;border-collapse:collapse}
article th,article td{border:1px solid var(--border);padding:.3rem .65rem;text-align:left}
article hr{border:0;border-top:1px solid var(--border);margin:1rem 0}
.raw{white-space:pre-wrap}
:not(pre)>code{background:var(--inline-bg);padding:.1em .35em;border-radius:.25rem;overflow-wrap:anywhere}
.code{position:relative;margin:.75rem 0;background:var(--code-bg);border:1px solid var(--border);border-radius:.4rem}
.code[data-lang]::before{content:attr(data-lang);display:block;padding:.35rem .85rem 0;font-size:.75rem;color:var(--muted)}
.code pre{margin:0;padding:.6rem .85rem .75rem;overflow-x:auto;line-height:1.5;tab-size:4}
.code .k,.code .gh{color:var(--accent);font-weight:600}
.code .nf{color:var(--user)}
.code .s{color:var(--assistant)}
.code .m{color:var(--warning)}
.code .c{color:var(--muted);font-style:italic}
.code .gi{color:var(--success)}
.code .gd{color:var(--error)}
.copy{position:absolute;top:.3rem;right:.35rem;font:inherit;font-size:.75rem;color:var(--muted);background:var(--code-bg);border:1px solid var(--border);border-radius:.3rem;padding:.1rem .5rem;cursor:pointer}
.copy:hover,.copy:focus-visible{color:var(--fg)}
details{margin:.6rem 0;border:1px solid var(--border);border-radius:.4rem}
details>summary{cursor:pointer;padding:.3rem .75rem;font-size:.875rem;color:var(--muted);overflow-wrap:anywhere}
details>summary:hover{color:var(--fg)}
details[open]>summary{border-bottom:1px solid var(--border)}
details>.inner{padding:.6rem .75rem}
details.thinking>.inner{color:var(--muted)}
details.branch{border-style:dashed;margin:0 0 1.75rem}
details.branch>summary{color:var(--accent)}
details.branch>.inner{padding:1rem .75rem 0}
pre.out{margin:0;white-space:pre-wrap;overflow-wrap:anywhere}
.label{font-size:.75rem;color:var(--muted);margin:.5rem 0 .25rem}
.label:first-child{margin-top:0}
figure{margin:.75rem 0}
figure img{display:block;max-width:100%;height:auto;border-radius:.4rem}
figcaption{margin-top:.3rem;font-size:.8125rem;color:var(--muted);overflow-wrap:anywhere}
.files{margin:.5rem 0 0;padding:0;list-style:none;font-size:.875rem;color:var(--muted)}
.missing{color:var(--error);font-size:.875rem}
.foot{margin-top:3rem;font-size:.8125rem;color:var(--muted)}
@media (max-width:480px){.wrap{padding:1.25rem .9rem 3rem}.page-head h1{font-size:1.4rem}article{padding-left:.75rem}}
@media print{:root{color-scheme:light;{print-vars}}
body{font-size:11pt}
.wrap{max-width:none;padding:0}
.copy,.toc{display:none}
article,figure,.code{break-inside:avoid}
a{color:inherit}
}
`

// script adds a copy button to each code block, and opens the thinking and
// tool blocks before printing. The page works without it.
const script = `(function(){` +
	`document.querySelectorAll(".code").forEach(function(box){` +
	`var pre=box.querySelector("pre"),b=document.createElement("button");` +
	`b.type="button";b.className="copy";b.textContent="Copy";` +
	`b.addEventListener("click",function(){` +
	`var done=function(t){b.textContent=t;setTimeout(function(){b.textContent="Copy"},1500)};` +
	`if(navigator.clipboard){navigator.clipboard.writeText(pre.innerText).then(function(){done("Copied")},function(){done("Select and copy")})}else{done("Select and copy")}});` +
	`box.appendChild(b)});` +
	`addEventListener("beforeprint",function(){document.querySelectorAll("details.thinking,details.tool,details.server").forEach(function(d){d.open=true})})` +
	`})();`

// hashOf returns the CSP source of text: 'sha256-…'.
func hashOf(text string) string {
	sum := sha256.Sum256([]byte(text))
	return "'sha256-" + base64.StdEncoding.EncodeToString(sum[:]) + "'"
}

// csp returns the page's Content-Security-Policy: nothing from anywhere,
// images only from data:, the stylesheet and the script by their hashes.
func csp() string {
	return "default-src 'none'; img-src data:; style-src " + hashOf(stylesheet()) +
		"; script-src " + hashOf(script) + "; base-uri 'none'; form-action 'none'"
}
