// Package theme holds muse's semantic colours, the lipgloss styles derived
// from them and the glamour style for markdown, in one place.
package theme

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/glamour/ansi"
	"github.com/charmbracelet/glamour/styles"
	"github.com/charmbracelet/lipgloss"
	"github.com/lucasb-eyer/go-colorful"
	"github.com/muesli/termenv"
)

// Palette names colours by what they mean. Values are ANSI 256 codes, which
// lipgloss degrades to the nearest of 16 colours on small terminals.
type Palette struct {
	Text, Muted, Subtle, Accent, User, Assistant, Error, Warning, Success, Border string
}

// dark is the palette for dark backgrounds.
var dark = Palette{
	Text: "252", Muted: "245", Subtle: "242", Accent: "75", User: "212", Assistant: "114",
	Error: "203", Warning: "214", Success: "78", Border: "238",
}

// light is the palette for light backgrounds.
var light = Palette{
	Text: "235", Muted: "241", Subtle: "243", Accent: "25", User: "162", Assistant: "28",
	Error: "160", Warning: "130", Success: "28", Border: "250",
}

// Styles are the lipgloss styles of every part of the screen.
type Styles struct {
	Header, HeaderTitle, HeaderModel                   lipgloss.Style
	UserLabel, UserText, AssistantLabel                lipgloss.Style
	Muted, Subtle, Accent                              lipgloss.Style
	ErrorLabel, ErrorText, Warning, Hint, Notice       lipgloss.Style
	StatusBar, StatusKey, StatusValue, Spinner         lipgloss.Style
	InputBorder, InputBorderFocused, Thinking, ToolBox lipgloss.Style
	ToolTitle, RawBlock, NewLines                      lipgloss.Style
	// InputMarker is the › before the input; Selected marks the message
	// chosen in selection mode.
	InputMarker, Selected lipgloss.Style
}

// Theme is a palette with its styles and markdown style.
type Theme struct {
	// Name is "dark", "light", a built-in theme's name, or a theme file's
	// (its name key, else its file name without .toml).
	Name     string
	Palette  Palette
	Styles   Styles
	Markdown ansi.StyleConfig
	// DarkBackground is the terminal's background the theme was made
	// for, as detected before the program started; switching theme
	// passes it on.
	DarkBackground bool
}

// New builds the theme called name: "dark", "light", "auto", which picks
// by darkBackground (detected before the program starts), a built-in theme
// (see Names), or the path of a theme file (see IsFile), which it reads. A
// bad theme file is refused with an [*Error] that names its line and what
// was expected.
//
// Options adapt it to the terminal: see [WithProfile].
func New(name string, darkBackground bool, opts ...Option) (*Theme, error) {
	var o options
	for _, opt := range opts {
		opt(&o)
	}
	th, err := load(name, darkBackground)
	if err != nil || o.profile != termenv.ANSI {
		return th, err
	}
	return th.in16(), nil
}

// load builds the theme called name, as New does, for every profile.
func load(name string, darkBackground bool) (*Theme, error) {
	var th *Theme
	switch name {
	case "auto", "":
		th = build("light", light, lightMarkdown())
		if darkBackground {
			th = build("dark", dark, darkMarkdown())
		}
	case "dark":
		th = build("dark", dark, darkMarkdown())
	case "light":
		th = build("light", light, lightMarkdown())
	default:
		if IsFile(name) {
			return fromFile(name, darkBackground)
		}
		th, ok, err := builtin(name, darkBackground)
		if !ok {
			return nil, fmt.Errorf("unknown theme %q: use %s, or the path of a theme file (.toml)", name, strings.Join(Names(), ", "))
		}
		return th, err
	}
	th.DarkBackground = darkBackground
	return th, nil
}

