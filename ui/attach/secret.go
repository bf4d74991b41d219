package attach

import (
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"

	"muse/session/dirs"
)

// Secret files: some files give access to everything else (a private key,
// a cloud credential, a .env file of tokens, muse's own configuration and
// sessions). A file named in text, by an @mention or a pasted path, is
// never attached when it is one of them, whoever wrote the text; only
// --attach and /attach, the user's own commands, attach it, and they say
// what it is.

// homeSecrets are the folders and files under the home folder that hold
// keys and credentials: of ssh, gpg, the clouds (AWS, gcloud, Kubernetes),
// git hosts (gh, .netrc, .git-credentials), registries (Docker, npm, PyPI),
// other AI assistants (Claude Code, Codex), pass and the desktop's
// keyrings.
var homeSecrets = []string{
	".ssh", ".gnupg", ".aws", filepath.Join(".config", "gcloud"), ".kube",
	filepath.Join(".config", "gh"), filepath.Join(".config", "git", "credentials"),
	".netrc", ".git-credentials", ".docker", ".npmrc", ".pypirc",
	".claude", ".claude.json", ".codex", ".password-store",
	filepath.Join(".local", "share", "keyrings"),
}

// Secrets of the same kind that follow $XDG_CONFIG_HOME and
// $XDG_DATA_HOME when those are set.
var (
	configSecrets = []string{"gcloud", "gh", filepath.Join("git", "credentials")}
	dataSecrets   = []string{"keyrings"}
)

// Secret reports why the file at path (absolute, or relative to the
// working folder; ~ already expanded) must not be attached from a mention:
// what it is, as a phrase ("in ~/.ssh", "a .env file"), or "" when it is
// none of those. The path is looked at as written and, when it exists,
// with its links followed (every folder on the way as well as the file,
// a ".." after a link as the system takes it), so a link elsewhere to
// ~/.ssh/id_rsa is one too.
//
// Secret looks the path up for itself: it says what a path shown is (a
// pasted path's warning). Whether a file may be sent is decided by Check,
// on the file it opens.
func Secret(path string) string {
	abs, real := resolve(path)
	fi, err := os.Stat(abs)
	if err != nil {
		fi = nil
	}
	return secretOf(abs, real, fi)
}

// secretOf is Secret for the file of fi (nil when there is none) at abs,
// the path as written, made absolute, whose real path is real ("" when
// unknown).
func secretOf(abs, real string, fi fs.FileInfo) string {
	if abs == "" {
		return ""
	}
	paths := []string{abs}
	if real != "" && real != abs {
		paths = append(paths, real)
	}
	for _, p := range paths {
		if why := secretPath(p); why != "" {
			return why
		}
	}
	// A hard link has no path to tell where its file also lives (a key
	// linked into the project as notes.txt): a file with other names is
	// not taken from a mention either.
	if fi != nil && fi.Mode().IsRegular() && hardLinks(fi) > 1 {
		return "a file with other names (hard links), which may be a key kept elsewhere"
	}
	return ""
}

// resolve returns path made absolute and clean, as written, and its real
// path: every link on the way followed, as the system follows them when
// it opens path ("link/.." is the folder above the link's target, not the
// working folder); real is "" when path names nothing.
func resolve(path string) (abs, real string) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", ""
	}
	raw := path
	if !filepath.IsAbs(raw) {
		wd, err := os.Getwd()
		if err != nil {
			return abs, ""
		}
		raw = wd + string(filepath.Separator) + raw // not Join, which would clean "link/.."
	}
	if real, err = filepath.EvalSymlinks(raw); err != nil {
		return abs, ""
	}
	return abs, real
}

// secretPath is Secret for one absolute, clean path, links as they are.
func secretPath(p string) string {
	// In any case: .ENV is the same file as .env on macOS and Windows.
	base := strings.ToLower(filepath.Base(p))
	if base == ".env" || strings.HasPrefix(base, ".env.") {
		return "a .env file, which holds secrets"
	}
	if home, err := os.UserHomeDir(); err == nil && home != "" {
		for _, h := range withReal(home) {
			for _, s := range homeSecrets {
				if withinAnyCase(p, filepath.Join(h, s)) {
					return "in ~/" + filepath.ToSlash(s) + ", where keys and credentials are kept"
				}
			}
		}
	}
	for _, b := range []dirs.Base{dirs.ConfigBase, dirs.DataBase, dirs.StateBase} {
		base, err := dirs.BaseDir(b, nil, "")
		if err != nil {
			continue
		}
		for _, d := range withReal(base) {
			if b == dirs.DataBase && generatedImage(p, filepath.Join(d, "muse", "images")) {
				continue // no secret: an image the service generated, which the @ menu offers
			}
			if within(p, filepath.Join(d, "muse")) {
				return "in muse's own folders, which hold its configuration and sessions"
			}
			var kept []string
			switch b {
			case dirs.ConfigBase:
				kept = configSecrets
			case dirs.DataBase:
				kept = dataSecrets
			}
			for _, s := range kept {
				if withinAnyCase(p, filepath.Join(d, s)) {
					return "in " + filepath.ToSlash(filepath.Join(shortBase(b), s)) + ", where credentials are kept"
				}
			}
		}
	}
	return ""
}

// shortBase names the base folder b as people know it.
func shortBase(b dirs.Base) string {
	if b == dirs.DataBase {
		return "$XDG_DATA_HOME"
	}
	return "$XDG_CONFIG_HOME"
}

// generatedImage reports whether p is an image muse saved from the image
// service under images, the folder of every session's images:
// images/SESSION/turn-T-image-I-TAG.EXT (see session.Store.SaveImage),
// a PNG, JPEG or WebP, and nothing else there.
func generatedImage(p, images string) bool {
	rel, err := filepath.Rel(images, p)
	if err != nil || !within(p, images) {
		return false
	}
	parts := strings.Split(filepath.ToSlash(rel), "/")
	if len(parts) != 2 || parts[0] == "" || strings.HasPrefix(parts[0], ".") {
		return false
	}
	name := parts[1]
	switch strings.ToLower(filepath.Ext(name)) {
	case ".png", ".jpg", ".jpeg", ".webp":
	default:
		return false
	}
	rest, ok := strings.CutPrefix(name, "turn-")
	return ok && strings.Contains(rest, "-image-")
}

// withReal returns dir, and the folder it is once its links are followed
// when that differs.
func withReal(dir string) []string {
	dir = filepath.Clean(dir)
	if real, err := filepath.EvalSymlinks(dir); err == nil && real != dir {
		return []string{dir, real}
	}
	return []string{dir}
}

// within reports whether p is dir or inside it. Where the file system
// ignores case (macOS, Windows), so does the comparison.
func within(p, dir string) bool {
	if runtime.GOOS == "darwin" || runtime.GOOS == "windows" {
		p, dir = strings.ToLower(p), strings.ToLower(dir)
	}
	return p == dir || strings.HasPrefix(p, dir+string(filepath.Separator))
}

// withinAnyCase is within in any case, on every system: a folder of keys
// on a file system that ignores case (a Linux home on one too) is one in
// any case, and a false alarm costs only an /attach.
func withinAnyCase(p, dir string) bool {
	return within(strings.ToLower(p), strings.ToLower(dir))
}
