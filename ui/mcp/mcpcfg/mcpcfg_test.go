package mcpcfg

import (
	"slices"
	"strings"
	"testing"
)

// One name rule: 1 to 32 letters, digits, _ or -.
func TestCheckName(t *testing.T) {
	for name, ok := range map[string]bool{
		"fs": true, "my-server_2": true, strings.Repeat("a", 32): true,
		"": false, "bad name": false, "a.b": false, "ünï": false, strings.Repeat("a", 33): false, "a__b\x1b": false,
	} {
		if err := CheckName(name); (err == nil) != ok {
			t.Errorf("%q: %v", name, err)
		}
	}
}

// A profile takes every key a file does, and its credential keys; adding
// them leaves Keys as it was.
func TestProfileKeys(t *testing.T) {
	if !slices.Equal(ProfileKeys[:len(Keys)], Keys) || !slices.Contains(ProfileKeys, "token_env") || !slices.Contains(ProfileKeys, "token_cmd") {
		t.Errorf("ProfileKeys %q", ProfileKeys)
	}
	if slices.Contains(Keys, "token_env") || len(Keys) != 8 {
		t.Errorf("Keys %q", Keys)
	}
}
