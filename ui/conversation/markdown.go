package conversation

import (
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/formatters"
	"github.com/charmbracelet/glamour"
	"github.com/charmbracelet/glamour/ansi"
	"github.com/muesli/termenv"

	"muse/ui/mdwrap"
	"muse/ui/sanitize"
	"muse/ui/textfmt"
)

// markdown renders markdown with glamour. It builds one renderer per width
// with a fixed style, and never asks the terminal anything.
type markdown struct {
	style     ansi.StyleConfig
	profile   termenv.Profile
	renderers map[int]*glamour.TermRenderer
	// rendered counts the bytes of markdown given to glamour, for tests.
	rendered int
}

func newMarkdown(style ansi.StyleConfig, profile termenv.Profile) *markdown {
	return &markdown{style: ownCodeStyle(style, profile), profile: profile, renderers: map[int]*glamour.TermRenderer{}}
}

// render returns text as terminal markdown, wrapped at width. Its output is
// sanitized, because glamour turns entities like &#27; into raw escapes.
func (md *markdown) render(text string, width int) string {
	if mdwrap.Heavy(text, max(width, 10)) {
		return md.plain(text, width) // too much work for glamour: see mdplain.go
	}
	out, ok := md.glamour(text, width)
	if !ok {
		return sanitize.Text(text)
	}
	return mdwrap.TrimLines(out)
}

// renderLines returns text as terminal markdown split into lines, each cut
// after its last visible character as mdwrap.TrimLines does, but with the blank
// lines at both ends kept: the streaming renderer puts pieces of a document
// together line by line. It reports false if glamour fails.
func (md *markdown) renderLines(text string, width int) ([]string, bool) {
	out, ok := md.glamour(text, width)
	if !ok {
		return nil, false
	}
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		lines[i] = mdwrap.TrimPadding(l)
	}
	return lines, true
}

// glamour renders text with the renderer for width, sanitized, with tabs
// expanded and with its list items given a hanging indent (see hangItems).
func (md *markdown) glamour(text string, width int) (string, bool) {
	width = max(width, 10)
	r, ok := md.renderers[width]
	if !ok {
		var err error
		r, err = glamour.NewTermRenderer(
			glamour.WithStyles(md.style),
			glamour.WithWordWrap(width),
			glamour.WithColorProfile(md.profile),
			glamour.WithChromaFormatter(codeFormatter),
		)
		if err != nil {
			return "", false
		}
		md.renderers[width] = r
	}
	md.rendered += len(text)
	// The text's own escapes go before glamour sees them: its wrapping would
	// cut them and leave pieces (such as "2J") that no sanitizer of its
	// output can tell from text. Its output is sanitized too, for the
	// escapes it makes of entities such as &#27;. Words wider than a line
	// are broken first (see mdwrap): glamour's wrapper takes a time that
	// grows with the square of a word's length.
	// Clusters glamour would measure otherwise than the terminal draws
	// them go behind placeholders as wide (see textfmt.Shield), and every
	// line is measured once more, as the terminal draws it, and cut to fit.
	shielded, sh := textfmt.Shield(sanitize.Plain(text))
	out, err := r.Render(mdwrap.Words(shielded, md.style, width))
	if err != nil {
		return "", false
	}
	out = sanitize.Text(sh.Restore(out))
	return textfmt.Fit(hangItems(strings.ReplaceAll(out, "\t", "    "), text, md.style, width), width), true
}

// highlights reports whether glamour colours code blocks with chroma, whose
// lexers may carry state from one line to the next.
func (md *markdown) highlights() bool {
	cb := md.style.CodeBlock
	return cb.Theme != "" || (cb.Chroma != nil && md.profile != termenv.Ascii)
}

// codeFormatter names the chroma formatter glamour colours code with: the
// 256-colour terminal formatter glamour uses by default, made to pick the
// same colour every time and to work out its colours once. Chroma's own
// picks the nearest palette colour by walking a map, so a style colour
// halfway between two palette colours (the dark style's comments) comes out
// as either from one render to the next, and a block flickers as it
// streams; and it maps the whole style to escape codes for every block.
const codeFormatter = "muse-terminal256"

func init() {
	formatters.Register(codeFormatter, chroma.FormatterFunc(formatCode))
}

