package config

import (
	"encoding/json"
	"fmt"

	"muse/ui/tomlfile"
)

// Error is a problem in a configuration or tools file, at a known place,
// as "FILE:LINE:COL: MSG" (see ui/tomlfile, which reads the configuration
// and theme files). Callers treat it as a usage error.
type Error = tomlfile.Error

// describe names a JSON value's type and, for scalars, shows the value, as
// in `string "lots"`. Long strings are shortened.
func describe(v any) string {
	switch v := v.(type) {
	case string:
		return "string " + quote(v)
	case bool:
		return fmt.Sprintf("boolean %t", v)
	case json.Number:
		return "number " + string(v)
	case []any:
		return "array"
	case map[string]any:
		return "object"
	case nil:
		return "null"
	default:
		return fmt.Sprintf("%T", v)
	}
}

// quote quotes s for a message, escaping control characters and invalid
// UTF-8, and cutting it short when it is long (tomlfile.Quote).
func quote(s string) string { return tomlfile.Quote(s) }

// suggest is tomlfile.Suggest: one rule of "did you mean" for every file
// muse reads.
func suggest(name string, known []string) string { return tomlfile.Suggest(name, known) }
