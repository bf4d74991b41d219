package cli

import (
	"fmt"
	"maps"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"muse/api"
	"muse/api/demo"
	"muse/session/dirs"
	"muse/ui/attach"
	cfgfile "muse/ui/cli/config"
	"muse/ui/engine"
	"muse/ui/mcp"
	"muse/ui/sanitize"
)

// mcpServers reads the MCP servers of a run, and starts nothing: the
// profile's, then those of --mcp-config (a name in both is an error); none
// with --no-mcp. It adds the variables their entries name to
// c.serverVars, so that they are known before any child starts: a
// credential command gets none of them (see childDrop).
func mcpServers(f *flags, prof *cfgfile.Profile, c *config, env Env) ([]mcp.Server, error) {
	if f.noMCP {
		return nil, nil
	}
	var servers []mcp.Server
	for _, s := range prof.MCP {
		srv := withVars(s)
		if err := srv.Check(); err != nil {
			return nil, usagef("%s: MCP server %s: %v", srv.Where, s.Name, err)
		}
		servers = append(servers, srv)
	}
	if f.mcpConfig != "" {
		file, err := mcp.LoadFile(f.mcpConfig, mcpLookup(f, prof, c, env))
		if err != nil {
			return nil, usagef("%v", err)
		}
		for _, s := range file {
			if i := slices.IndexFunc(servers, func(o mcp.Server) bool { return o.Name == s.Name }); i >= 0 {
				return nil, usagef("%s: MCP server %s is also in the profile (%s): rename one", s.Where, s.Name, servers[i].Where)
			}
			servers = append(servers, s)
		}
	}
	c.addServerVars(servers)
	return servers, nil
}

// mcpManager makes the manager of servers (see mcpServers), and the demo's
// with --demo: it resolves the profile's servers' tokens, then --mcp NAME
// keeps only the servers named. It returns nil when there are none; no
// server starts yet (see Manager.StartAll).
//
// Every child gets only its own secrets: a stdio server gets none of
// muse's credentials (c.secretEnv, and any variable that holds the value
// of one, c.token, c.apiKey, c.imageToken, a server's token), nor the
// variables another server's entry names (c.serverVars, of every
// profile); a tool command gets none of them at all (c.toolDrop,
// c.secrets).
func mcpManager(f *flags, prof *cfgfile.Profile, c *config, env Env, servers []mcp.Server) (*mcp.Manager, error) {
	secrets := []string{c.token, c.apiKey, c.imageToken}
	c.secrets = secrets
	if f.noMCP {
		return nil, nil
	}
	servers = slices.Clone(servers)
	for i, s := range servers {
		if s.TokenEnv == "" && s.TokenCmd == "" {
			continue
		}
		tok, err := cfgfile.ResolveSecret(s.TokenEnv, s.TokenCmd, prof.CredentialTimeout, env.Getenv, credentialCommand(c.childDrop(), secrets))
		if err != nil {
			return nil, usagef("%s: MCP server %s: token: %v", s.Where, s.Name, err)
		}
		s.Headers = maps.Clone(s.Headers)
		if s.Headers == nil {
			s.Headers = map[string]string{}
		}
		s.Headers["Authorization"] = "Bearer " + tok
		secrets = append(secrets, tok)
		servers[i] = s
	}
	for _, s := range servers {
		if err := plainHTTPCredential(s, c.insecureHTTP); err != nil {
			return nil, err
		}
	}
	c.secrets = secrets
	if f.demo && !slices.ContainsFunc(servers, func(s mcp.Server) bool { return s.Name == demo.MCPServerName }) {
		servers = append(servers, mcp.Server{Name: demo.MCPServerName, Where: "--demo", Type: "in-process", Connect: demo.MCPConnect(time.Now)})
	}
	var off []string
	if len(f.mcpOnly) > 0 {
		names := make([]string, len(servers))
		for i, s := range servers {
			names[i] = s.Name
		}
		for _, n := range f.mcpOnly {
			if !slices.Contains(names, n) {
				if len(names) == 0 {
					return nil, usagef("--mcp %s: no MCP server is configured: add --mcp-config FILE or [profiles.NAME.mcp.%s]", n, n)
				}
				return nil, usagef("--mcp %s: no such MCP server; the servers are %s", n, strings.Join(names, ", "))
			}
		}
		for _, n := range names {
			if !slices.Contains(f.mcpOnly, n) {
				off = append(off, n)
			}
		}
	}
	if len(servers) == 0 {
		return nil, nil
	}
	opts := mcp.Options{CallTimeout: c.toolTimeout, Drop: c.secretEnv, Named: c.serverVars, Secrets: secrets, Version: api.Version, Elicit: true}
	if f.printSet {
		var mu sync.Mutex
		opts.Declined = func(note string) {
			mu.Lock()
			defer mu.Unlock()
			fmt.Fprintf(env.Stderr, "muse: %s\n", note)
		}
	}
	if mcpRoots(f, prof) {
		dir, err := os.Getwd()
		if err != nil {
			return nil, fmt.Errorf("--mcp-roots: the working directory: %w", err)
		}
		opts.Roots = []string{dir}
	}
	return mcp.New(servers, opts, off...), nil
}

