package cli

import (
	"runtime/debug"
	"strings"

	"muse/api"
)

// versionLine is what muse --version prints: "muse", the module's version
// from the build information (go install muse@v1.2.0 gives v1.2.0; a build
// from a checkout gives "(devel)", then falls back to api.Version), and,
// for a build from a checkout, the commit, its date, and "dirty" when the
// checkout had changes; last, the Go version it was built with.
func versionLine() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "muse " + api.Version
	}
	return versionFrom(info)
}

// versionFrom formats the version of the build info.
func versionFrom(info *debug.BuildInfo) string {
	v := info.Main.Version
	if v == "" || v == "(devel)" {
		v = api.Version + " (devel)"
	}
	var rev, when string
	dirty := false
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.time":
			when = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	var b strings.Builder
	b.WriteString("muse ")
	b.WriteString(v)
	if rev != "" {
		b.WriteString(" commit ")
		b.WriteString(rev[:min(12, len(rev))])
		if dirty {
			b.WriteString("-dirty")
		}
		if when != "" {
			b.WriteString(" (" + when + ")")
		}
	}
	if info.GoVersion != "" {
		b.WriteString(", built with " + info.GoVersion)
	}
	return b.String()
}
