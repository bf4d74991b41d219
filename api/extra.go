package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// splitExtra returns the members of the JSON object data that this client
// has no Go field for: those whose names match none of known (ignoring case,
// as encoding/json matches them), and those named exactly by known whose
// value is null, so that a null the server sent is written back as null. It
// returns nil when there are none, or when data is not an object.
func splitExtra(data []byte, known []string) (map[string]json.RawMessage, error) {
	if d := bytes.TrimSpace(data); len(d) == 0 || d[0] != '{' {
		return nil, nil
	}
	var all map[string]json.RawMessage
	if err := json.Unmarshal(data, &all); err != nil {
		return nil, err
	}
	var extra map[string]json.RawMessage
	for k, v := range all {
		if isKnownKey(k, known) && !(isNull(v) && slices.Contains(known, k)) {
			continue
		}
		if extra == nil {
			extra = make(map[string]json.RawMessage)
		}
		extra[k] = v
	}
	return extra, nil
}

// isKnownKey reports whether encoding/json would decode the member named k
// into a field named by one of known.
func isKnownKey(k string, known []string) bool {
	for _, n := range known {
		if strings.EqualFold(k, n) {
			return true
		}
	}
	return false
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
