package cli

import (
	"bytes"
	"regexp"
	"testing"

	cfgfile "muse/ui/cli/config"
)

// Every key a profile may set is named in --help, so a key added to the
// configuration cannot be left out of it.
func TestHelpNamesEveryProfileKey(t *testing.T) {
	var out bytes.Buffer
	if code := Main([]string{"--help"}, Env{Stdout: &out, Stderr: &out}); code != ExitOK {
		t.Fatalf("muse --help exited %d", code)
	}
	help := out.String()
	for _, k := range cfgfile.ProfileKeys() {
		if !regexp.MustCompile(`\b` + regexp.QuoteMeta(k) + `\b`).MatchString(help) {
			t.Errorf("--help does not name the profile key %s", k)
		}
	}
}
