package cli

import (
	"strconv"
	"strings"

	"github.com/charmbracelet/glamour/ansi"
	"github.com/muesli/termenv"

	"muse/theme"
)

// Wrap widths of -p's rendered replies.
const (
	defaultPrintWidth = 80  // when the terminal's width is unknown
	maxPrintWidth     = 120 // at most, unless --width says otherwise
)

// printWidth is the width -p wraps a rendered reply at: --width, else the
// terminal's, at most maxPrintWidth.
func printWidth(env Env, f *flags) int {
	switch {
	case f.set != nil && f.set("width"):
		return f.width
	case env.Width > 0:
		return min(env.Width, maxPrintWidth)
	}
	return defaultPrintWidth
}

// printStyle returns the glamour style and colour profile of -p's rendered
// replies. The profile comes from the environment (TERM, COLORTERM,
// NO_COLOR, CLICOLOR_FORCE). The terminal is never asked anything, so
// "auto" takes the background from COLORFGBG when it is set, else dark;
// --theme light or theme = "light" picks the light style.
func printStyle(env Env, themeName string) (ansi.StyleConfig, termenv.Profile, error) {
	out := termenv.NewOutput(env.Stdout, termenv.WithEnvironment(environ{env.Getenv}), termenv.WithTTY(env.StdoutTTY))
	profile := out.EnvColorProfile()
	th, err := theme.New(themeName, darkFromEnv(env.Getenv), theme.WithProfile(profile))
	if err != nil {
		return ansi.StyleConfig{}, profile, usagef("%v", err)
	}
	return th.Markdown, profile, nil
}

// darkFromEnv reads COLORFGBG ("15;0": the foreground, then the
// background colour) as terminals that set it mean it: a background of 0
// to 6 or 8 is dark. Unset or unreadable, the background counts as dark.
func darkFromEnv(getenv func(string) string) bool {
	v := getenv("COLORFGBG")
	if v == "" {
		return true
	}
	parts := strings.Split(v, ";")
	bg, err := strconv.Atoi(parts[len(parts)-1])
	if err != nil {
		return true
	}
	return bg <= 6 || bg == 8
}
