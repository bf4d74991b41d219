package config

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestInit(t *testing.T) {
	path := filepath.Join(t.TempDir(), "cfg", "muse", "config.toml")
	if err := Init(path); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if st.Mode().Perm() != 0o600 {
		t.Errorf("file mode = %v, want 0600", st.Mode().Perm())
	}
	dst, err := os.Stat(filepath.Dir(path))
	if err != nil {
		t.Fatal(err)
	}
	if dst.Mode().Perm() != 0o700 {
		t.Errorf("folder mode = %v, want 0700", dst.Mode().Perm())
	}
	data, err := os.ReadFile(path)
	if err != nil || string(data) != example {
		t.Errorf("file holds %q, %v", data, err)
	}

	// The example loads as written ...
	f, err := Load(path)
	if err != nil {
		t.Fatalf("example does not load: %v", err)
	}
	if p, err := f.Select("work"); err != nil || p.BaseURL == "" || p.Model == "" {
		t.Errorf("example profile = %+v, %v", p, err)
	}

	// ... and refuses to be overwritten.
	if err := os.WriteFile(path, []byte("# mine\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	err = Init(path)
	if err == nil || !strings.Contains(err.Error(), path+" exists: not overwritten") {
		t.Errorf("second Init = %v", err)
	}
	if data, _ := os.ReadFile(path); string(data) != "# mine\n" {
		t.Errorf("file overwritten: %q", data)
	}
}

// TestExampleOptionalSettings checks every commented-out setting of the
// example: with the "#" removed, the file still loads.
func TestExampleOptionalSettings(t *testing.T) {
	setting := regexp.MustCompile(`(?m)^#([a-z_]+ = |\[)`)
	text := setting.ReplaceAllString(example, "$1")
	if text == example {
		t.Fatal("no commented-out settings found")
	}
	f, err := Load(write(t, t.TempDir(), text))
	if err != nil {
		t.Fatalf("uncommented example does not load: %v", err)
	}
	p, err := f.Select("")
	if err != nil || p == nil {
		t.Fatalf("default profile = %v, %v", p, err)
	}
	if p.Temperature == nil || p.Thinking != "adaptive" || p.Effort != "high" || len(p.Keys) == 0 || len(p.Tools) != 1 || p.Tools[0].Command == nil {
		t.Errorf("profile = %+v", p)
	}
	// Every profile setting is explained in the example.
	for _, k := range profileKeyNames {
		if !strings.Contains(example, k) {
			t.Errorf("example does not mention %s", k)
		}
	}
}

func TestInitUnwritable(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := Init(filepath.Join(file, "muse", "config.toml")); err == nil || !strings.Contains(err.Error(), "create config folder") {
		t.Errorf("Init under a file = %v", err)
	}
}
