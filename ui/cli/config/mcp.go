package config

import (
	"fmt"
	"slices"
	"strings"

	"muse/ui/mcp/mcpcfg"
)

// mcp checks the [profiles.NAME.mcp] table of the profile name, raw: the
// servers by name, decoded into the one server type (mcpcfg.Server) that
// an mcpServers file is read into too, by its keys (mcpcfg.ProfileKeys)
// and name rule. It returns the good ones in the file's order.
func (l *loader) mcp(profile string, raw map[string]*mcpcfg.Server) []mcpcfg.Server {
	at := []string{"profiles", profile, "mcp"}
	var out []mcpcfg.Server
	for _, name := range byPlace(l, at, raw) {
		where := child(at, name)
		header := serverHeader(profile, name)
		if mcpcfg.CheckName(name) != nil {
			l.fail(where, "%s must be named with %s", header, mcpcfg.NameRule)
			continue
		}
		var s mcpcfg.Server
		if raw[name] != nil {
			s = *raw[name]
		}
		s.Name, s.Where = name, fmt.Sprintf("%s:%d", l.path, l.places.At(where...).Line)
		c := setting{l: l, at: where}
		good := true
		fail := func(key, format string, args ...any) {
			c.fail(key, format, args...)
			good = false
		}
		for _, key := range mcpcfg.ProfileKeys {
			if l.places.Refused(c.path(key)...) {
				good = false // reported already
			}
		}
		if c.set("type") && !slices.Contains([]string{mcpcfg.TypeStdio, mcpcfg.TypeHTTP, mcpcfg.TypeSSE}, s.Type) {
			fail("type", `must be "stdio", "http" or "sse", got %s`, quote(s.Type))
		}
		if msg := httpURL(s.URL); c.set("url") && msg != "" {
			fail("url", "%s", strings.Replace(msg, "access_token_env or api_key_env", "token_env or token_cmd", 1))
		}
		if msg := envName(s.TokenEnv); c.set("token_env") && msg != "" {
			fail("token_env", "%s", msg)
		}
		if msg := shellCommand(s.TokenCmd); c.set("token_cmd") && msg != "" {
			fail("token_cmd", "%s", msg)
		}
		for _, h := range sortedKeys(s.Headers) {
			if msg := headerName(h); msg != "" {
				fail("headers", "%s: %s", quote(h), msg)
			} else if strings.EqualFold(h, "Authorization") {
				fail("headers", `must not hold Authorization: credentials are not read from the file: use token_env or token_cmd`)
			}
		}
		switch kind := s.Type; {
		case !good:
		case (kind == "" || kind == mcpcfg.TypeStdio) && s.Command == "" && s.URL == "":
			l.fail(where, `%s needs command = "..." (a stdio server) or url = "https://..." (an HTTP server)`, header)
			good = false
		case s.Command != "" && s.URL != "":
			l.fail(where, "%s takes command (a stdio server) or url (an HTTP server), not both", header)
			good = false
		case (kind == mcpcfg.TypeHTTP || kind == mcpcfg.TypeSSE) && s.URL == "":
			l.fail(where, `%s is an %s server: it needs url = "https://..."`, header, kind)
			good = false
		}
		if good {
			out = append(out, s)
		}
	}
	return out
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
