// Package dirs finds muse's per-user folders: the base directories for data,
// configuration, state and cache (XDG variables first, else the platform's
// place), the sessions directory under the data one, and the folders of
// what must stay on this machine (the index, the locks), out of the data
// folder a sync engine copies. It holds no more than that,
// so that the configuration loader can learn a folder without the journal.
package dirs

import (
	"errors"
	"os"
	"path/filepath"
	"runtime"

	"github.com/adrg/xdg"
)

// Base is a kind of per-user base directory: where data, configuration or
// state files go.
type Base int

// The base directories.
const (
	// DataBase holds sessions, images and prompt history ($XDG_DATA_HOME).
	DataBase Base = iota
	// ConfigBase holds the configuration file ($XDG_CONFIG_HOME).
	ConfigBase
	// StateBase holds logs and session locks ($XDG_STATE_HOME).
	StateBase
	// CacheBase holds the search index, derived from the sessions
	// ($XDG_CACHE_HOME).
	CacheBase
)

// xdgVar is the variable that names each base directory.
var xdgVar = [...]string{DataBase: "XDG_DATA_HOME", ConfigBase: "XDG_CONFIG_HOME", StateBase: "XDG_STATE_HOME", CacheBase: "XDG_CACHE_HOME"}

// String returns the variable that names the base directory.
func (b Base) String() string { return xdgVar[b] }

// BaseDir returns the per-user base directory b, without muse's own folder
// under it. The XDG variable ($XDG_DATA_HOME, $XDG_CONFIG_HOME,
// $XDG_STATE_HOME, $XDG_CACHE_HOME) wins on every system when it holds an
// absolute path. Otherwise it is the platform's place, found from the home
// folder ($HOME, else %USERPROFILE%):
//
//   - Linux and the BSDs: ~/.local/share, ~/.config, ~/.local/state,
//     ~/.cache;
//   - macOS: ~/Library/Application Support for the first three,
//     ~/Library/Caches for the cache;
//   - Windows: %LOCALAPPDATA% for all four, else %USERPROFILE%\AppData\Local.
//
// getenv reads the environment; nil means the process's own, and then, when
// it names no home at all, github.com/adrg/xdg's answer is used (on Windows
// it asks the system for its known folders). goos is the system to lay the
// folders out for; "" means runtime.GOOS.
func BaseDir(b Base, getenv func(string) string, goos string) (string, error) {
	own := getenv == nil
	if own {
		getenv = os.Getenv
	}
	if goos == "" {
		goos = runtime.GOOS
	}
	if v := getenv(xdgVar[b]); v != "" && filepath.IsAbs(v) {
		return v, nil
	}
	home := getenv("HOME")
	if goos == "windows" || home == "" {
		home = first(getenv("USERPROFILE"), home)
	}
	switch goos {
	case "windows":
		if v := getenv("LOCALAPPDATA"); v != "" && filepath.IsAbs(v) {
			return v, nil
		}
		if home != "" {
			return filepath.Join(home, "AppData", "Local"), nil
		}
	case "darwin", "ios":
		if home != "" && b == CacheBase {
			return filepath.Join(home, "Library", "Caches"), nil
		}
		if home != "" {
			return filepath.Join(home, "Library", "Application Support"), nil
		}
	default:
		if home != "" {
			switch b {
			case ConfigBase:
				return filepath.Join(home, ".config"), nil
			case StateBase:
				return filepath.Join(home, ".local", "state"), nil
			case CacheBase:
				return filepath.Join(home, ".cache"), nil
			}
			return filepath.Join(home, ".local", "share"), nil
		}
	}
	if own && goos == runtime.GOOS && xdg.Home != "" && xdg.Home != "/" {
		if v := [...]string{DataBase: xdg.DataHome, ConfigBase: xdg.ConfigHome, StateBase: xdg.StateHome, CacheBase: xdg.CacheHome}[b]; filepath.IsAbs(v) {
			return v, nil
		}
	}
	return "", errors.New("no home folder: neither " + xdgVar[b] + " nor HOME (USERPROFILE on Windows) is set")
}

// first returns the first of vals that is not empty.
func first(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}

// SessionsDir returns the sessions directory, muse/sessions under the data
// directory BaseDir(DataBase, getenv, goos) finds.
func SessionsDir(getenv func(string) string, goos string) (string, error) {
	base, err := BaseDir(DataBase, getenv, goos)
	if err != nil {
		return "", errors.New("session directory: " + err.Error())
	}
	return filepath.Join(base, "muse", "sessions"), nil
}

// CacheDir returns the folder of muse's derived files, which it rebuilds
// when they are gone: muse under the cache directory, or muse-cache beside
// the data folder muse where the two bases are one (Windows) or only the
// data one is known, so that it is never in the data folder.
func CacheDir(getenv func(string) string, goos string) (string, error) {
	return machineDir(CacheBase, "muse-cache", getenv, goos)
}

// LockDir returns the folder of the session locks of this machine:
// muse/locks under the state directory, or, where that is the data
// directory (macOS, Windows), locks in CacheDir.
func LockDir(getenv func(string) string, goos string) (string, error) {
	dir, err := machineDir(StateBase, "", getenv, goos)
	if err == nil && dir == "" {
		dir, err = CacheDir(getenv, goos)
	}
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "locks"), nil
}

// machineDir returns muse's folder under the base directory b, unless b
// is the data directory, or is not known while that is (only
// $XDG_DATA_HOME set): then muse's folder alt beside it, or "" when alt
// is "".
func machineDir(b Base, alt string, getenv func(string) string, goos string) (string, error) {
	base, err := BaseDir(b, getenv, goos)
	data, derr := BaseDir(DataBase, getenv, goos)
	switch {
	case err != nil && derr != nil:
		return "", err
	case err != nil:
		base = data
	case derr != nil || filepath.Clean(data) != filepath.Clean(base):
		return filepath.Join(base, "muse"), nil
	}
	if alt == "" {
		return "", nil
	}
	return filepath.Join(base, alt), nil
}
