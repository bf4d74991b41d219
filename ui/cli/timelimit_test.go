package cli

import (
	"testing"
	"time"

	"muse/api"
)

// TestTimeLimits checks the request and stall time limits: api's defaults,
// the profile's, and the flags that beat them, where 0 is no limit.
func TestTimeLimits(t *testing.T) {
	env := map[string]string{}
	writeConfig(t, env, "default_profile = \"w\"\n[profiles.w]\n")
	c, err := resolveArgs(t, env, "--demo")
	if err != nil {
		t.Fatal(err)
	}
	if c.requestTimeout != api.DefaultRequestTimeout || c.stallTimeout != api.DefaultStallTimeout {
		t.Errorf("defaults: request %v, stall %v", c.requestTimeout, c.stallTimeout)
	}
	writeConfig(t, env, "default_profile = \"w\"\n[profiles.w]\nrequest_timeout = \"5m\"\nstall_timeout = \"1m\"\n")
	c, err = resolveArgs(t, env, "--demo")
	if err != nil || c.requestTimeout != 5*time.Minute || c.stallTimeout != time.Minute {
		t.Errorf("profile: request %v, stall %v, %v", c.requestTimeout, c.stallTimeout, err)
	}
	c, err = resolveArgs(t, env, "--demo", "--request-timeout", "0", "--stall-timeout", "20s")
	if err != nil || c.requestTimeout != 0 || c.stallTimeout != 20*time.Second {
		t.Errorf("flags: request %v, stall %v, %v", c.requestTimeout, c.stallTimeout, err)
	}
	if _, err := resolveArgs(t, env, "--demo", "--stall-timeout", "-1s"); err == nil {
		t.Error("a negative --stall-timeout was taken")
	}
}
