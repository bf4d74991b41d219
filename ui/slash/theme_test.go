package slash

import (
	"reflect"
	"strings"
	"testing"

	"muse/session"
)

// /theme takes a theme's name (in any case) or a theme file; alone it asks
// which is on; an unknown name is refused with the names.
func TestSlashTheme(t *testing.T) {
	for _, tc := range []struct{ in, arg string }{
		{"/theme high-contrast", "high-contrast"},
		{"/theme Light", "light"},
		{"/theme", ""},
		{"/theme ~/themes/mine.toml", "~/themes/mine.toml"},
		{`/theme "my theme.toml"`, "my theme.toml"},
		{"/theme @/tmp/mine.toml", "/tmp/mine.toml"},
	} {
		res, err := Run(tc.in, session.Params{}, Env{})
		if err != nil || res.Action != ActionTheme || res.Arg != tc.arg {
			t.Errorf("%s: %+v, %v; want theme %q", tc.in, res, err, tc.arg)
		}
	}
	_, err := Run("/theme pink", session.Params{}, Env{})
	if err == nil || !strings.Contains(err.Error(), "high-contrast") || !strings.Contains(err.Error(), "FILE") {
		t.Errorf("/theme pink: %v", err)
	}
}

// Tab completes the values a command's usage lists: the themes' names for
// /theme, on and off for /extend; not a word in capitals, nor past the
// first argument.
func TestArgumentCompletions(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want []string
	}{
		{"/theme h", []string{"/theme high-contrast"}},
		{"/theme ", []string{"/theme dark", "/theme light", "/theme auto", "/theme high-contrast", "/theme nord", "/theme solarized-light"}},
		{"/theme So", []string{"/theme solarized-light"}},
		{"/theme x", nil},
		{"/extend o", []string{"/extend on", "/extend off"}},
		{"/thinking o", []string{"/thinking off"}},
		{"/retry ", nil},
		{"/theme dark x", nil},
		{"/nope ", nil},
	} {
		if got := Completions(tc.in, nil); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("Completions(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
