package gitsync

import (
	"strings"
	"testing"
)

// A key age refuses is told what is wrong with it, never that it should
// start as it does: a changed character fails the checksum, a cut one is
// too short. The error never quotes the key.
func TestIdentityFaultSaysWhatIsWrong(t *testing.T) {
	id, err := NewIdentity()
	if err != nil {
		t.Fatal(err)
	}
	last := id[len(id)-1]
	swapped := "Q"
	if last == 'Q' {
		swapped = "P"
	}
	for name, c := range map[string]struct{ key, want string }{
		"a changed character": {id[:len(id)-1] + swapped, "its checksum does not match"},
		"cut":                 {id[:60], "it is 60 characters long where an identity is 74"},
		"the doc's example":   {"AGE-SECRET-KEY-1QQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQQ", "its checksum does not match"},
		"small letters":       {strings.ToLower(id), "small letters"},
		"another kind":        {"AGE-PLUGIN-YUBIKEY-1QQQ", "it does not start with AGE-SECRET-KEY-1"},
		"split":               {id[:30] + "\n" + id[30:], "a space or a line break"},
		"a letter no key has": {id[:20] + "B" + id[21:], "its character 21 is none an identity holds"},
	} {
		_, err := parseIdentity(c.key)
		if err == nil || !strings.Contains(err.Error(), c.want) || !strings.Contains(err.Error(), "copy it again") {
			t.Errorf("%s: %v, want it to say %q", name, err, c.want)
			continue
		}
		if len(c.key) >= 30 && strings.Contains(err.Error(), c.key[20:30]) {
			t.Errorf("%s: the error quotes the key: %v", name, err)
		}
		if c.want != "it does not start with AGE-SECRET-KEY-1" && strings.Contains(err.Error(), "starts with") {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := parseIdentity("  " + id + "\n"); err != nil {
		t.Errorf("the key with spaces around: %v", err)
	}
}
