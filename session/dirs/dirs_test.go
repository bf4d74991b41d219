package dirs

import (
	"path/filepath"
	"testing"
)

func TestBaseDirPerPlatform(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	home := "/home/u"
	for _, tc := range []struct {
		goos string
		env  map[string]string
		b    Base
		want string
	}{
		{"linux", map[string]string{"HOME": home}, DataBase, "/home/u/.local/share"},
		{"linux", map[string]string{"HOME": home}, ConfigBase, "/home/u/.config"},
		{"linux", map[string]string{"HOME": home}, StateBase, "/home/u/.local/state"},
		{"freebsd", map[string]string{"USERPROFILE": home}, DataBase, "/home/u/.local/share"},
		{"linux", map[string]string{"HOME": home, "XDG_STATE_HOME": "/s"}, StateBase, "/s"},
		{"linux", map[string]string{"HOME": home, "XDG_DATA_HOME": "rel"}, DataBase, "/home/u/.local/share"},
		{"darwin", map[string]string{"HOME": home}, ConfigBase, "/home/u/Library/Application Support"},
		{"darwin", map[string]string{"HOME": home, "XDG_CONFIG_HOME": "/c"}, ConfigBase, "/c"},
		{"windows", map[string]string{"USERPROFILE": home, "LOCALAPPDATA": "/l"}, DataBase, "/l"},
		{"windows", map[string]string{"USERPROFILE": home}, StateBase, filepath.Join(home, "AppData", "Local")},
		{"windows", map[string]string{"USERPROFILE": home, "XDG_DATA_HOME": "/x"}, DataBase, "/x"},
	} {
		if got, err := BaseDir(tc.b, env(tc.env), tc.goos); err != nil || got != tc.want {
			t.Errorf("%s %v %v: %q, %v; want %q", tc.goos, tc.b, tc.env, got, err, tc.want)
		}
	}
	for _, goos := range []string{"linux", "darwin", "windows"} {
		if _, err := BaseDir(DataBase, env(nil), goos); err == nil {
			t.Errorf("%s with no home: no error", goos)
		}
	}
	if got, err := SessionsDir(env(map[string]string{"LOCALAPPDATA": "/l"}), "windows"); err != nil || got != filepath.Join("/l", "muse", "sessions") {
		t.Errorf("SessionsDir: %q, %v", got, err)
	}
}

// The index and the locks are never in the data folder, on any system.
func TestMachineFoldersOutOfTheDataFolder(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	home := "/home/u"
	for _, tc := range []struct {
		goos        string
		env         map[string]string
		cache, lock string
	}{
		{"linux", map[string]string{"HOME": home}, "/home/u/.cache/muse", "/home/u/.local/state/muse/locks"},
		{"linux", map[string]string{"HOME": home, "XDG_CACHE_HOME": "/c", "XDG_STATE_HOME": "/s"}, "/c/muse", "/s/muse/locks"},
		{"linux", map[string]string{"HOME": home, "XDG_DATA_HOME": "/d", "XDG_CACHE_HOME": "/d", "XDG_STATE_HOME": "/d"}, "/d/muse-cache", "/d/muse-cache/locks"},
		{"darwin", map[string]string{"HOME": home}, "/home/u/Library/Caches/muse", "/home/u/Library/Caches/muse/locks"},
		{"windows", map[string]string{"LOCALAPPDATA": "/l"}, filepath.Join("/l", "muse-cache"), filepath.Join("/l", "muse-cache", "locks")},
		{"linux", map[string]string{"XDG_DATA_HOME": "/d"}, "/d/muse-cache", "/d/muse-cache/locks"},
	} {
		cache, err := CacheDir(env(tc.env), tc.goos)
		if err != nil || cache != filepath.FromSlash(tc.cache) && cache != tc.cache {
			t.Errorf("%s %v: CacheDir %q, %v; want %q", tc.goos, tc.env, cache, err, tc.cache)
		}
		lock, err := LockDir(env(tc.env), tc.goos)
		if err != nil || lock != filepath.FromSlash(tc.lock) && lock != tc.lock {
			t.Errorf("%s %v: LockDir %q, %v; want %q", tc.goos, tc.env, lock, err, tc.lock)
		}
	}
}

func TestSessionsDirFromTheEnvironment(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	xdg := t.TempDir()

	t.Setenv("XDG_DATA_HOME", xdg)
	if got, err := SessionsDir(nil, ""); err != nil || got != filepath.Join(xdg, "muse", "sessions") {
		t.Errorf("with XDG_DATA_HOME=%s: SessionsDir(nil, \"\") = %q, %v", xdg, got, err)
	}
	want := filepath.Join(home, ".local", "share", "muse", "sessions")
	for _, v := range []string{"", "relative/data"} {
		t.Setenv("XDG_DATA_HOME", v)
		if got, err := SessionsDir(nil, ""); err != nil || got != want {
			t.Errorf("with XDG_DATA_HOME=%q: SessionsDir(nil, \"\") = %q, %v; want %q", v, got, err, want)
		}
	}
}