// formatCode writes tokens as chroma's 256-colour terminal formatter does.
func formatCode(w io.Writer, style *chroma.Style, it chroma.Iterator) error {
	theme := codeTheme(style)
	var b strings.Builder
	for tok := it(); tok != chroma.EOF; tok = it() {
		clr, ok := theme[tok.Type]
		if !ok {
			if clr, ok = theme[tok.Type.SubCategory()]; !ok {
				if clr, ok = theme[tok.Type.Category()]; !ok {
					if clr, ok = theme[chroma.Text]; !ok {
						clr = theme[chroma.Background]
					}
				}
			}
		}
		writeCodeToken(&b, clr, tok.Value)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeCodeToken writes text in the escape code clr, reset before each line
// break and taken up again after it.
func writeCodeToken(b *strings.Builder, clr, text string) {
	if clr == "" {
		b.WriteString(text)
		return
	}
	for text != "" {
		i := strings.IndexByte(text, '\n')
		if i < 0 {
			b.WriteString(clr + text + "\x1b[0m")
			return
		}
		j := i
		if j > 0 && text[j-1] == '\r' {
			j--
		}
		b.WriteString(clr + text[:j] + "\x1b[0m" + text[j:i+1])
		text = text[i+1:]
	}
}

var codeThemes sync.Map // *chroma.Style to its escape codes by token type

// codeTheme returns the escape code for each token type style sets, with
// colours from the xterm 256-colour palette: the nearest one, the first on
// a tie.
func codeTheme(style *chroma.Style) map[chroma.TokenType]string {
	if t, ok := codeThemes.Load(style); ok {
		return t.(map[chroma.TokenType]string)
	}
	// As chroma's formatter does, drop the background first.
	b := style.Builder()
	bg := b.Get(chroma.Background)
	bg.Background = 0
	bg.NoInherit = true
	cleared, err := b.AddEntry(chroma.Background, bg).Build()
	if err != nil {
		cleared = style
	}
	theme := map[chroma.TokenType]string{}
	for _, tt := range cleared.Types() {
		e := cleared.Get(tt)
		var out string
		if e.Bold == chroma.Yes {
			out += "\x1b[1m"
		}
		if e.Underline == chroma.Yes {
			out += "\x1b[4m"
		}
		if e.Italic == chroma.Yes {
			out += "\x1b[3m"
		}
		if e.Colour.IsSet() {
			out += "\x1b[38;5;" + strconv.Itoa(nearest256(e.Colour)) + "m"
		}
		if e.Background.IsSet() {
			out += "\x1b[48;5;" + strconv.Itoa(nearest256(e.Background)) + "m"
		}
		theme[tt] = out
	}
	codeThemes.Store(style, theme)
	return theme
}

// palette256 is the xterm 256-colour palette.
var palette256 = func() []chroma.Colour {
	var p []chroma.Colour
	for _, hex := range []string{"#000000", "#800000", "#008000", "#808000", "#000080", "#800080", "#008080", "#c0c0c0",
		"#808080", "#ff0000", "#00ff00", "#ffff00", "#0000ff", "#ff00ff", "#00ffff", "#ffffff"} {
		p = append(p, chroma.MustParseColour(hex))
	}
	levels := []uint8{0, 0x5f, 0x87, 0xaf, 0xd7, 0xff}
	for _, r := range levels {
		for _, g := range levels {
			for _, b := range levels {
				p = append(p, chroma.NewColour(r, g, b))
			}
		}
	}
	for i := 0; i < 24; i++ {
		v := uint8(8 + 10*i)
		p = append(p, chroma.NewColour(v, v, v))
	}
	return p
}()

// nearest256 returns the index of the palette colour nearest to c by
// chroma's measure, the first on a tie; of two indexes for one colour it
// returns the last, as chroma's table does.
func nearest256(c chroma.Colour) int {
	best, dist := 0, c.Distance(palette256[0])
	for i, p := range palette256 {
		if d := c.Distance(p); d < dist {
			best, dist = i, d
		}
	}
	for i := len(palette256) - 1; i > best; i-- {
		if palette256[i] == palette256[best] {
			return i
		}
	}
	return best
}
