package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"muse/ui/tomlfile"
)

// jsonToolKeys are the keys of a tool in a --tools file.
var jsonToolKeys = []string{"name", "description", "input_schema", "command"}

// LoadTools reads a --tools file: a JSON array of objects with name,
// description, input_schema and, optionally, command, checked like the
// [[profiles.NAME.tools]] of a configuration file. Problems are reported as
// [*Error] values with the line and column, several joined with
// [errors.Join], one a line. A file larger than maxFileSize is refused.
func LoadTools(path string) ([]Tool, error) {
	data, err := readFile(path, "tools", maxFileSize)
	if err != nil {
		return nil, err
	}
	return parseTools(path, data)
}

// parseTools decodes and checks the text of the tools file at path.
func parseTools(path string, data []byte) ([]Tool, error) {
	at := func(off int64, msg string) *Error {
		line, col := position(data, off)
		return &Error{Path: path, Line: line, Col: col, Msg: msg}
	}
	// Check the syntax of the whole file first: json.Unmarshal reports
	// consistent offsets, the streaming decoder below does not.
	var whole json.RawMessage
	if err := json.Unmarshal(data, &whole); err != nil {
		return nil, jsonError(path, data, err)
	}
	start := skipJSONBlank(data, 0)
	if data[start] != '[' {
		return nil, at(start, `expected a JSON array of tools such as [{"name": "get_time", "input_schema": {"type": "object"}}]`)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var drafts []toolDraft
	var problems []*Error
	if _, err := dec.Token(); err != nil {
		return nil, jsonError(path, data, err)
	}
	for n := 1; dec.More(); n++ {
		d, dups, err := readJSONTool(dec, data, n)
		if err != nil {
			return nil, jsonError(path, data, err)
		}
		for _, dup := range dups {
			problems = append(problems, at(dup.off, dup.msg))
		}
		drafts = append(drafts, d)
	}
	tools, found := checkTools(drafts, toolSyntax{
		known:   jsonToolKeys,
		table:   "object",
		example: `{"name": "get_time", "input_schema": {"type": "object"}}`,
		name:    `"name": "get_time"`,
		schema:  `{"type": "object"}`,
	})
	for _, p := range found {
		problems = append(problems, &Error{Path: path, Line: p.line, Col: p.col, Msg: p.msg})
	}
	if len(problems) > 0 {
		return nil, joinErrors(path, problems)
	}
	return tools, nil
}

// jsonProblem is a problem found while reading a tool, at an offset.
type jsonProblem struct {
	off int64
	msg string
}

// readJSONTool reads the n-th element of the tools array into a draft,
// recording where each key starts. A key given twice is a problem.
func readJSONTool(dec *json.Decoder, data []byte, n int) (toolDraft, []jsonProblem, error) {
	start := skipJSONBlank(data, dec.InputOffset())
	d := toolDraft{n: n}
	d.line, d.col = position(data, start)
	if data[start] != '{' {
		d.notTable = true
		err := dec.Decode(&d.value)
		return d, nil, err
	}
	if _, err := dec.Token(); err != nil {
		return d, nil, err
	}
	var problems []jsonProblem
	for dec.More() {
		off := skipJSONBlank(data, dec.InputOffset())
		tok, err := dec.Token()
		if err != nil {
			return d, nil, err
		}
		key, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return d, nil, err
		}
		f := toolField{key: key, raw: raw, fromJSON: true}
		f.line, f.col = position(data, off)
		vd := json.NewDecoder(bytes.NewReader(raw))
		vd.UseNumber()
		if err := vd.Decode(&f.val); err != nil {
			return d, nil, err
		}
		if dupOf(d.fields, key) {
			problems = append(problems, jsonProblem{off, fmt.Sprintf("tool %d: %s is given twice: keep one", n, quote(key))})
			continue
		}
		d.fields = append(d.fields, f)
	}
	_, err := dec.Token()
	return d, problems, err
}

// dupOf reports whether fields has the key.
func dupOf(fields []toolField, key string) bool {
	for _, f := range fields {
		if f.key == key {
			return true
		}
	}
	return false
}

// joinErrors joins problems in the order of the file, at most maxErrors of
// them, one a line; a single problem is returned as it is.
func joinErrors(path string, problems []*Error) error {
	probs := &tomlfile.Problems{Path: path}
	for _, e := range problems {
		probs.Add(e)
	}
	return probs.Err()
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
