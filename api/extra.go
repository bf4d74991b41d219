package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// decodeExtra is the UnmarshalJSON of a type that keeps unknown fields: it
// decodes data into its wire form W (the type without its methods) and hands
// it to set with the fields of data that known does not name, as splitExtra
// returns them. A JSON null sets nothing, as encoding/json does.
func decodeExtra[W any](data []byte, known []string, set func(W, map[string]json.RawMessage)) error {
	if isNull(data) {
		return nil
	}
	var w W
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	extra, err := splitExtra(data, known)
	if err != nil {
		return err
	}
	set(w, extra)
	return nil
}

// splitExtra returns the members of the JSON object data that this client
// has no Go field for: those whose names match none of known (ignoring case,
// as encoding/json matches them), and those named exactly by known whose
// value is null, so that a null the server sent is written back as null. It
// returns nil when there are none, or when data is not an object.
func splitExtra(data []byte, known []string) (map[string]json.RawMessage, error) {
	d := bytes.TrimSpace(data)
	if len(d) == 0 || d[0] != '{' {
		return nil, nil
	}
	var extra map[string]json.RawMessage
	err := eachField(d, func(key string, v []byte) {
		if isKnownKey(key, known) && !(isNull(v) && slices.Contains(known, key)) {
			return
		}
		if extra == nil {
			extra = make(map[string]json.RawMessage)
		}
		extra[key] = append(json.RawMessage(nil), v...)
	})
	return extra, err
}

// Fields calls f with the key and the raw value of each top-level field of
// the JSON object obj, in order, without decoding the values: it skips them
// with a scan that only minds strings and brackets, so an object's fields
// cost little more than their bytes. It checks obj only as far as it needs:
// callers that must refuse invalid JSON check it themselves (the decoders
// of this package decode obj first). What is not an object is an error.
func Fields(obj []byte, f func(key string, v []byte)) error {
	obj = bytes.TrimSpace(obj)
	if len(obj) == 0 || obj[0] != '{' {
		return fmt.Errorf("not a JSON object")
	}
	return eachField(obj, f)
}

// eachField is Fields for obj, trimmed, which starts with '{'.
func eachField(obj []byte, f func(key string, v []byte)) error {
	i := skipSpace(obj, 1)
	if i < len(obj) && obj[i] == '}' {
		return nil
	}
	for i < len(obj) {
		if obj[i] != '"' {
			return fmt.Errorf("unknown fields: a key was expected at offset %d", i)
		}
		end := skipString(obj, i)
		raw := obj[i:end]
		if len(raw) < 2 || raw[len(raw)-1] != '"' {
			return fmt.Errorf("unknown fields: an unfinished key at offset %d", i)
		}
		key := string(raw[1 : len(raw)-1])
		if bytes.IndexByte(raw, '\\') >= 0 {
			if err := json.Unmarshal(raw, &key); err != nil {
				return err
			}
		}
		i = skipSpace(obj, end)
		if i >= len(obj) || obj[i] != ':' {
			return fmt.Errorf("unknown fields: a colon was expected at offset %d", i)
		}
		i = skipSpace(obj, i+1)
		vend := skipValue(obj, i)
		f(key, obj[i:vend])
		i = skipSpace(obj, vend)
		if i < len(obj) && obj[i] == ',' {
			i = skipSpace(obj, i+1)
			continue
		}
		return nil
	}
	return nil
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index after the string that starts at b[i].
func skipString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(b)
}

// skipValue returns the index after the value that starts at b[i].
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return i
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for ; i < len(b); i++ {
			switch b[i] {
			case '"':
				i = skipString(b, i) - 1
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return i + 1
				}
			}
		}
		return len(b)
	}
	// A number, true, false or null.
	for i < len(b) && b[i] != ',' && b[i] != '}' && b[i] != ']' && b[i] != ' ' && b[i] != '\t' && b[i] != '\n' && b[i] != '\r' {
		i++
	}
	return i
}

func isKnownKey(k string, known []string) bool {
	for _, n := range known {
		if strings.EqualFold(k, n) {
			return true
		}
	}
	return false
}

// hasKey reports whether the JSON object obj has a field named k, or one
// encoding/json would take for it (the same name in another case).
func hasKey(obj []byte, k string) bool {
	found := false
	_ = Fields(obj, func(key string, _ []byte) {
		found = found || strings.EqualFold(key, k)
	})
	return found
}

// isNull reports whether v is the JSON literal null.
func isNull(v json.RawMessage) bool {
	return bytes.Equal(bytes.TrimSpace(v), []byte("null"))
}

// appendExtra adds the members of extra to obj, a JSON object, after its own
// members and in key order. A member for which written reports true is left
// out: obj has it already, and a Go field wins over an Extra entry.
func appendExtra(obj []byte, extra map[string]json.RawMessage, written func(key string) bool) ([]byte, error) {
	if len(extra) == 0 {
		return obj, nil
	}
	obj = bytes.TrimSpace(obj)
	if len(obj) < 2 || obj[len(obj)-1] != '}' {
		return nil, fmt.Errorf("add unknown fields: %.20q is not a JSON object", obj)
	}
	out := bytes.NewBuffer(make([]byte, 0, len(obj)+64*len(extra)))
	out.Write(obj[:len(obj)-1])
	empty := len(bytes.TrimSpace(obj[1:len(obj)-1])) == 0
	for _, k := range slices.Sorted(maps.Keys(extra)) {
		if written(k) {
			continue
		}
		v := bytes.TrimSpace(extra[k])
		if !json.Valid(v) {
			return nil, fmt.Errorf("add unknown field %q: its value is not valid JSON", k)
		}
		key, err := json.Marshal(k)
		if err != nil {
			return nil, fmt.Errorf("add unknown field %q: %w", k, err)
		}
		if !empty {
			out.WriteByte(',')
		}
		empty = false
		out.Write(key)
		out.WriteByte(':')
		out.Write(v)
	}
	out.WriteByte('}')
	return out.Bytes(), nil
}

// mergeExtra sets the members of src in *dst, overwriting those of the same
// name, as a later event's fields overwrite an earlier one's.
func mergeExtra(dst *map[string]json.RawMessage, src map[string]json.RawMessage) {
	if len(src) == 0 {
		return
	}
	if *dst == nil {
		*dst = make(map[string]json.RawMessage, len(src))
	}
	maps.Copy(*dst, src)
}

// cloneExtra returns a copy of m that shares no memory with it.
func cloneExtra(m map[string]json.RawMessage) map[string]json.RawMessage {
	if m == nil {
		return nil
	}
	c := make(map[string]json.RawMessage, len(m))
	for k, v := range m {
		c[k] = append(json.RawMessage(nil), v...)
	}
	return c
}
