package theme

import (
	"bytes"
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
	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"

	"muse/ui/regfile"
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
//	heading = "39"       # every level (the first loses its background)
//	link = "30"          # a link's address
//	link_text = "35"
//	image = "212"
//	image_text = "243"
//	code = "203"         # inline code, on code_background
//	code_background = "236"
//	code_block = "244"   # a code block's margin and plain text
//	code_theme = "monokai" # a Chroma style for the code's syntax colours
//	quote = "252"
//	rule = "240"
//
// [dark.chrome], [dark.roles], [dark.markdown] and the same under light
// apply on top, when the theme is dark or light (by base, or the terminal's
// background): one file can suit both.

// themeFile is a theme file as read.
type themeFile struct {
	Name  string   `toml:"name"`
	Base  string   `toml:"base"`
	Dark  *variant `toml:"dark"`
	Light *variant `toml:"light"`
	variant
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

// keysOf are the keys of each table of a theme file, for the error about a
// key it does not know.
var keysOf = map[string][]string{
	"":         {"name", "base", "chrome", "roles", "markdown", "dark", "light"},
	"dark":     {"chrome", "roles", "markdown"},
	"light":    {"chrome", "roles", "markdown"},
	"chrome":   {"text", "muted", "subtle", "accent", "border"},
	"roles":    {"user", "assistant", "error", "warning", "success"},
	"markdown": {"text", "heading", "link", "link_text", "image", "image_text", "code", "code_background", "code_block", "code_theme", "quote", "rule"},
}

// colour is a colour of a theme file: s is "" when left out. It is a
// struct, not a string, so that the TOML library hands it to UnmarshalText,
// whose error it reports at the value's place.
type colour struct{ s string }

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

// UnmarshalText checks that Chroma knows the style.
func (c *codeTheme) UnmarshalText(b []byte) error {
	s := string(b)
	if _, ok := chroma.Registry[s]; !ok {
		return fmt.Errorf("expected the name of a Chroma style such as \"monokai\", \"github\" or \"bw\", got %q", s)
	}
	c.s = s
	return nil
}

// Error is a problem in a theme file, at its line when known.
type Error struct {
	Path      string
	Line, Col int
	Msg       string
}

// Error formats the problem as "FILE:LINE:COL: MSG".
func (e *Error) Error() string {
	switch {
	case e.Line > 0 && e.Col > 0:
		return fmt.Sprintf("theme %s:%d:%d: %s", e.Path, e.Line, e.Col, e.Msg)
	case e.Line > 0:
		return fmt.Sprintf("theme %s:%d: %s", e.Path, e.Line, e.Msg)
	}
	return fmt.Sprintf("theme %s: %s", e.Path, e.Msg)
}

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
// bytes (see ui/regfile: a named pipe or device is refused without waiting
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
		return nil, &Error{Path: name, Msg: fmt.Sprintf("it is %s, not a file: give the path of a theme file", notRegular.What())}
	case errors.As(err, &tooLarge):
		return nil, &Error{Path: name, Msg: fmt.Sprintf("%v: a theme file is never that big, check that it is the right one", err)}
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
	if err := check(where, src); err != nil {
		return nil, err
	}
	var tf themeFile
	dec := toml.NewDecoder(bytes.NewReader(src)).DisallowUnknownFields()
	if err := dec.Decode(&tf); err != nil {
		return nil, decodeError(where, err)
	}
	isDark := darkBackground
	switch tf.Base {
	case "", "auto":
	case "dark":
		isDark = true
	case "light":
		isDark = false
	default:
		return nil, &Error{Path: where, Line: lineOf(src, "base"), Msg: fmt.Sprintf("base: expected dark, light or auto, got %q", tf.Base)}
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
	th := build(name, p, md)
	th.DarkBackground = darkBackground
	return th, nil
}

// check walks the theme file src once, in time linear in its size, and
// refuses, at its place, the first key the theme does not know, a value
// that is not a string (every setting of a theme file is one; the library
// hands a number or a boolean to UnmarshalText as text, and reports its
// error without a place), and more than maxKeys keys or maxDepth levels.
// Only a file that passes goes to the library's decoder: it builds an
// error for each unknown key by scanning the file from its start to the
// key, which takes time quadratic in their number (32,000 unknown tables,
// 270 KB, took 27 s).
func check(where string, src []byte) error {
	var p unstable.Parser
	p.Reset(src)
	var table []string // the keys of the current table's header
	keys := 0
	for p.NextExpression() {
		e := p.Expression()
		var path []string
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			table = table[:0]
		case unstable.KeyValue:
		default:
			continue
		}
		path = append(path, table...)
		for it := e.Key(); it.Next(); {
			k := it.Node()
			path = append(path, string(k.Data))
			keys++
			at := p.Shape(k.Raw).Start
			switch {
			case keys > maxKeys:
				return &Error{Path: where, Line: at.Line, Col: at.Column, Msg: fmt.Sprintf("more than %d keys: a theme file is never that big, check that it is the right one", maxKeys)}
			case len(path) > maxDepth:
				return &Error{Path: where, Line: at.Line, Col: at.Column, Msg: fmt.Sprintf("nested more than %d levels deep: a theme file has tables two deep, such as [dark.chrome]", maxDepth)}
			}
			if msg := unknownKey(path); msg != "" {
				return &Error{Path: where, Line: at.Line, Col: at.Column, Msg: msg}
			}
		}
		if e.Kind != unstable.KeyValue {
			table = path
			continue
		}
		if v := e.Value(); v.Kind != unstable.String {
			at := p.Shape(v.Raw).Start
			return &Error{Path: where, Line: at.Line, Col: at.Column,
				Msg: fmt.Sprintf("%s: expected a string, such as \"75\" or \"#5fafff\" for a colour, got %s", strings.Join(path, "."), p.Raw(v.Raw))}
		}
	}
	return nil // the decoder reports the file's syntax errors
}

// unknownKey says what is wrong with the last key of path, a key of a
// theme file with the tables it is in, when the theme does not know it,
// or returns "".
func unknownKey(path []string) string {
	table := ""
	if len(path) > 1 {
		table = path[len(path)-2]
	}
	known, ok := keysOf[table]
	switch {
	case !ok:
		return fmt.Sprintf("unknown key %s: %s takes no table", strings.Join(path, "."), table)
	case !slices.Contains(known, path[len(path)-1]):
		return fmt.Sprintf("unknown key %s: expected one of %s", strings.Join(path, "."), strings.Join(known, ", "))
	}
	return ""
}

// lineOf is the line of the first "key =" in src, or 0.
func lineOf(src []byte, key string) int {
	for i, l := range strings.Split(string(src), "\n") {
		if k, _, ok := strings.Cut(l, "="); ok && strings.TrimSpace(k) == key {
			return i + 1
		}
	}
	return 0
}

// decodeError turns an error of the TOML library into an [*Error] at its
// line, saying what was expected.
func decodeError(where string, err error) error {
	var missing *toml.StrictMissingError
	if errors.As(err, &missing) && len(missing.Errors) > 0 {
		de := missing.Errors[0]
		line, col := de.Position()
		keys := de.Key()
		table := ""
		if len(keys) > 1 {
			table = keys[len(keys)-2]
		}
		msg := fmt.Sprintf("unknown key %s: expected one of %s", strings.Join(keys, "."), strings.Join(keysOf[table], ", "))
		if _, ok := keysOf[table]; !ok {
			msg = fmt.Sprintf("unknown key %s: %s takes no table", strings.Join(keys, "."), table)
		}
		return &Error{Path: where, Line: line, Col: col, Msg: msg}
	}
	var de *toml.DecodeError
	if errors.As(err, &de) {
		line, col := de.Position()
		msg := strings.TrimPrefix(de.Error(), "toml: ")
		if k := de.Key(); len(k) > 0 {
			msg = strings.Join(k, ".") + ": " + msg
		}
		return &Error{Path: where, Line: line, Col: col, Msg: msg}
	}
	return &Error{Path: where, Msg: err.Error()}
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
		md.CodeBlock.Theme, md.CodeBlock.Chroma = m.CodeTheme.s, nil
	}
	set(&md.BlockQuote.Color, m.Quote)
	set(&md.HorizontalRule.Color, m.Rule)
	return md
}