// mcpRoots reports whether the working directory is offered to the MCP
// servers as a root: --mcp-roots says, else the profile's mcp_roots; off
// by default (--mcp-roots=false turns off a profile's).
func mcpRoots(f *flags, prof *cfgfile.Profile) bool {
	if f.set != nil && f.set("mcp-roots") {
		return f.mcpRoots
	}
	return prof.MCPRoots != nil && *prof.MCPRoots
}

// mcpLookup is how the --mcp-config file reads ${VAR}. muse's own
// credentials (c.secretEnv) are refused whatever the file. A file outside
// the user's configuration folder (a project's .mcp.json, a file shared
// with others) reads none without the user's word: --mcp-expand-env, or
// mcp_expand_env = true in the profile.
func mcpLookup(f *flags, prof *cfgfile.Profile, c *config, env Env) mcp.Lookup {
	consent := f.mcpExpandEnv || prof.MCPExpandEnv != nil && *prof.MCPExpandEnv
	var where string
	if !consent {
		consent, where = inConfigFolder(f.mcpConfig, env)
	}
	return func(k string) (string, error) {
		switch {
		case slices.Contains(c.secretEnv, k):
			return "", fmt.Errorf("${%s} is muse's own credential, which no MCP server gets: give the server a variable of its own", k)
		case !consent:
			return "", fmt.Errorf("${%s} is not read: the file is not in your configuration folder (%s), so it may read your environment only if you allow it: pass --mcp-expand-env, or set mcp_expand_env = true in the profile", k, where)
		}
		return env.Getenv(k), nil
	}
}

// inConfigFolder reports whether the file at path is in the user's
// configuration folder (~/.config on Linux, where muse's and Claude
// Desktop's files live), links resolved; where names that folder.
func inConfigFolder(path string, env Env) (ok bool, where string) {
	base, err := env.baseDir(dirs.ConfigBase)
	if err != nil {
		return false, "none found"
	}
	real := func(p string) string {
		if abs, err := filepath.Abs(p); err == nil {
			p = abs
		}
		if r, err := filepath.EvalSymlinks(p); err == nil {
			p = r
		}
		return p
	}
	rel, err := filepath.Rel(real(base), real(path))
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)), base
}

// plainHTTPCredential refuses an HTTP MCP server whose headers (a token,
// its own Authorization…) would go over plain http:// to another host,
// where anyone on the way can read them, as the service's credential is
// refused; allow says the user allowed it on purpose.
func plainHTTPCredential(s mcp.Server, allow bool) error {
	if len(s.Headers) == 0 || allow || s.URL == "" {
		return nil
	}
	u, err := url.Parse(s.URL)
	if err != nil || u.Scheme != "http" || api.IsLoopback(u.Hostname()) {
		return nil
	}
	return usagef("%s: MCP server %s: muse will not send its headers (its token) over plain http:// to %s, where anyone on the way can read them: use https://, or allow it on purpose with MUSE_ALLOW_INSECURE_HTTP=1 or allow_insecure_http = true in the profile",
		s.Where, sanitize.Line(s.Name), sanitize.Line(u.Host))
}

// engineConfig is the engine's configuration of the chat screen and -p:
// the tools and their runner, and the MCP servers' tools.
func (c *config) engineConfig(client *api.Client) engine.Config {
	ec := engine.Config{Client: client, Tools: c.tools, MaxRounds: c.maxRounds, RunTool: engine.Commands(c.toolTimeout, c.toolDrop(), c.secrets...), FitImage: attach.Fit}
	if c.mcp != nil {
		ec.MoreTools, ec.Instructions = c.mcp.Tools, c.mcp.Instructions
	}
	return ec
}
