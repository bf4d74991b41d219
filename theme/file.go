package theme

import (
	"embed"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	chroma "github.com/alecthomas/chroma/v2/styles"
	"github.com/charmbracelet/glamour/ansi"
	"github.com/charmbracelet/glamour/styles"

	"muse/api/regfile"
	"muse/ui/tomlfile"
)

// A theme file is TOML. Its colours are "#rrggbb" or an ANSI 256 colour
// number such as "75"; every one is optional, and those left out keep the
// colour of the base theme:
//
//	name = "mine"        # shown by /theme; default: the file's name
//	base = "auto"        # dark, light or auto (the terminal's background)
//
//	[chrome]             # the screen around the conversation
//	text = "252"         # text, titles and values
//	muted = "245"        # labels, hints, the status bar
//	subtle = "240"       # key help, thinking
//	accent = "75"        # the input's border and marker, spinners, tool titles
//	border = "238"       # borders
//
//	[roles]
//	user = "212"         # the "you" label
//	assistant = "114"    # the "assistant" label
//	error = "203"
//	warning = "214"
//	success = "78"
//
//	[markdown]           # replies
//	text = "252"
//	heading = "39"       # every level (the first: the banner behind it)
//	link = "30"          # a link's address
//	link_text = "35"
//	image = "212"
//	image_text = "243"
//	code = "203"         # inline code, on code_background
//	code_background = "236"
//	code_block = "244"   # a code block's margin and plain text
//	code_theme = "monokai" # a Chroma style for the code's syntax colours, made to read
//	quote = "252"
//	rule = "240"
//
// [dark.chrome], [dark.roles], [dark.markdown] and the same under light
// apply on top, when the theme is dark or light (by base, or the terminal's
// background): one file can suit both.

// themeFile is a theme file as read.
type themeFile struct {
	Name string `toml:"name"`
	Base string `toml:"base"`
	variant
	Dark  *variant `toml:"dark"`
	Light *variant `toml:"light"`
}

// variant is the colours of a theme file, or of its [dark] or [light] part.
type variant struct {
	Chrome   chromeColours   `toml:"chrome"`
	Roles    roleColours     `toml:"roles"`
	Markdown markdownColours `toml:"markdown"`
}

type chromeColours struct {
	Text   colour `toml:"text"`
	Muted  colour `toml:"muted"`
	Subtle colour `toml:"subtle"`
	Accent colour `toml:"accent"`
	Border colour `toml:"border"`
}

type roleColours struct {
	User      colour `toml:"user"`
	Assistant colour `toml:"assistant"`
	Error     colour `toml:"error"`
	Warning   colour `toml:"warning"`
	Success   colour `toml:"success"`
}

type markdownColours struct {
	Text           colour    `toml:"text"`
	Heading        colour    `toml:"heading"`
	Link           colour    `toml:"link"`
	LinkText       colour    `toml:"link_text"`
	Image          colour    `toml:"image"`
	ImageText      colour    `toml:"image_text"`
	Code           colour    `toml:"code"`
	CodeBackground colour    `toml:"code_background"`
	CodeBlock      colour    `toml:"code_block"`
	CodeTheme      codeTheme `toml:"code_theme"`
	Quote          colour    `toml:"quote"`
	Rule           colour    `toml:"rule"`
}

// colour is a colour of a theme file: s is "" when left out. It is a
// struct, not a string, so that the TOML library hands it to UnmarshalText,
// whose error it reports at the value's place.
type colour struct{ s string }

// Example is what a colour looks like, for the error about a value that
// is not a string.
func (colour) Example() string { return `"75" or "#5fafff" for a colour` }

// UnmarshalText checks a colour: "#rrggbb" or an ANSI 256 number.
func (c *colour) UnmarshalText(b []byte) error {
	s := string(b)
	if !validColour(s) {
		return fmt.Errorf("expected a colour, \"#rrggbb\" or an ANSI 256 colour number from 0 to 255 such as \"75\", got %q", s)
	}
	c.s = s
	return nil
}

