package cli

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"muse/api"
	"muse/api/demo"
	cfgfile "muse/ui/cli/config"
	"muse/ui/engine"
	"muse/ui/mcp"
)

// mcpManager resolves the MCP servers of a run: the profile's, then those
// of --mcp-config (a name in both is an error), and the demo's with
// --demo. --mcp NAME keeps only the servers named, --no-mcp none. It
// returns nil when there are none; no server starts yet (see Manager.StartAll).
func mcpManager(f *flags, prof *cfgfile.Profile, c *config, getenv func(string) string) (*mcp.Manager, error) {
	if f.noMCP {
		return nil, nil
	}
	var servers []mcp.Server
	drop := slices.Clone(c.secretEnv)
	for _, s := range prof.MCP {
		srv := mcp.Server{Name: s.Name, Where: fmt.Sprintf("%s:%d", s.Path, s.Line), Type: s.Type,
			Command: s.Command, Args: s.Args, Env: s.Env, Cwd: s.Cwd, URL: s.URL, Headers: s.Headers, Allow: s.Allow}
		if s.TokenEnv != "" || s.TokenCmd != "" {
			tok, err := cfgfile.ResolveSecret(s.TokenEnv, s.TokenCmd, prof.CredentialTimeout, getenv, cfgfile.RunCommand)
			if err != nil {
				return nil, usagef("%s: MCP server %s: token: %v", srv.Where, s.Name, err)
			}
			if srv.Headers == nil {
				srv.Headers = map[string]string{}
			}
			srv.Headers["Authorization"] = "Bearer " + tok
			if s.TokenEnv != "" {
				drop = append(drop, s.TokenEnv)
			}
		}
		if err := srv.Check(); err != nil {
			return nil, usagef("%s: MCP server %s: %v", srv.Where, s.Name, err)
		}
		servers = append(servers, srv)
	}
	if f.mcpConfig != "" {
		// A shared mcpServers file (one from a project's repository) must
		// not hand muse's own credential to a server: ${MUSE_API_KEY} is
		// refused, not expanded.
		guarded := func(k string) string {
			if slices.Contains(c.secretEnv, k) {
				return ""
			}
			return getenv(k)
		}
		file, err := mcp.LoadFile(f.mcpConfig, guarded)
		if err != nil {
			for _, k := range c.secretEnv {
				if strings.Contains(err.Error(), k) {
					return nil, usagef("%s: ${%s} is muse's own credential, which no MCP server gets: give the server a variable of its own", f.mcpConfig, k)
				}
			}
			return nil, usagef("%v", err)
		}
		for _, s := range file {
			if i := slices.IndexFunc(servers, func(o mcp.Server) bool { return o.Name == s.Name }); i >= 0 {
				return nil, usagef("%s: MCP server %s is also in the profile (%s): rename one", s.Where, s.Name, servers[i].Where)
			}
			servers = append(servers, s)
		}
	}
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
	return mcp.New(servers, mcp.Options{CallTimeout: c.toolTimeout, Drop: drop, Version: api.Version}, off...), nil
}

// engineConfig is the engine's configuration of the chat screen and -p:
// the tools and their runner, and the MCP servers' tools.
func (c *config) engineConfig(client *api.Client) engine.Config {
	ec := engine.Config{Client: client, Tools: c.tools, MaxRounds: c.maxRounds, RunTool: engine.Commands(c.toolTimeout, c.secretEnv)}
	if c.mcp != nil {
		ec.MoreTools = c.mcp.Tools
	}
	return ec
}
