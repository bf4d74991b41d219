package config

import (
	"cmp"
	"encoding/json"
	"errors"
	"io/fs"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"

	"muse/ui/tomlfile"
)

// toolTOML is one [[profiles.NAME.tools]] table as written.
type toolTOML struct {
	Name            *string        `toml:"name"`
	Description     *string        `toml:"description"`
	InputSchema     map[string]any `toml:"input_schema" expect:"a table such as { type = \"object\", properties = { tz = { type = \"string\" } } }"`
	InputSchemaFile *string        `toml:"input_schema_file"`
	Command         []string       `toml:"command" expect:"a list of strings such as [\"date\", \"-u\"]"`
}

// tools checks the [[profiles.NAME.tools]] of the profile name, raw, with
// checkTools.
func (l *loader) tools(name string, raw []toolTOML) []Tool {
	at := []string{"profiles", name, "tools"}
	drafts := make([]toolDraft, len(raw))
	for i, r := range raw {
		item := child(at, strconv.Itoa(i))
		d := &drafts[i]
		d.n = i + 1
		pl := l.places.At(item...)
		d.line, d.col = pl.Line, pl.Col
		add := func(key string, val any) *toolField {
			pl := l.places.At(child(item, key)...)
			d.fields = append(d.fields, toolField{key: key, val: val, line: pl.Line, col: pl.Col})
			return &d.fields[len(d.fields)-1]
		}
		for _, key := range tomlToolKeys {
			if l.places.Refused(child(item, key)...) {
				add(key, nil).failed = true // reported already
			}
		}
		if r.Name != nil {
			add("name", *r.Name)
		}
		if r.Description != nil {
			add("description", *r.Description)
		}
		if r.InputSchema != nil || l.places.Has(child(item, "input_schema")...) {
			f := add("input_schema", r.InputSchema)
			if r.InputSchema == nil {
				f.val = map[string]any{}
			}
			if raw, err := json.Marshal(f.val); err != nil {
				f.rawErr = err.Error()
			} else {
				f.raw = raw
			}
		}
		if r.InputSchemaFile != nil {
			f := add("input_schema_file", *r.InputSchemaFile)
			if r.InputSchema == nil { // else checkTools refuses the pair
				l.schemaFile(child(item, "input_schema_file"), *r.InputSchemaFile, f)
			}
		}
		if r.Command != nil {
			cmd := make([]any, len(r.Command))
			f := add("command", cmd)
			for j, s := range r.Command {
				cmd[j] = s
				pl := l.places.At(child(item, "command", strconv.Itoa(j))...)
				f.items = append(f.items, pl)
			}
		}
		slices.SortStableFunc(d.fields, func(a, b toolField) int {
			return cmp.Or(cmp.Compare(a.line, b.line), cmp.Compare(a.col, b.col))
		})
	}
	tools, problems := checkTools(drafts, toolSyntax{
		known:   tomlToolKeys,
		table:   "table",
		example: toolExample,
		name:    `name = "get_time"`,
		schema:  `{ type = "object", properties = { tz = { type = "string" } } }`,
		where:   " in [[profiles." + tableKey(name) + ".tools]]",
	})
	for _, p := range problems {
		l.probs.At(tomlfile.Place{Line: p.line, Col: p.col}, "%s", p.msg)
	}
	return tools
}

// tomlToolKeys are the keys of a [[profiles.NAME.tools]] table.
var tomlToolKeys = tomlfile.Keys(reflect.TypeFor[toolTOML]())

// schemaFile reads the JSON file that input_schema_file names, relative to
// the config file's folder, into f; path is the key's. A problem reading
// it is reported here, and f marked failed.
func (l *loader) schemaFile(path []string, name string, f *toolField) {
	f.label = "input_schema_file " + quote(name) + ":"
	file := name
	if !filepath.IsAbs(file) {
		file = filepath.Join(l.dir, file)
	}
	data, err := readFile(file, "schema", maxFileSize)
	var e *Error
	switch {
	case errors.As(err, &e):
		l.fail(path, "input_schema_file %s: %s", quote(name), e.Msg)
	case errors.Is(err, fs.ErrNotExist):
		l.fail(path, "input_schema_file %s: cannot read it: no such file (names are relative to the config file's folder)", quote(name))
	case err != nil:
		l.fail(path, "input_schema_file %s: cannot read it: %v", quote(name), errors.Unwrap(err))
	}
	if err != nil {
		f.failed = true
		return
	}
	var x any
	if err := json.Unmarshal(data, &x); err != nil {
		l.fail(path, "input_schema_file %s: %v", quote(name), jsonError(file, data, err))
		f.failed = true
		return
	}
	f.val, f.raw, f.fromJSON = x, data, true
}