func validColour(s string) bool {
	if hex, ok := strings.CutPrefix(s, "#"); ok {
		_, err := strconv.ParseUint(hex, 16, 32)
		return len(hex) == 6 && err == nil
	}
	n, err := strconv.Atoi(s)
	return err == nil && n >= 0 && n <= 255 && strconv.Itoa(n) == s
}

// codeTheme is the name of a Chroma style (a struct: see colour).
type codeTheme struct{ s string }

// Example is what a style's name looks like.
func (codeTheme) Example() string { return `"monokai"` }

// UnmarshalText checks that Chroma knows the style.
func (c *codeTheme) UnmarshalText(b []byte) error {
	s := string(b)
	if _, ok := chroma.Registry[s]; !ok {
		return fmt.Errorf("expected the name of a Chroma style such as \"monokai\", \"github\" or \"bw\", got %q", s)
	}
	c.s = s
	return nil
}

// Error is a problem in a theme file, at its place when known: its Path
// starts with "theme ", as in "theme ~/mine.toml:3:1: unknown key …".
type Error = tomlfile.Error

//go:embed themes/*.toml
var builtinFiles embed.FS

// builtinNames are the names of the embedded themes, sorted.
var builtinNames = func() []string {
	des, err := builtinFiles.ReadDir("themes")
	if err != nil {
		panic(err) // embedded: only a build without the folder can fail
	}
	var names []string
	for _, de := range des {
		names = append(names, strings.TrimSuffix(de.Name(), ".toml"))
	}
	slices.Sort(names)
	return names
}()

// Names lists the themes known by name, as /theme and --theme complete
// them: dark, light, auto, then the built-in ones.
func Names() []string {
	return append([]string{"dark", "light", "auto"}, builtinNames...)
}

// IsFile reports whether name is the path of a theme file rather than the
// name of a theme: it holds a path separator or ends in .toml. Reading it
// is I/O, which a caller on an event loop does elsewhere.
func IsFile(name string) bool {
	return strings.ContainsRune(name, '/') || strings.ContainsRune(name, filepath.Separator) || strings.HasSuffix(name, ".toml")
}

// Caps on a theme file, the same as on a configuration file (see
// ui/cli/config): no theme comes near them, and a file past them is
// refused before the TOML library reads it.
const (
	// maxFile is the largest theme file read.
	maxFile = 64 << 10
	// maxKeys is how many keys a theme file may hold, counting every
	// table and every part of a dotted key.
	maxKeys = 2000
	// maxDepth is how deeply its tables may nest.
	maxDepth = 64
)

// fromFile reads the theme file path: a regular file, of at most maxFile
// bytes (see api/regfile: a named pipe or device is refused without waiting
// on it).
func fromFile(path string, darkBackground bool) (*Theme, error) {
	name := path
	if rest, ok := strings.CutPrefix(path, "~/"); ok {
		if home, err := os.UserHomeDir(); err == nil {
			path = filepath.Join(home, rest)
		}
	}
	src, err := regfile.Read(path, maxFile)
	var notRegular *regfile.NotRegularError
	var tooLarge *regfile.TooLargeError
	switch {
	case errors.As(err, &notRegular):
		return nil, &Error{Path: "theme " + name, Msg: fmt.Sprintf("it is %s, not a file: give the path of a theme file", notRegular.What())}
	case errors.As(err, &tooLarge):
		return nil, &Error{Path: "theme " + name, Msg: fmt.Sprintf("%v: a theme file is never that big, check that it is the right one", err)}
	case err != nil:
		return nil, fmt.Errorf("theme: %w", err)
	}
	return parse(name, strings.TrimSuffix(filepath.Base(path), ".toml"), src, darkBackground)
}

// builtin makes the embedded theme name.
func builtin(name string, darkBackground bool) (*Theme, bool, error) {
	if !slices.Contains(builtinNames, name) {
		return nil, false, nil
	}
	data, err := builtinFiles.ReadFile("themes/" + name + ".toml")
	if err != nil {
		return nil, true, fmt.Errorf("built-in theme %s: %w", name, err)
	}
	th, err := parse("built-in "+name, name, data, darkBackground)
	return th, true, err
}

