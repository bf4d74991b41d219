package slash

import (
	"fmt"
	"strings"
	"unicode"

	"muse/session"
	"muse/theme"
)

// slashTheme reads /theme NAME or /theme FILE; alone, it asks which theme
// is on. A name must be one muse knows; a file (see theme.IsFile) is read
// by the chat screen, off its event loop.
func slashTheme(arg string, p session.Params) (Result, error) {
	arg = unquote(strings.TrimSpace(arg))
	if rest, ok := strings.CutPrefix(arg, "@"); ok && theme.IsFile(rest) {
		arg = rest // a path pasted into the input becomes an @mention
	}
	res := Result{Action: ActionTheme, Params: p.Clone(), Arg: arg}
	if arg == "" || theme.IsFile(arg) {
		return res, nil
	}
	for _, n := range theme.Names() {
		if strings.EqualFold(arg, n) {
			res.Arg = n
			return res, nil
		}
	}
	return Result{Params: res.Params}, fmt.Errorf("no theme %q: use /theme %s, or /theme FILE for a theme file (.toml)", arg, strings.Join(theme.Names(), ", "))
}

// argCompletions completes the argument of a command whose usage lists
// its values, as "on|off" or "[dark|light|FILE]": for "/cmd " and the start
// of a value, the values that start with it (the words in lower case; a
// word in capitals, as FILE, stands for what the user types), each as the
// whole input. ok is false when the input is not a command and the start
// of one argument.
func argCompletions(typed string, models *Models) (out []string, ok bool) {
	word, rest, found := strings.Cut(typed, " ")
	if !found || !strings.HasPrefix(word, "/") || strings.IndexFunc(rest, unicode.IsSpace) >= 0 {
		return nil, false
	}
	c := lookupSlash(word[1:])
	if c == nil {
		return nil, true
	}
	if c.name == "model" {
		return models.completions(word, rest), true
	}
	choices := c.choices
	if choices == nil {
		choices = strings.Split(strings.Trim(c.args, "[]"), "|")
	}
	for _, v := range choices {
		literal := v != "" && strings.IndexFunc(v, func(r rune) bool {
			return !unicode.IsLower(r) && !unicode.IsDigit(r) && r != '-'
		}) < 0
		if literal && strings.HasPrefix(v, strings.ToLower(rest)) {
			out = append(out, word+" "+v)
		}
	}
	return out, true
}
