// Package mcpcfg is an MCP server as configured: the one type, the one
// list of keys and the one name rule that an mcpServers JSON file (read
// by ui/mcp) and a profile's [profiles.NAME.mcp.SERVER] table (read by
// ui/cli/config) share. It is a leaf, so that the configuration reader
// needs none of the MCP client to name what it read.
package mcpcfg

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"regexp"
	"strings"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// Transports a server may use.
const (
	TypeStdio = "stdio"
	TypeHTTP  = "http"
	TypeSSE   = "sse"
)

// Server is one MCP server as configured. Its toml tags are the keys of
// a profile's [profiles.NAME.mcp.SERVER] table (ProfileKeys), which
// ui/cli/config decodes into it; its expect tags say what a value of the
// wrong kind should have been.
type Server struct {
	// Name is the server's name in the configuration, which prefixes its
	// tools' names (see CheckName).
	Name string `toml:"-"`
	// Where says where it was configured, such as "mcp.json:4", for
	// messages.
	Where string `toml:"-"`
	// Type is TypeStdio, TypeHTTP or TypeSSE.
	Type string `toml:"type"`
	// Command, Args, Env and Cwd start a stdio server.
	Command string            `toml:"command"`
	Args    []string          `toml:"args" expect:"a list of strings such as [\"-y\", \"@modelcontextprotocol/server-filesystem\", \".\"]"`
	Env     map[string]string `toml:"env" expect:"a table such as { DEBUG = \"1\" }"`
	Cwd     string            `toml:"cwd"`
	// URL and Headers reach an HTTP or SSE server. Headers may hold
	// credentials: they are never shown.
	URL     string            `toml:"url"`
	Headers map[string]string `toml:"headers" expect:"a table such as { \"X-Team\" = \"blue\" }"`
	// Allow lists the server's tools (by their own names) that run without
	// asking.
	Allow []string `toml:"allow" expect:"a list of strings such as [\"read_file\", \"list_directory\"]"`
	// TokenEnv names a variable, TokenCmd a shell command, that gives the
	// token sent as "Authorization: Bearer …" to an HTTP server: a
	// profile's keys (ProfileKeys), resolved into Headers before the
	// server starts.
	TokenEnv string `toml:"token_env"`
	TokenCmd string `toml:"token_cmd"`
	// Vars names the variables of muse's environment that the server's
	// entry names: the keys of its env, the ${VAR} it expands, its
	// token_env. Of the servers, it alone gets them.
	Vars []string `toml:"-"`
	// Connect, when set, connects to a server in muse's own process (the
	// demo's) instead.
	Connect func(ctx context.Context) (sdk.Transport, error) `toml:"-"`
}

// Keys are the keys of a server, in an mcpServers file and in a profile
// alike; a profile also takes the credential keys of ProfileKeys (a file
// has headers for that, as Claude Desktop's does).
var Keys = []string{"type", "command", "args", "env", "cwd", "url", "headers", "allow"}

// ProfileKeys are the keys of a profile's [profiles.NAME.mcp.SERVER] table.
var ProfileKeys = append(Keys[:len(Keys):len(Keys)], "token_env", "token_cmd")

var nameRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,32}$`)

// NameRule says what a server's name must be, for messages.
const NameRule = "1 to 32 letters, digits, _ or -: its tools are offered as NAME__TOOL"

// CheckName checks a server's name against the one rule (NameRule): its
// tools' names start with it, and must keep the API's rule.
func CheckName(name string) error {
	if !nameRE.MatchString(name) {
		return fmt.Errorf("the server name %q must be %s", name, NameRule)
	}
	return nil
}

// Check returns what is wrong with s, or nil: a stdio server needs a
// command and no URL, an HTTP or SSE one an http(s) URL and no command. A
// missing Type is found from them; "streamable-http" is TypeHTTP.
func (s *Server) Check() error {
	if s.Connect != nil {
		return nil
	}
	if s.Type == "" {
		s.Type = TypeStdio
		if s.URL != "" && s.Command == "" {
			s.Type = TypeHTTP
		}
	}
	switch s.Type {
	case TypeStdio:
		if strings.TrimSpace(s.Command) == "" {
			return errors.New(`a stdio server needs a "command", such as "npx"`)
		}
		if s.URL != "" {
			return errors.New(`a stdio server takes "command", not "url": set "type": "http" for an HTTP server`)
		}
	case TypeHTTP, TypeSSE, "streamable-http":
		if s.Type == "streamable-http" {
			s.Type = TypeHTTP
		}
		u, err := url.Parse(s.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return fmt.Errorf(`an %s server needs a "url" such as "https://mcp.example.com/mcp", got %q`, s.Type, redactURL(s.URL))
		}
		if u.User != nil {
			return errors.New(`"url" must not hold a user name or password: put credentials in "headers"`)
		}
		if s.Command != "" {
			return fmt.Errorf(`an %s server takes "url", not "command"`, s.Type)
		}
	default:
		return fmt.Errorf(`"type" must be "stdio", "http" or "sse", got %q`, s.Type)
	}
	for k := range s.Headers {
		if !headerNameRE.MatchString(k) {
			return fmt.Errorf("header name %q is not a valid HTTP header name", k)
		}
	}
	return nil
}

var headerNameRE = regexp.MustCompile("^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")

// redactURL returns u without its query, which may hold a key.
func redactURL(u string) string {
	if i := strings.IndexAny(u, "?#"); i >= 0 {
		return u[:i] + "?…"
	}
	return u
}
