package gitsync

import "testing"

// mask hides the whole user information of a URL, through the last @ of
// its authority: a password holding @ showed its end before. What is no
// secret (the host, the port, the path, an scp-like address's user) stays.
func TestMaskHidesTheWholeUserinfo(t *testing.T) {
	for in, want := range map[string]string{
		"https://u:p@ss@host/r.git":                          "https://***@host/r.git",
		"https://u:p@s@s@host:8443/r.git":                    "https://***@host:8443/r.git",
		"https://user@host/r.git":                            "https://***@host/r.git",
		"https://ghp_Token123@github.com/me/r.git":           "https://***@github.com/me/r.git",
		"https://:@host/r.git":                               "https://***@host/r.git",
		"https://:secret@host/r.git":                         "https://***@host/r.git",
		"https://host/r@2.git":                               "https://host/r@2.git",
		"https://host?ref=a@b":                               "https://host?ref=a@b",
		"ssh://git@host:2222/srv/r.git":                      "ssh://***@host:2222/srv/r.git",
		"ssh://u:p@ss@[::1]:22/r.git":                        "ssh://***@[::1]:22/r.git",
		"git@github.com:me/r.git":                            "git@github.com:me/r.git",
		"fatal: unable to access 'https://u:p@ss@h/r/': 403": "fatal: unable to access 'https://***@h/r/': 403",
		"push https://a:b@c@h/x and https://d@h2/y":          "push https://***@h/x and https://***@h2/y",
	} {
		if got := mask(in); got != want {
			t.Errorf("mask(%q) = %q, want %q", in, got, want)
		}
	}
}
