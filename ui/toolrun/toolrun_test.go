package toolrun

import (
	"context"
	"errors"
	"os/exec"
	"slices"
	"strings"
	"testing"
)

func TestCleanEnv(t *testing.T) {
	env := []string{"PATH=/bin", "MUSE_ACCESS_TOKEN=secret", "MUSE_API_KEY=k", "EXTRA=x",
		"MUSE_MODEL=m", "=C:=C:\\dir", "NOVALUE", "EXTRA_NOT=y"}
	got := cleanEnv(env, []string{"EXTRA"})
	want := []string{"PATH=/bin", "MUSE_MODEL=m", "=C:=C:\\dir", "NOVALUE", "EXTRA_NOT=y"}
	if !slices.Equal(got, want) {
		t.Errorf("cleanEnv = %q, want %q", got, want)
	}
	if len(env) != 8 || env[1] != "MUSE_ACCESS_TOKEN=secret" {
		t.Errorf("cleanEnv changed its argument: %q", env)
	}
}

func TestRunNoCommand(t *testing.T) {
	r := Run(context.Background(), Spec{})
	if r.Err == nil || r.ExitCode != -1 {
		t.Errorf("Run with no command = %+v, want an error", r)
	}
}

func TestRunStartError(t *testing.T) {
	r := Run(context.Background(), Spec{Argv: []string{"muse-no-such-tool-4f2a"}})
	if r.Err == nil || !strings.HasPrefix(r.Err.Error(), "start muse-no-such-tool-4f2a: ") ||
		!errors.Is(r.Err, exec.ErrNotFound) || r.ExitCode != -1 {
		t.Errorf("Run of a missing command = %+v, want a start error wrapping exec.ErrNotFound", r)
	}
}

func TestRunCancelledBefore(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	r := Run(ctx, Spec{Argv: []string{"muse-no-such-tool-4f2a"}})
	if r.Err == nil || r.Err.Error() != "cancelled" {
		t.Errorf("Run with a cancelled context = %+v, want cancelled", r)
	}
}

func TestCapped(t *testing.T) {
	c := &capped{max: 4}
	c.Write([]byte("ab"))
	c.Write([]byte("cdef"))
	c.Write([]byte("gh"))
	if got, want := c.close(), "abcd\n… 4 more bytes cut (limit 4 bytes)"; got != want {
		t.Errorf("capped = %q, want %q", got, want)
	}
	if n, err := c.Write([]byte("x")); n != 0 || err == nil {
		t.Errorf("Write after close = %d, %v; want an error", n, err)
	}
}

// Withhold removes a variable that holds a credential's value under
// another name, whole values only, and leaves values too short to be a
// credential alone.
func TestWithhold(t *testing.T) {
	env := []string{"PATH=/bin", "COPY=tok-12345678", "PADDED= tok-12345678\n", "PART=xtok-12345678", "BEARER=Bearer tok-12345678",
		"SHLVL=1", "=C:=C:\\dir", "SHORT=tok-1234567"}
	got := Withhold(env, []string{"tok-12345678", "1", ""})
	want := []string{"PATH=/bin", "SHLVL=1", "=C:=C:\\dir", "SHORT=tok-1234567"}
	if !slices.Equal(got, want) {
		t.Errorf("Withhold = %q, want %q", got, want)
	}
}
