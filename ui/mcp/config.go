package mcp

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"unicode/utf8"

	"muse/api/regfile"
	"muse/ui/mcp/mcpcfg"
	"muse/ui/tomlfile"
)

// Transports a server may use.
const (
	TypeStdio = mcpcfg.TypeStdio
	TypeHTTP  = mcpcfg.TypeHTTP
	TypeSSE   = mcpcfg.TypeSSE
)

// Server is one MCP server as configured: mcpcfg's type, which a
// profile's tables are read into too.
type Server = mcpcfg.Server

// maxConfigSize is the largest mcpServers file read.
const maxConfigSize = 1 << 20

// Lookup returns the value of the variable name for a ${name} of an
// mcpServers file ("" when it is not set), or why it may not be read.
type Lookup func(name string) (string, error)

// LoadFile reads an mcpServers file, as Claude Desktop, Claude Code and
// Cursor write it: {"mcpServers": {"NAME": {"command", "args", "env",
// "cwd"} or {"type": "http", "url", "headers"}}}. Other top-level keys
// are ignored; ${VAR} and ${VAR:-default} in command, args, env, cwd, url
// and headers are replaced by the variable that lookup gives (nil means
// os.Getenv), and a refusal of lookup's stops the file. Problems name the
// file and line.
func LoadFile(path string, lookup Lookup) ([]Server, error) {
	// The one bounded reader of files named by path: a named pipe or a
	// device is refused at once instead of waited on.
	data, err := regfile.Read(path, maxConfigSize)
	if err != nil {
		return nil, fmt.Errorf("--mcp-config %s: %w", path, err)
	}
	return ParseFile(path, data, lookup)
}

// ParseFile reads the text of an mcpServers file named path (see LoadFile).
func ParseFile(path string, data []byte, lookup Lookup) ([]Server, error) {
	if lookup == nil {
		lookup = func(k string) (string, error) { return os.Getenv(k), nil }
	}
	at := func(off int64) string {
		line := bytes.Count(data[:min(max(off, 0), int64(len(data)))], []byte{'\n'}) + 1
		return fmt.Sprintf("%s:%d", path, line)
	}
	// atCol is at with the column, in runes: the place of a key.
	atCol := func(off int64) string {
		before := data[:min(max(off, 0), int64(len(data)))]
		return fmt.Sprintf("%s:%d", at(off), utf8.RuneCount(before[bytes.LastIndexByte(before, '\n')+1:])+1)
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(data, &top); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return nil, fmt.Errorf("%s: invalid JSON: %v", at(se.Offset-1), se)
		}
		return nil, fmt.Errorf("%s: %v: the file must be a JSON object such as {\"mcpServers\": {\"fs\": {\"command\": \"npx\"}}}", path, err)
	}
	raw, ok := top["mcpServers"]
	if !ok {
		return nil, fmt.Errorf("%s: no \"mcpServers\" object: the file must look like {\"mcpServers\": {\"fs\": {\"command\": \"npx\", \"args\": [\"-y\", \"@modelcontextprotocol/server-filesystem\", \".\"]}}}", path)
	}
	offsets := keyOffsets(data)
	var servers map[string]json.RawMessage
	if err := json.Unmarshal(raw, &servers); err != nil {
		return nil, fmt.Errorf("%s: \"mcpServers\" must be an object of servers by name", at(offsets["mcpServers"]))
	}
	names := make([]string, 0, len(servers))
	for n := range servers {
		names = append(names, n)
	}
	// In the file's order, so that tool names and messages are stable.
	sort.Slice(names, func(i, j int) bool { return offsets["mcpServers/"+names[i]] < offsets["mcpServers/"+names[j]] })
	var out []Server
	var problems []error
	for _, n := range names {
		where := at(offsets["mcpServers/"+n])
		s, err := parseServer(n, servers[n], lookup)
		var uk unknownKeyError
		if errors.As(err, &uk) {
			// At the key itself, the first of them in the file.
			first := uk.keys[0]
			for _, k := range uk.keys[1:] {
				if offsets["mcpServers/"+n+"/"+k] < offsets["mcpServers/"+n+"/"+first] {
					first = k
				}
			}
			uk.keys = []string{first}
			problems = append(problems, fmt.Errorf("%s: server %q: %w", atCol(offsets["mcpServers/"+n+"/"+first]), n, uk))
			continue
		}
		if err != nil {
			problems = append(problems, fmt.Errorf("%s: server %q: %w", where, n, err))
			continue
		}
		s.Where = where
		out = append(out, s)
	}
	if err := errors.Join(problems...); err != nil {
		return nil, err
	}
	return out, nil
}

// unknownKeyError is a server's keys that no server takes; its message
// names the first, with the nearest key a server takes.
type unknownKeyError struct{ keys []string }

func (e unknownKeyError) Error() string {
	k := e.keys[0]
	return fmt.Sprintf("unknown key %q%s: a server takes %s", k, tomlfile.Suggest(k, mcpcfg.Keys), strings.Join(mcpcfg.Keys, ", "))
}

