package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
)

// jsonTool is one element of a --tools file.
type jsonTool struct {
	Name        *string         `json:"name"`
	Description string          `json:"description"`
	InputSchema json.RawMessage `json:"input_schema"`
	Command     []string        `json:"command"`
}

// LoadTools reads a --tools file: a JSON array of objects with name,
// description, input_schema and, optionally, command. Each tool needs a
// name and an object input_schema. Problems are reported as [*Error].
func LoadTools(path string) ([]Tool, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read tools: %w", err)
	}
	return parseTools(path, data)
}

// parseTools decodes and checks the text of the tools file at path.
func parseTools(path string, data []byte) ([]Tool, error) {
	fail := func(off int64, format string, args ...any) error {
		line, col := position(data, off)
		return &Error{Path: path, Line: line, Col: col, Msg: fmt.Sprintf(format, args...)}
	}
	// Check the syntax of the whole file first: json.Unmarshal reports
	// consistent offsets, the streaming decoder below does not.
	var all any
	if err := json.Unmarshal(data, &all); err != nil {
		return nil, jsonError(path, data, err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err != nil {
		return nil, jsonError(path, data, err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '[' {
		return nil, fail(skipJSONBlank(data, 0), `expected a JSON array of tools such as [{"name": "get_time", "input_schema": {"type": "object"}}]`)
	}
	tools := []Tool{}
	seen := map[string]int{} // name → line
	for i := 1; dec.More(); i++ {
		start := skipJSONBlank(data, dec.InputOffset())
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, jsonError(path, data, err)
		}
		tool, err := decodeTool(raw, i)
		if err != nil {
			return nil, fail(start, "%v", err)
		}
		line, _ := position(data, start)
		if first, dup := seen[tool.Name]; dup {
			return nil, fail(start, "tool %d: name %s is used by two tools (first at line %d): tool names must differ", i, quote(tool.Name), first)
		}
		seen[tool.Name] = line
		tools = append(tools, tool)
	}
	return tools, nil
}

// decodeTool reads and checks the i-th (1-based) element of a tools file.
func decodeTool(raw json.RawMessage, i int) (Tool, error) {
	var jt jsonTool
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&jt); err != nil {
		var te *json.UnmarshalTypeError
		switch {
		case errors.As(err, &te) && te.Field == "":
			return Tool{}, fmt.Errorf(`tool %d must be an object such as {"name": "get_time", "input_schema": {"type": "object"}}, got JSON %s`, i, te.Value)
		case errors.As(err, &te):
			want := "a string"
			if strings.HasPrefix(te.Field, "command") {
				want = `a list of strings such as ["date", "-u"]`
			}
			return Tool{}, fmt.Errorf("tool %d: %s must be %s, got JSON %s", i, te.Field, want, te.Value)
		case strings.HasPrefix(err.Error(), "json: unknown field "):
			k := strings.Trim(strings.TrimPrefix(err.Error(), "json: unknown field "), `"`)
			return Tool{}, fmt.Errorf("tool %d: unknown key %s%s", i, quote(k), suggest(k, []string{"name", "description", "input_schema", "command"}))
		}
		return Tool{}, fmt.Errorf("tool %d: %w", i, err)
	}
	if jt.Name == nil {
		return Tool{}, fmt.Errorf(`tool %d has no name: add "name": "get_time"`, i)
	}
	name := *jt.Name
	if msg := toolName(name); msg != "" {
		return Tool{}, fmt.Errorf("tool %d: name %s", i, msg)
	}
	if len(jt.InputSchema) == 0 {
		return Tool{}, fmt.Errorf(`tool %s needs an input_schema such as {"type": "object"}`, quote(name))
	}
	if msg := objectSchema(jt.InputSchema); msg != "" {
		return Tool{}, fmt.Errorf("tool %s: input_schema %s", quote(name), msg)
	}
	if jt.Command != nil {
		if msg := toolCommand(jt.Command); msg != "" {
			return Tool{}, fmt.Errorf("tool %s: command %s", quote(name), msg)
		}
	}
	return Tool{Name: name, Description: jt.Description, InputSchema: compact(jt.InputSchema), Command: jt.Command}, nil
}

// jsonError places an error from json.Unmarshal in the file.
func jsonError(path string, data []byte, err error) error {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		// Offset counts the bytes read, the offending one included, or all
		// of them when the text ends too soon.
		off, msg := se.Offset-1, se.Error()
		if strings.HasPrefix(msg, "unexpected end") {
			off, msg = se.Offset, "unexpected end of file"
		}
		line, col := position(data, off)
		return &Error{Path: path, Line: line, Col: col, Msg: "invalid JSON: " + msg}
	}
	return &Error{Path: path, Msg: "invalid JSON: " + err.Error()}
}

// position turns a byte offset into a 1-based line and column.
func position(data []byte, off int64) (line, col int) {
	off = min(max(off, 0), int64(len(data)))
	before := data[:off]
	line = bytes.Count(before, []byte{'\n'}) + 1
	col = int(off) - (bytes.LastIndexByte(before, '\n') + 1) + 1
	return line, col
}

// skipJSONBlank returns the offset of the first byte at or after off that is
// neither white space nor a comma.
func skipJSONBlank(data []byte, off int64) int64 {
	for off < int64(len(data)) && strings.IndexByte(" \t\r\n,", data[off]) >= 0 {
		off++
	}
	return off
}

// compact returns raw without insignificant white space.
func compact(raw []byte) json.RawMessage {
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return json.RawMessage(raw)
	}
	return b.Bytes()
}
