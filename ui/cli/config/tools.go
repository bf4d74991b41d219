package config

import (
	"encoding/json"
	"errors"
	"io/fs"
	"path/filepath"
)

// tomlToolKeys are the keys of a [[profiles.NAME.tools]] table.
var tomlToolKeys = []string{"name", "description", "input_schema", "input_schema_file", "command"}

// tools reads the [[profiles.NAME.tools]] array and checks it with
// checkTools.
func (v value) tools() []Tool {
	arr, ok := v.v.(*tomlArray)
	if !ok {
		v.fail("must be an array of [[profiles.NAME.tools]] tables, got %s", describe(v.v))
		return nil
	}
	header := "[[profiles." + tableKey(v.l.profile) + ".tools]]"
	drafts := make([]toolDraft, len(arr.elems))
	for i, e := range arr.elems {
		d := &drafts[i]
		d.n, d.line = i+1, int(e.line)
		t, ok := e.val.(*tomlTable)
		if !ok {
			d.notTable, d.value = true, e.val
			continue
		}
		d.fields = make([]toolField, len(t.keys))
		for j, k := range t.keys {
			f := &d.fields[j]
			f.key, f.val, f.line = k.name, k.val, int(k.line)
			switch k.name {
			case "input_schema":
				if st, ok := k.val.(*tomlTable); ok {
					raw, err := json.Marshal(plain(st))
					if err != nil {
						f.rawErr = err.Error()
					} else {
						f.raw = raw
					}
				}
			case "input_schema_file":
				if t.has("input_schema") {
					break // checkTools refuses the pair
				}
				v.child(t, k.name).schemaFile(f)
			}
		}
	}
	tools, problems := checkTools(drafts, toolSyntax{
		known:   tomlToolKeys,
		table:   "table",
		example: `{ name = "get_time", input_schema = { type = "object" } }`,
		name:    `name = "get_time"`,
		schema:  `{ type = "object", properties = { tz = { type = "string" } } }`,
		where:   " in " + header,
	})
	for _, p := range problems {
		v.l.errorf(p.line, "%s", p.msg)
	}
	return tools
}

// schemaFile reads the JSON file that input_schema_file names, relative to
// the config file's folder, into f. A problem reading it is reported here,
// and f marked failed.
func (v value) schemaFile(f *toolField) {
	name, ok := v.str()
	if !ok {
		f.failed = true
		return
	}
	f.label = "input_schema_file " + quote(name) + ":"
	path := name
	if !filepath.IsAbs(path) {
		path = filepath.Join(v.l.dir, path)
	}
	data, err := readFile(path, "schema", MaxFileSize)
	var e *Error
	switch {
	case errors.As(err, &e):
		v.fail("%s: %s", quote(name), e.Msg)
	case errors.Is(err, fs.ErrNotExist):
		v.fail("%s: cannot read it: no such file (names are relative to the config file's folder)", quote(name))
	case err != nil:
		v.fail("%s: cannot read it: %v", quote(name), errors.Unwrap(err))
	}
	if err != nil {
		f.failed = true
		return
	}
	var x any
	if err := json.Unmarshal(data, &x); err != nil {
		v.fail("%s: %v", quote(name), jsonError(path, data, err))
		f.failed = true
		return
	}
	f.val, f.raw, f.fromJSON = x, data, true
}