// parseServer reads one server of an mcpServers file.
func parseServer(name string, raw json.RawMessage, lookup Lookup) (Server, error) {
	if err := mcpcfg.CheckName(name); err != nil {
		return Server{}, err
	}
	var keys map[string]json.RawMessage
	if err := json.Unmarshal(raw, &keys); err != nil {
		return Server{}, errors.New("must be an object such as {\"command\": \"npx\", \"args\": [...]}")
	}
	var unknown []string
	for k := range keys {
		if !slices.Contains(mcpcfg.Keys, k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		slices.Sort(unknown)
		return Server{}, unknownKeyError{keys: unknown}
	}
	var w struct {
		Type    string            `json:"type"`
		Command string            `json:"command"`
		Args    []string          `json:"args"`
		Env     map[string]string `json:"env"`
		Cwd     string            `json:"cwd"`
		URL     string            `json:"url"`
		Headers map[string]string `json:"headers"`
		Allow   []string          `json:"allow"`
	}
	if err := json.Unmarshal(raw, &w); err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			return Server{}, fmt.Errorf("%q must be %s, got a JSON %s", te.Field, jsonKind(te.Type.String()), te.Value)
		}
		return Server{}, err
	}
	s := Server{Name: name, Type: w.Type, Allow: w.Allow}
	for k := range w.Env {
		s.Vars = append(s.Vars, k)
	}
	named := func(k string) (string, error) {
		if !slices.Contains(s.Vars, k) {
			s.Vars = append(s.Vars, k)
		}
		return lookup(k)
	}
	var err error
	x := func(field, v string) string {
		if err != nil {
			return ""
		}
		var e error
		v, e = Expand(v, named)
		if e != nil {
			err = fmt.Errorf("%s: %w", field, e)
		}
		return v
	}
	s.Command, s.Cwd, s.URL = x("command", w.Command), x("cwd", w.Cwd), x("url", w.URL)
	for _, a := range w.Args {
		s.Args = append(s.Args, x("args", a))
	}
	s.Env = expandMap(w.Env, func(k, v string) string { return x("env "+k, v) })
	s.Headers = expandMap(w.Headers, func(k, v string) string { return x("headers "+k, v) })
	if err != nil {
		return Server{}, err
	}
	sort.Strings(s.Vars)
	return s, s.Check()
}

func expandMap(m map[string]string, x func(k, v string) string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = x(k, v)
	}
	return out
}

// jsonKind names a Go type as JSON calls it.
func jsonKind(t string) string {
	switch {
	case strings.HasPrefix(t, "[]"):
		return "a list of strings"
	case strings.HasPrefix(t, "map["):
		return "an object of strings"
	}
	return "a string"
}

var varRE = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)(:-[^}]*)?\}`)

// Expand replaces ${VAR} and ${VAR:-default} in s with the variable's
// value, as Claude Code does; a variable that is not set and has no
// default is an error, and so is one that lookup refuses.
func Expand(s string, lookup Lookup) (string, error) {
	var missing []string
	var refused error
	out := varRE.ReplaceAllStringFunc(s, func(m string) string {
		sub := varRE.FindStringSubmatch(m)
		v, err := lookup(sub[1])
		if err != nil {
			if refused == nil {
				refused = err
			}
			return ""
		}
		if v != "" {
			return v
		}
		if sub[2] != "" {
			return sub[2][2:]
		}
		missing = append(missing, sub[1])
		return ""
	})
	if refused != nil {
		return "", refused
	}
	if len(missing) > 0 {
		return "", fmt.Errorf("environment variable %s is not set", strings.Join(missing, ", "))
	}
	return out, nil
}

// keyOffsets returns the offsets of the keys of data's top-level object and
// of the objects one level below it, as "key" and "key/subkey".
func keyOffsets(data []byte) map[string]int64 {
	out := map[string]int64{}
	dec := json.NewDecoder(bytes.NewReader(data))
	type frame struct {
		object, wantKey bool
		key             string
	}
	var stack []frame
	for {
		before := dec.InputOffset()
		tok, err := dec.Token()
		if err != nil {
			return out
		}
		top := len(stack) - 1
		if s, ok := tok.(string); ok && top >= 0 && stack[top].object && stack[top].wantKey {
			stack[top].key, stack[top].wantKey = s, false
			if top <= 2 { // the servers' own keys, for their places
				path := make([]string, top+1)
				for i := range path {
					path[i] = stack[i].key
				}
				for before < int64(len(data)) && strings.IndexByte(" \t\r\n,", data[before]) >= 0 {
					before++
				}
				out[strings.Join(path, "/")] = before
			}
			continue
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, frame{object: true, wantKey: true})
			continue
		case json.Delim('['):
			stack = append(stack, frame{})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:top]
			top--
		}
		if top >= 0 && stack[top].object {
			stack[top].wantKey = true // the value ended: a key comes next
		}
	}
}
