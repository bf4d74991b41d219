package config

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"

	"muse/ui/tomlfile"
)

// Tools come from two kinds of file: a --tools JSON file and the
// [[profiles.NAME.tools]] tables of the configuration. Each source reads its
// tools into toolDrafts, and checkTools checks them all the same way.

// toolDraft is one tool as written in a file, not checked yet.
type toolDraft struct {
	n         int // 1-based place in the file
	line, col int // where it starts; col is 0 when unknown
	// notTable is set, with value, when the element is not a table (TOML)
	// or an object (JSON) at all.
	notTable bool
	value    any
	fields   []toolField
}

// toolField is one key of a tool.
type toolField struct {
	key       string
	label     string // what messages call it; key when empty
	val       any    // as decoded: TOML tables as map[string]any and arrays as []any, JSON values with json.Number
	raw       []byte // input_schema: the value as JSON text, nil when it has none
	rawErr    string // why the value has no JSON text, if it should
	line, col int    // where it starts; col is 0 when unknown
	// items are where the items of an array value start, when known.
	items []tomlfile.Place
	// failed is set when the source has already reported a problem with
	// the field, such as an unreadable input_schema_file.
	failed bool
	// fromJSON is set when the value was read from JSON text, for messages.
	fromJSON bool
}

// toolSyntax holds what differs between the two kinds of file in messages.
type toolSyntax struct {
	known   []string // the keys a tool may have
	table   string   // what a tool is written as: "table" or "object"
	example string   // a whole tool
	name    string   // the name key with a value
	schema  string   // an input_schema value
	where   string   // where the tools are, such as " in [[profiles.w.tools]]"
}

// toolProblem is a problem with a tool, at its place in the file.
type toolProblem struct {
	line, col int
	msg       string
}

var toolNameRE = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// checkTools checks the drafts of one file and returns the tools without
// problems, in order, and the problems found. Each tool needs a name of 1 to
// 64 letters, digits, _ or -, unique in the file, and an input_schema that is
// a JSON object schema of type "object"; description must be a string and
// command, when given, a list of non-empty strings.
func checkTools(drafts []toolDraft, syn toolSyntax) ([]Tool, []toolProblem) {
	tools := []Tool{}
	var problems []toolProblem
	seen := map[string]int{} // name → line
	for _, d := range drafts {
		c := toolChecker{d: d, syn: syn}
		tool, nameField := c.check()
		if nameField != nil && tool.Name != "" {
			if first, dup := seen[tool.Name]; dup {
				c.fail(nameField, "name %s is used by two tools (first at line %d): tool names must differ", quote(tool.Name), first)
			} else {
				seen[tool.Name] = nameField.line
			}
		}
		problems = append(problems, c.problems...)
		if len(c.problems) == 0 && !c.failed {
			tools = append(tools, tool)
		}
	}
	return tools, problems
}

// toolChecker checks one draft.
type toolChecker struct {
	d        toolDraft
	syn      toolSyntax
	problems []toolProblem
	failed   bool // a field was reported by the source
}

// fail records a problem with field f, "tool N: " and the message, at f.
func (c *toolChecker) fail(f *toolField, format string, args ...any) {
	c.add(f, -1, fmt.Sprintf("tool %d: ", c.d.n)+fmt.Sprintf(format, args...))
}

// whole records a problem with the whole tool, "tool N " and the message,
// at f or, when f is nil, at the tool.
func (c *toolChecker) whole(f *toolField, format string, args ...any) {
	c.add(f, -1, fmt.Sprintf("tool %d ", c.d.n)+fmt.Sprintf(format, args...))
}

// failAt records a problem with item i of field f's array, at the item when
// its place is known, else at f.
func (c *toolChecker) failAt(f *toolField, i int, format string, args ...any) {
	c.add(f, i, fmt.Sprintf("tool %d: ", c.d.n)+fmt.Sprintf(format, args...))
}

// add records the problem msg at item i of f, at f, or at the tool.
func (c *toolChecker) add(f *toolField, i int, msg string) {
	p := toolProblem{line: c.d.line, col: c.d.col, msg: msg}
	if f != nil {
		p.line, p.col = f.line, f.col
		if i >= 0 && i < len(f.items) {
			p.line, p.col = f.items[i].Line, f.items[i].Col
		}
	}
	c.problems = append(c.problems, p)
}