// parse makes a theme from the theme file src, read from where (for
// errors), named name unless the file names itself.
func parse(where, name string, src []byte, darkBackground bool) (*Theme, error) {
	var tf themeFile
	places, probs := tomlfile.Decode("theme "+where, src, &tf, tomlfile.Options{Keys: maxKeys, Depth: maxDepth, What: "a theme file"})
	if err := probs.Err(); err != nil {
		return nil, err
	}
	isDark := darkBackground
	switch tf.Base {
	case "", "auto":
	case "dark":
		isDark = true
	case "light":
		isDark = false
	default:
		return nil, &Error{Path: "theme " + where, Line: places.At("base").Line, Col: places.At("base").Col, Msg: fmt.Sprintf("base: expected dark, light or auto, got %q", tf.Base)}
	}
	if tf.Name != "" {
		name = tf.Name
	}
	p, md := dark, styles.DarkStyleConfig
	layers := []*variant{&tf.variant, tf.Dark}
	if !isDark {
		p, md = light, styles.LightStyleConfig
		layers[1] = tf.Light
	}
	for _, v := range layers {
		if v != nil {
			p = v.palette(p)
			md = v.Markdown.apply(md)
		}
	}
	// The code keeps glamour's colours, or its code_theme's, made to read
	// on the file's kind of background (see legibleCode).
	on := white
	if isDark {
		on = black
	}
	md.CodeBlock.Chroma = legibleCode(md.CodeBlock.Chroma, on, false)
	th := build(name, p, md)
	th.DarkBackground = darkBackground
	return th, nil
}

// palette is p with the colours v sets.
func (v *variant) palette(p Palette) Palette {
	set := func(dst *string, c colour) {
		if c.s != "" {
			*dst = c.s
		}
	}
	set(&p.Text, v.Chrome.Text)
	set(&p.Muted, v.Chrome.Muted)
	set(&p.Subtle, v.Chrome.Subtle)
	set(&p.Accent, v.Chrome.Accent)
	set(&p.Border, v.Chrome.Border)
	set(&p.User, v.Roles.User)
	set(&p.Assistant, v.Roles.Assistant)
	set(&p.Error, v.Roles.Error)
	set(&p.Warning, v.Roles.Warning)
	set(&p.Success, v.Roles.Success)
	return p
}

// apply is md with the colours m sets. The style's pointers are replaced,
// never written through: they are shared with glamour's own styles.
func (m markdownColours) apply(md ansi.StyleConfig) ansi.StyleConfig {
	set := func(dst **string, c colour) {
		if c.s != "" {
			s := c.s
			*dst = &s
		}
	}
	set(&md.Document.Color, m.Text)
	set(&md.Text.Color, m.Text)
	set(&md.Paragraph.Color, m.Text)
	if m.Heading.s != "" {
		for _, h := range []*ansi.StyleBlock{&md.Heading, &md.H1, &md.H2, &md.H3, &md.H4, &md.H5, &md.H6} {
			set(&h.Color, m.Heading)
		}
		md.H1.BackgroundColor = nil
	}
	set(&md.Link.Color, m.Link)
	set(&md.LinkText.Color, m.LinkText)
	set(&md.Image.Color, m.Image)
	set(&md.ImageText.Color, m.ImageText)
	set(&md.Code.Color, m.Code)
	set(&md.Code.BackgroundColor, m.CodeBackground)
	set(&md.CodeBlock.Color, m.CodeBlock)
	if m.CodeTheme.s != "" {
		md.CodeBlock.Theme, md.CodeBlock.Chroma = "", codeThemeColours(m.CodeTheme.s)
	}
	set(&md.BlockQuote.Color, m.Quote)
	set(&md.HorizontalRule.Color, m.Rule)
	return md
}
