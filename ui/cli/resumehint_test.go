package cli

import "testing"

// The hint printed when the chat screen ends must work when pasted: the
// flags that chose the service and the configuration come along.
func TestResumeHintWorksWhenPasted(t *testing.T) {
	cases := []struct {
		f    flags
		want string
	}{
		{flags{}, "muse -r 01J"},
		{flags{demo: true}, "muse --demo -r 01J"},
		{flags{profile: "work", configPath: "/tmp/my config.toml"}, "muse --config '/tmp/my config.toml' --profile work -r 01J"},
		{flags{baseURL: "http://127.0.0.1:11434"}, "muse --base-url http://127.0.0.1:11434 -r 01J"},
		{flags{profile: "a\x1b[31mb"}, "muse --profile ab -r 01J"},
	}
	for _, c := range cases {
		if got := resumeHint(&c.f, "01J"); got != c.want {
			t.Errorf("resumeHint(%+v) = %q, want %q", c.f, got, c.want)
		}
	}
}