// check checks the draft and returns the tool and its name field.
func (c *toolChecker) check() (Tool, *toolField) {
	var tool Tool
	syn := c.syn
	if c.d.notTable {
		c.whole(nil, "must be %s such as %s, got %s", article(syn.table), syn.example, describe(c.d.value))
		return tool, nil
	}
	var name, schema *toolField
	for i := range c.d.fields {
		f := &c.d.fields[i]
		if f.label == "" {
			f.label = f.key
		}
		if f.failed {
			c.failed = true
		}
		switch f.key {
		case "name":
			name = f
			if c.string(f) {
				tool.Name = f.val.(string)
				switch {
				case tool.Name == "":
					c.whole(f, "has no name: add %s", syn.name)
				case !toolNameRE.MatchString(tool.Name):
					c.fail(f, "name must be 1 to 64 letters, digits, _ or -, got %s", quote(tool.Name))
				}
			}
		case "description":
			if c.string(f) {
				tool.Description = f.val.(string)
			}
		case "input_schema", "input_schema_file":
			if schema != nil {
				c.fail(f, "%s cannot be used together with %s: keep one", f.label, schema.key)
				continue
			}
			schema = f
			tool.InputSchema = c.schema(f)
		case "command":
			tool.Command = c.command(f)
		default:
			c.fail(f, "unknown key %s%s%s", quote(f.key), syn.where, suggest(f.key, syn.known))
		}
	}
	if name == nil {
		c.whole(nil, "has no name: add %s%s", syn.name, strings.Replace(syn.where, " in ", " to ", 1))
	}
	if schema == nil {
		also := ""
		if len(syn.known) > 4 {
			also = ", or an input_schema_file"
		}
		c.whole(name, "needs an input_schema such as %s%s", syn.schema, also)
	}
	return tool, name
}

// string checks that f holds a string.
func (c *toolChecker) string(f *toolField) bool {
	if f.failed {
		return false
	}
	if _, ok := f.val.(string); !ok {
		c.fail(f, "%s must be a string, got %s", f.label, describe(f.val))
		return false
	}
	return true
}

// schema checks an input schema and returns it as compact JSON.
func (c *toolChecker) schema(f *toolField) json.RawMessage {
	if f.failed {
		return nil
	}
	if !isObject(f.val) {
		noun, example := c.syn.table, c.syn.schema
		if f.fromJSON {
			noun, example = "JSON object schema", `{"type": "object"}`
		}
		c.fail(f, "%s must be %s such as %s, got %s", f.label, article(noun), example, describe(f.val))
		return nil
	}
	if f.raw == nil {
		c.fail(f, "%s cannot be written as JSON: %s", f.label, f.rawErr)
		return nil
	}
	if msg := objectSchema(f.raw); msg != "" {
		c.fail(f, "%s %s", f.label, msg)
		return nil
	}
	return compact(f.raw)
}

// command checks a command: a list of non-empty strings.
func (c *toolChecker) command(f *toolField) []string {
	const example = `["date", "-u"]`
	if f.failed {
		return nil
	}
	items, ok := listOf(f.val)
	if !ok {
		c.fail(f, "command must be a list of strings such as %s, got %s", example, describe(f.val))
		return nil
	}
	if len(items) == 0 {
		c.fail(f, "command must name the program and its arguments, such as %s, got an empty list", example)
		return nil
	}
	argv := make([]string, len(items))
	for i, it := range items {
		s, ok := it.(string)
		switch {
		case !ok:
			c.failAt(f, i, "command must be a list of strings such as %s, got %s as item %d", example, describe(it), i+1)
			return nil
		case s == "" && i == 0:
			c.failAt(f, i, "command must name the program and its arguments, such as %s, got an empty program", example)
			return nil
		case s == "":
			c.failAt(f, i, "command item %d is empty: leave it out", i+1)
			return nil
		case strings.IndexByte(s, 0) >= 0:
			c.failAt(f, i, "command item %d contains a NUL character, which no program can be given", i+1)
			return nil
		}
		argv[i] = s
	}
	return argv
}

// isObject reports whether v is a table or a JSON object.
func isObject(v any) bool {
	_, ok := v.(map[string]any)
	return ok
}

// listOf returns the elements of an array.
func listOf(v any) ([]any, bool) {
	l, ok := v.([]any)
	return l, ok
}

// article puts "a" or "an" before a noun.
func article(noun string) string {
	if noun != "" && strings.IndexByte("aeiou", noun[0]) >= 0 {
		return "an " + noun
	}
	return "a " + noun
}

// objectSchema checks that raw is a JSON object describing an object, as a
// tool's input schema must, returning what is wrong or "".
func objectSchema(raw []byte) string {
	var schema map[string]any
	if err := json.Unmarshal(raw, &schema); err != nil || schema == nil {
		return `must be a JSON object schema such as {"type": "object"}, got ` + jsonKind(raw)
	}
	if t, ok := schema["type"]; !ok {
		return `must have type "object", got no type`
	} else if t != "object" {
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
