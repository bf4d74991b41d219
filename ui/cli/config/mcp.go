package config

import (
	"fmt"
	"slices"
	"strings"

	"muse/ui/mcp/mcpcfg"
)

// mcp reads the [profiles.NAME.mcp] table: a table of servers by name,
// each into the one server type (mcpcfg.Server) that an mcpServers file
// is read into too, by its keys (mcpcfg.ProfileKeys) and name rule.
func (v value) mcp() []mcpcfg.Server {
	t, ok := v.table(`[profiles.NAME.mcp.files] with command = "npx"`)
	if !ok {
		return nil
	}
	var out []mcpcfg.Server
	for _, k := range t.keys {
		sv := v.child(t, k.name)
		sv.name = "[profiles." + tableKey(v.l.profile) + ".mcp." + tableKey(k.name) + "]"
		if mcpcfg.CheckName(k.name) != nil {
			sv.fail("must be named with %s", mcpcfg.NameRule)
			continue
		}
		st, ok := sv.table(`[profiles.NAME.mcp.files] with command = "npx"`)
		if !ok {
			continue
		}
		s := mcpcfg.Server{Name: k.name, Where: fmt.Sprintf("%s:%d", v.l.path, sv.line)}
		good := true
		for _, f := range st.keys {
			fv := sv.child(st, f.name)
			fv.name = f.name
			set := true
			switch f.name {
			case "type":
				s.Type, set = fv.str()
				if set && !slices.Contains([]string{"stdio", "http", "sse"}, s.Type) {
					fv.fail(`must be "stdio", "http" or "sse", got %s`, quote(s.Type))
					set = false
				}
			case "command":
				s.Command, set = fv.str()
			case "cwd":
				s.Cwd, set = fv.str()
			case "url":
				if s.URL, set = fv.str(); set {
					if msg := httpURL(s.URL); msg != "" {
						fv.fail("%s", strings.Replace(msg, "access_token_env or api_key_env", "token_env or token_cmd", 1))
						set = false
					}
				}
			case "token_env":
				if s.TokenEnv, set = fv.str(); set {
					if msg := envName(s.TokenEnv); msg != "" {
						fv.fail("%s", msg)
						set = false
					}
				}
			case "token_cmd":
				if s.TokenCmd, set = fv.str(); set {
					if msg := shellCommand(s.TokenCmd); msg != "" {
						fv.fail("%s", msg)
						set = false
					}
				}
			case "args":
				s.Args, set = fv.strs(`["-y", "@modelcontextprotocol/server-filesystem", "."]`)
			case "allow":
				s.Allow, set = fv.strs(`["read_file", "list_directory"]`)
			case "env":
				s.Env, set = fv.strTable(`{ DEBUG = "1" }`)
			case "headers":
				if s.Headers, set = fv.strTable(`{ "X-Team" = "blue" }`); set {
					for h := range s.Headers {
						if msg := headerName(h); msg != "" {
							fv.fail("%s: %s", quote(h), msg)
							set = false
						} else if strings.EqualFold(h, "Authorization") {
							fv.fail(`must not hold Authorization: credentials are not read from the file: use token_env or token_cmd`)
							set = false
						}
					}
				}
			default:
				if credential(f.name) != "" {
					fv.fail("is not read: credentials are not read from the file: use token_env or token_cmd")
				} else {
					fv.l.errorf(fv.line, "unknown key %s in %s%s: a server takes %s", quote(f.name), sv.name, suggest(f.name, mcpcfg.ProfileKeys), strings.Join(mcpcfg.ProfileKeys, ", "))
				}
				set = false
			}
			good = good && set
		}
		switch kind := s.Type; {
		case !good:
		case (kind == "" || kind == "stdio") && s.Command == "" && s.URL == "":
			sv.fail(`needs command = "..." (a stdio server) or url = "https://..." (an HTTP server)`)
			good = false
		case s.Command != "" && s.URL != "":
			sv.fail("takes command (a stdio server) or url (an HTTP server), not both")
			good = false
		case (kind == "http" || kind == "sse") && s.URL == "":
			sv.fail(`is an %s server: it needs url = "https://..."`, kind)
			good = false
		}
		if good {
			out = append(out, s)
		}
	}
	return out
}

// strTable returns the value as a table of strings.
func (v value) strTable(example string) (map[string]string, bool) {
	t, ok := v.table(example)
	if !ok {
		return nil, false
	}
	out := make(map[string]string, len(t.keys))
	for _, k := range t.keys {
		s, ok := k.val.(string)
		if !ok {
			v.l.errorf(int(k.line), "%s.%s must be a string, got %s", v.name, k.name, describe(k.val))
			return nil, false
		}
		out[k.name] = s
	}
	return out, true
}

// MCPTokenEnv returns the variables that the MCP servers of any profile of
// the file name in token_env, sorted, once each: credentials, which no
// child of muse gets, whichever profile is in use.
func (f *File) MCPTokenEnv() []string {
	if f == nil {
		return nil
	}
	var names []string
	for _, p := range f.Profiles {
		for _, s := range p.MCP {
			if s.TokenEnv != "" && !slices.Contains(names, s.TokenEnv) {
				names = append(names, s.TokenEnv)
			}
		}
	}
	slices.Sort(names)
	return names
}
