package cli

import (
	"slices"

	cfgfile "muse/ui/cli/config"
	"muse/ui/mcp"
)

// fileNames are the variables of muse's environment that a configuration
// file names, in any of its profiles, not only the one in use: all of
// them are known before any child starts, so that each child gets only
// its own.
type fileNames struct {
	// cred names credentials (access_token_env, api_key_env,
	// image_access_token_env, an MCP server's token_env): no child gets
	// them.
	cred []string
	// server names what the MCP servers' entries name (an env key, a
	// token_env), less what every process needs (see mcp.ServerVars): a
	// stdio server gets those of its own entry only, no other child any.
	server []string
}

// namesOf returns the variables that file names (see fileNames); file
// may be nil.
func namesOf(file *cfgfile.File) fileNames {
	if file == nil {
		return fileNames{}
	}
	var servers []mcp.Server
	for _, name := range file.Names() {
		for _, s := range file.Profiles[name].MCP {
			servers = append(servers, withVars(s))
		}
	}
	return fileNames{cred: append(file.CredentialEnv(), file.MCPTokenEnv()...), server: mcp.ServerVars(servers)}
}

// childDrop names the variables a child of a command outside the chat
// runs without: the credentials and what the servers name, but for the
// variables muse reads itself (see config.childDrop).
func (n fileNames) childDrop() []string {
	return append(secretEnv(n.cred), serverOnly(n.server)...)
}

// withVars returns the profile's server s with the variables its entry
// names in Vars: its env keys and its token_env.
func withVars(s mcp.Server) mcp.Server {
	s.Vars = slices.Clip(s.Vars)
	for k := range s.Env {
		s.Vars = append(s.Vars, k)
	}
	if s.TokenEnv != "" {
		s.Vars = append(s.Vars, s.TokenEnv)
	}
	slices.Sort(s.Vars)
	return s
}

// childDrop names the variables a credential command and git run
// without: muse's credentials (secretEnv) and what any MCP server's entry
// names (serverVars), but for the variables muse reads itself (the proxy,
// the ssh agent: see serverOnly), which it keeps for the editor too. A
// command tool gets none of serverVars (toolDrop).
func (c *config) childDrop() []string {
	return append(slices.Clip(c.secretEnv), serverOnly(c.serverVars)...)
}

// toolDrop names the variables a command tool runs without: muse's
// credentials and every variable an MCP server's entry names.
func (c *config) toolDrop() []string {
	return append(slices.Clip(c.secretEnv), c.serverVars...)
}

// addServerVars adds the variables that servers name to c.serverVars, once
// each.
func (c *config) addServerVars(servers []mcp.Server) {
	for _, v := range mcp.ServerVars(servers) {
		if !slices.Contains(c.serverVars, v) {
			c.serverVars = append(c.serverVars, v)
		}
	}
	slices.Sort(c.serverVars)
}
