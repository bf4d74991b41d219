package config

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
)

// toolKeys are the keys of a [[profiles.NAME.tools]] table.
var toolKeys = []string{"name", "description", "input_schema", "input_schema_file", "command"}

// tools reads the [[profiles.NAME.tools]] array.
func (v value) tools() []Tool {
	var elems []any
	switch arr := v.v.(type) {
	case []map[string]any:
		for _, t := range arr {
			elems = append(elems, t)
		}
	case []any:
		elems = arr
	default:
		v.fail("must be an array of [[profiles.NAME.tools]] tables, got %s", describe(v.v))
		return nil
	}
	header := "[[profiles." + tableKey(v.path[1]) + ".tools]]"
	var out []Tool
	seen := map[string]int{} // name → line
	for i, e := range elems {
		ev := value{l: v.l, path: append(v.path[:len(v.path):len(v.path)], index(i)), name: fmt.Sprintf("tool %d", i+1), v: e}
		t, ok := ev.table(`{ name = "get_time", input_schema = { type = "object" } }`)
		if !ok {
			continue
		}
		tool, ok := ev.tool(t, header)
		if !ok {
			continue
		}
		line := v.l.lines.at(append(ev.path, "name")...)
		if first, dup := seen[tool.Name]; dup {
			ev.child(t, "name").fail("%s is used by two tools (first at line %d): tool names must differ", quote(tool.Name), first)
			continue
		}
		seen[tool.Name] = line
		out = append(out, tool)
	}
	return out
}

// tool reads one tool table. It reports false when the tool has a problem,
// which it has recorded.
func (v value) tool(t map[string]any, header string) (Tool, bool) {
	var tool Tool
	before := len(v.l.errs)
	_, inline := t["input_schema"]
	_, file := t["input_schema_file"]
	switch {
	case t["name"] == nil:
		v.fail(`has no name: add name = "get_time" to %s`, header)
	case !inline && !file:
		v.child(t, "name").fail(`needs an input_schema table, such as input_schema = { type = "object" }, or an input_schema_file`)
	}
	for _, k := range sortedKeys(t) {
		c := v.child(t, k)
		switch k {
		case "name":
			if s, ok := c.str(); ok {
				if msg := toolName(s); msg != "" {
					c.fail("%s", msg)
				}
				tool.Name = s
			}
		case "description":
			tool.Description, _ = c.str()
		case "input_schema":
			tool.InputSchema = c.schema()
		case "input_schema_file":
			if inline {
				c.fail("cannot be used together with input_schema: keep one")
				break
			}
			tool.InputSchema = c.schemaFile()
		case "command":
			tool.Command = c.command()
		default:
			c.unknown(k, "in "+header, suggest(k, toolKeys))
		}
	}
	return tool, len(v.l.errs) == before
}

// schema reads an inline input_schema table and returns it as JSON.
func (v value) schema() json.RawMessage {
	t, ok := v.table(`{ type = "object", properties = { tz = { type = "string" } } }`)
	if !ok {
		return nil
	}
	raw, err := json.Marshal(t)
	if err != nil {
		v.fail("cannot be written as JSON: %v", err)
		return nil
	}
	if msg := objectSchema(raw); msg != "" {
		v.fail("%s", msg)
		return nil
	}
	return raw
}

// schemaFile reads the JSON file named by input_schema_file, relative to the
// config file's folder.
func (v value) schemaFile() json.RawMessage {
	name, ok := v.str()
	if !ok {
		return nil
	}
	path := name
	if !filepath.IsAbs(path) {
		path = filepath.Join(v.l.dir, path)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		v.fail("%s: cannot read it: %v", quote(name), err)
		return nil
	}
	var x any
	if err := json.Unmarshal(data, &x); err != nil {
		v.fail("%s: %v", quote(name), jsonError(path, data, err))
		return nil
	}
	if msg := objectSchema(data); msg != "" {
		v.fail("%s: %s", quote(name), msg)
		return nil
	}
	return compact(data)
}

// command reads a tool's command: a non-empty argv.
func (v value) command() []string {
	argv, ok := v.strs(`["date", "-u"]`)
	if !ok {
		return nil
	}
	if msg := toolCommand(argv); msg != "" {
		v.fail("%s", msg)
		return nil
	}
	return argv
}

var toolNameRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// toolName checks a tool's name, returning what is wrong or "".
func toolName(s string) string {
	if !toolNameRE.MatchString(s) {
		return "must be 1 to 64 letters, digits, _ or -, got " + quote(s)
	}
	return ""
}

// toolCommand checks a tool's argv, returning what is wrong or "".
func toolCommand(argv []string) string {
	if len(argv) == 0 || argv[0] == "" {
		return `must name the program and its arguments, such as ["date", "-u"], got an empty program`
	}
	return ""
}

// objectSchema checks that raw is a JSON object describing an object, as a
// tool's input schema must, returning what is wrong or "".
func objectSchema(raw []byte) string {
	var schema map[string]any
	if err := json.Unmarshal(raw, &schema); err != nil || schema == nil {
		return "must be a JSON object schema such as {\"type\": \"object\"}, got " + jsonKind(raw)
	}
	if t, ok := schema["type"]; !ok || t != "object" {
		return fmt.Sprintf(`must have type "object", got %s`, jsonKind(mustJSON(t)))
	}
	return ""
}

// jsonKind names the kind of a JSON value, for messages.
func jsonKind(raw []byte) string {
	var x any
	if err := json.Unmarshal(raw, &x); err != nil {
		return "invalid JSON"
	}
	switch x := x.(type) {
	case nil:
		return "nothing"
	case string:
		return "string " + quote(x)
	case float64:
		return fmt.Sprintf("number %v", x)
	case bool:
		return fmt.Sprintf("boolean %t", x)
	case []any:
		return "an array"
	default:
		return "an object"
	}
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}
