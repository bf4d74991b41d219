package theme

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"testing"
)

// A theme file gets the caps of a configuration file: a directory is
// refused, and so is a file over 64 KiB or with more than 2000 keys, each
// with a message that says what is wrong.
func TestThemeFileCaps(t *testing.T) {
	for _, tc := range []struct{ name, path, want string }{
		{"directory", t.TempDir(), "it is a directory, not a file"},
		{"large", writeTheme(t, "big.toml", "# "+strings.Repeat("x", 64<<10)+"\n"), "larger than 64 KiB"},
		{"keys", writeTheme(t, "keys.toml", strings.Repeat("[chrome]\ntext = \"1\"\n", 1001)), ":2001:2: more than 2000 keys"},
	} {
		_, err := New(tc.path, true)
		var te *Error
		if !errors.As(err, &te) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want it to hold %q", tc.name, err, tc.want)
		}
	}
}

// Checking a theme file costs work linear in its size: four times the
// tables, unknown or repeated, allocate at most about four times as much
// (the library's error for each unknown key scanned the file from its
// start: 32,000 tables took 27 s). Counted in bytes allocated, not time,
// below the size cap so that parsing itself is measured.
func TestThemeParseIsLinear(t *testing.T) {
	allocated := func(src string) uint64 {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := parse("t.toml", "t", []byte(src), true)
		runtime.ReadMemStats(&after)
		if err == nil {
			t.Fatalf("%.40q… was taken", src)
		}
		return after.TotalAlloc - before.TotalAlloc
	}
	tables := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, "[t%d]\n", i)
		}
		return b.String()
	}
	repeated := func(n int) string { return strings.Repeat("[chrome]\ntext = \"1\"\n", n) }
	for name, make := range map[string]func(int) string{"unknown tables": tables, "repeated tables": repeated} {
		small, large := allocated(make(1000)), allocated(make(4000))
		if large > 4*small+64<<10 {
			t.Errorf("%s: 4000 allocated %d bytes, 1000 %d", name, large, small)
		}
	}
}