func build(name string, p Palette, md ansi.StyleConfig) *Theme {
	c := func(s string) lipgloss.Color { return lipgloss.Color(s) }
	fg := lipgloss.NewStyle().Foreground
	s := Styles{
		Header:             lipgloss.NewStyle().Bold(true),
		HeaderTitle:        fg(c(p.Text)).Bold(true),
		HeaderModel:        fg(c(p.Muted)),
		UserLabel:          fg(c(p.User)).Bold(true),
		UserText:           fg(c(p.Text)),
		AssistantLabel:     fg(c(p.Assistant)).Bold(true),
		Muted:              fg(c(p.Muted)),
		Subtle:             fg(c(p.Subtle)),
		Accent:             fg(c(p.Accent)),
		ErrorLabel:         fg(c(p.Error)).Bold(true),
		ErrorText:          fg(c(p.Error)),
		Warning:            fg(c(p.Warning)),
		Hint:               fg(c(p.Muted)).Italic(true),
		Notice:             fg(c(p.Muted)),
		StatusBar:          fg(c(p.Muted)),
		StatusKey:          fg(c(p.Subtle)),
		StatusValue:        fg(c(p.Text)),
		Spinner:            fg(c(p.Accent)),
		InputBorder:        lipgloss.NewStyle().Border(lipgloss.NormalBorder(), true, false, false, false).BorderForeground(c(p.Border)),
		InputBorderFocused: lipgloss.NewStyle().Border(lipgloss.NormalBorder(), true, false, false, false).BorderForeground(c(p.Accent)),
		Thinking:           fg(c(p.Subtle)).Italic(true),
		ToolBox:            lipgloss.NewStyle().Border(lipgloss.RoundedBorder()).BorderForeground(c(p.Border)).Padding(0, 1),
		ToolTitle:          fg(c(p.Accent)).Bold(true),
		RawBlock:           fg(c(p.Muted)),
		NewLines:           fg(c(p.Accent)).Bold(true),
		InputMarker:        fg(c(p.Accent)).Bold(true),
		Selected:           fg(c(p.Accent)).Bold(true),
	}
	return &Theme{Name: name, Palette: p, Styles: s, Markdown: markdownStyle(md)}
}

// darkMarkdown is glamour's dark style with the colours that read below
// 4.5:1 (3:1 for the rule) on black or alacritty's #1d1f21 made lighter:
// see TestEveryThemeReadsInEveryProfile.
func darkMarkdown() ansi.StyleConfig {
	md := styles.DarkStyleConfig
	md.Code.Color = str("210")
	md.CodeBlock.Color = str("246")
	md.H1.BackgroundColor = str("62")
	md.HorizontalRule.Color = str("242")
	md.ImageText.Color = str("246")
	md.Link.Color = str("37")
	md.CodeBlock.Chroma = legibleCode(md.CodeBlock.Chroma, black, false)
	return md
}

// lightMarkdown is glamour's light style with the colours that read below
// 4.5:1 (3:1 for the rule) on white made darker.
func lightMarkdown() ansi.StyleConfig {
	md := styles.LightStyleConfig
	md.Code.Color = str("124")
	md.H1.BackgroundColor = str("62")
	md.HorizontalRule.Color = str("244")
	md.Image.Color = str("162")
	md.Link.Color = str("25")
	md.CodeBlock.Chroma = legibleCode(md.CodeBlock.Chroma, white, false)
	return md
}

func str(s string) *string { return &s }

// The backgrounds the built-in code colours are measured on.
var black, white = colorful.Color{}, colorful.Color{R: 1, G: 1, B: 1}

// markdownStyle adapts a glamour style to sit inside the conversation: no
// document margin, no blank lines around the document, and headings
// without their marks (see headings).
func markdownStyle(base ansi.StyleConfig) ansi.StyleConfig {
	zero := uint(0)
	empty := ""
	md := base
	md.Document.Margin = &zero
	md.Document.BlockPrefix = empty
	md.Document.BlockSuffix = empty
	return headings(md)
}

// headings gives md's headings a look per level instead of glamour's "## "
// marks, as crush and Claude Code draw them: the first a banner (its own
// background, or the heading colour as background when a theme file sets
// only that), then bold and underlined, bold, bold italic, italic, italic
// underlined, all in the heading colour. Each level differs from the next
// by an attribute, not by colour alone, so they stay apart in 16 colours
// and without colour (NO_COLOR).
func headings(md ansi.StyleConfig) ansi.StyleConfig {
	yes := true
	level := func(h *ansi.StyleBlock, bold, italic, underline bool) {
		h.Prefix, h.Suffix = "", ""
		h.Color = md.Heading.Color
		h.Bold, h.Italic, h.Underline = &bold, &italic, &underline
	}
	level(&md.H2, true, false, true)
	level(&md.H3, true, false, false)
	level(&md.H4, true, true, false)
	level(&md.H5, false, true, false)
	level(&md.H6, false, true, true)
	md.H1.Prefix, md.H1.Suffix, md.H1.Bold = " ", " ", &yes
	if md.H1.BackgroundColor == nil && md.Heading.Color != nil {
		// A banner in the heading colour: the text on it is the
		// terminal's background, so it reads as well as the heading
		// colour reads on that background.
		md.H1.BackgroundColor, md.H1.Color = md.Heading.Color, str(bannerText(md))
	}
	return md
}

// bannerText is the colour of the first heading's text on a banner of the
// heading colour: black in a theme for dark backgrounds, white in one for
// light ones.
func bannerText(md ansi.StyleConfig) string {
	if c, ok := rgbOf(deref(md.Document.Color)); ok && luminance(c) <= 0.2 {
		return "231" // the text is dark: a light background
	}
	return "16"
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
