package config

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

// noRun fails the test if a command is run.
func noRun(t *testing.T) func(context.Context, []string) ([]byte, error) {
	return func(context.Context, []string) ([]byte, error) {
		t.Error("command run")
		return nil, errors.New("no")
	}
}

func TestResolveSecretFromEnv(t *testing.T) {
	got, err := ResolveSecret("WORK_TOKEN", "printf cmd", 0, env(map[string]string{"WORK_TOKEN": "tok\n"}), noRun(t))
	if err != nil || got != "tok" {
		t.Errorf("ResolveSecret = %q, %v", got, err)
	}
}

func TestResolveSecretUnsetEnv(t *testing.T) {
	_, err := ResolveSecret("WORK_TOKEN", "", 0, env(nil), noRun(t))
	if err == nil || !strings.Contains(err.Error(), "WORK_TOKEN is not set") {
		t.Errorf("ResolveSecret = %v", err)
	}
}

func TestResolveSecretNothingConfigured(t *testing.T) {
	got, err := ResolveSecret("", "", 0, env(nil), noRun(t))
	if got != "" || err != nil {
		t.Errorf("ResolveSecret = %q, %v", got, err)
	}
}

func TestResolveSecretFromCommand(t *testing.T) {
	needSh(t)
	for _, cmd := range []string{"printf tok", "printf 'tok\\n'", "echo tok"} {
		got, err := ResolveSecret("WORK_TOKEN", cmd, 0, env(nil), nil)
		if err != nil || got != "tok" {
			t.Errorf("ResolveSecret(%q) = %q, %v", cmd, got, err)
		}
	}
}

func TestResolveSecretCommandArgv(t *testing.T) {
	var argv []string
	var deadline time.Time
	run := func(ctx context.Context, a []string) ([]byte, error) {
		argv = a
		deadline, _ = ctx.Deadline()
		return []byte("tok\r\n"), nil
	}
	got, err := ResolveSecret("", "pass show llm/token", 0, env(nil), run)
	if err != nil || got != "tok" {
		t.Errorf("ResolveSecret = %q, %v", got, err)
	}
	if strings.Join(argv, "|") != "sh|-c|pass show llm/token" {
		t.Errorf("argv = %q", argv)
	}
	if left := time.Until(deadline); left <= 0 || left > secretTimeout {
		t.Errorf("deadline in %v, want within %v", left, secretTimeout)
	}
}

func TestResolveSecretFailingCommand(t *testing.T) {
	needSh(t)
	_, err := ResolveSecret("", "printf 'sek%s' rit-output; exit 3", 0, env(nil), nil)
	if err == nil {
		t.Fatal("no error")
	}
	if strings.Contains(err.Error(), "sekrit-output") {
		t.Errorf("error %q contains the output", err)
	}
	if !strings.Contains(err.Error(), "exit status 3") || !strings.Contains(err.Error(), `"printf 'sek%s' rit-output; exit 3"`) {
		t.Errorf("error = %q", err)
	}
}

func TestResolveSecretRedactsRunnerError(t *testing.T) {
	run := func(context.Context, []string) ([]byte, error) {
		return []byte("sekrit\n"), fmt.Errorf("failed after printing sekrit")
	}
	_, err := ResolveSecret("", "x", 0, env(nil), run)
	if err == nil || strings.Contains(err.Error(), "sekrit") || !strings.Contains(err.Error(), "****") {
		t.Errorf("error = %v", err)
	}
}

func TestResolveSecretBadOutput(t *testing.T) {
	for out, want := range map[string]string{
		"":              "printed nothing",
		"\n":            "printed nothing",
		"sekrit\nuser:": "more than one line",
	} {
		run := func(context.Context, []string) ([]byte, error) { return []byte(out), nil }
		_, err := ResolveSecret("", "x", 0, env(nil), run)
		if err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), "sekrit") {
			t.Errorf("output %q: error = %v, want %q", out, err, want)
		}
	}
}

func TestResolveSecretTimeout(t *testing.T) {
	run := func(ctx context.Context, _ []string) ([]byte, error) {
		<-ctx.Done()
		return []byte("sekrit"), ctx.Err()
	}
	_, err := ResolveSecret("", "sleep 60", 20*time.Millisecond, env(nil), run)
	if err == nil || !strings.Contains(err.Error(), `credential command "sleep 60" timed out after 20ms: set credential_timeout`) || strings.Contains(err.Error(), "sekrit") {
		t.Errorf("error = %v", err)
	}
}

func TestRunCommandKilledAtDeadline(t *testing.T) {
	needSh(t)
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	// Returning at all proves the limit: without it, this waits 30 s.
	if _, err := RunCommand(ctx, []string{"sh", "-c", "exec sleep 30"}); err == nil {
		t.Errorf("RunCommand past its limit succeeded")
	}
	if _, err := RunCommand(context.Background(), nil); err == nil {
		t.Error("RunCommand(nil): no error")
	}
}
