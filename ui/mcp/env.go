package mcp

import (
	"slices"
	"strings"
)

// everyone names the variables every process needs and no credential is:
// those the MCP SDKs pass to each stdio server they start (HOME, LOGNAME,
// PATH, SHELL, TERM, USER, and on Windows APPDATA to USERPROFILE), the
// locale, the time zone, the temporary folder, the display and the
// session's folders. An entry that names one ("PATH": "/opt/bin:${PATH}",
// "DISPLAY": "${DISPLAY}" for a browser) does not take it from the other
// children. Names are compared ignoring case, as Windows does.
var everyone = []string{
	"HOME", "LANG", "LANGUAGE", "LOGNAME", "PATH", "PWD", "SHELL", "TERM", "TMPDIR", "TZ", "USER",
	"DISPLAY", "WAYLAND_DISPLAY", "XDG_RUNTIME_DIR", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME", "XDG_STATE_HOME",
	"APPDATA", "HOMEDRIVE", "HOMEPATH", "LOCALAPPDATA", "PROCESSOR_ARCHITECTURE", "PROGRAMFILES",
	"SYSTEMDRIVE", "SYSTEMROOT", "TEMP", "TMP", "USERNAME", "USERPROFILE",
}

// common reports whether the variable name is one every process gets.
func common(name string) bool {
	return strings.HasPrefix(strings.ToUpper(name), "LC_") ||
		slices.ContainsFunc(everyone, func(e string) bool { return strings.EqualFold(e, name) })
}

// ServerVars returns the variables that the entries of servers name (see
// Server.Vars), sorted, once each, less those every process needs. Each is
// a server's own: no child of muse gets it from muse's environment but the
// server that names it, so a command tool gets none of them, and a stdio
// server none of another's.
func ServerVars(servers []Server) []string {
	var out []string
	for _, s := range servers {
		for _, v := range s.Vars {
			if !common(v) && !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
	}
	slices.Sort(out)
	return out
}

// dropFor returns the variables removed from the environment of the stdio
// server s: Options.Drop (muse's credentials, and those of every profile
// and server), and the variables the other servers name that s does not.
func (m *Manager) dropFor(s Server) []string {
	drop := slices.Clone(m.opts.Drop)
	for _, v := range m.vars {
		if !slices.Contains(s.Vars, v) {
			drop = append(drop, v)
		}
	}
	return drop
}
