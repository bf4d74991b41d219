package config

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

func TestZZDemo(t *testing.T) {
	dir := t.TempDir()
	p := filepath.Join(dir, "config.toml")
	os.WriteFile(p, []byte("default_profile = \"work\"\n[profiles.work]\nmodel = \"m\"\nmax_tokens = \"lots\"\ntemperature = 1.5\ntemprature = 0.3\naccess_token = \"sk-x\"\n[profiles.work.keys]\nsned = [\"x\"]\n[[profiles.work.tools]]\ndescription = \"d\"\n"), 0o600)
	_, err := Load(p)
	fmt.Println(err)
	os.WriteFile(p, []byte("[profiles.work]\nmodel = \"m\"\nx = = 1\n"), 0o600)
	_, err = Load(p)
	fmt.Println(err)
	f, _ := Load(filepath.Join(dir, "none.toml"))
	_, err = f.Select("x")
	fmt.Println(err)
	os.WriteFile(p, []byte("[profiles.a]\n[profiles.b]\n"), 0o600)
	f, _ = Load(p)
	_, err = f.Select("x")
	fmt.Println(err)
	fmt.Println(Init(p))
	_, err = ResolveSecret("WORK_TOKEN", "", func(string) string { return "" }, nil)
	fmt.Println(err)
	_, err = ResolveSecret("", "exit 2", func(string) string { return "" }, nil)
	fmt.Println(err)
}
