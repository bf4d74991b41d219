package config

import "strings"

// value is one decoded key with its place in the file, so that checks can
// report problems against the right line.
type value struct {
	l    *loader
	path []string // key path, for the line
	name string   // the key as messages call it
	v    any
}

// fail records a problem with the value; the message starts with its name.
func (v value) fail(format string, args ...any) {
	v.l.errorf(v.path, "%s "+format, append([]any{v.name}, args...)...)
}

// unknown records an unknown key.
func (v value) unknown(key, where, hint string) {
	v.l.errorf(v.path, "unknown key %s %s%s", quote(key), where, hint)
}

// credential records a secret written into the file. The value is never
// repeated.
func (v value) credential() {
	v.l.errorf(v.path, "credentials are not read from the file: use %s", credential(v.name))
}

// credential returns the keys to use instead when key names a credential
// written directly, or "". Any value under such a name is refused, so that a
// secret pasted into the file is never used, echoed or shown.
func credential(key string) string {
	switch strings.ToLower(strings.ReplaceAll(key, "-", "_")) {
	case "api_key", "apikey", "x_api_key", "key":
		return "api_key_env or api_key_cmd"
	case "access_token", "accesstoken", "token", "auth_token", "bearer_token", "bearer", "password", "secret":
		return "access_token_env or access_token_cmd"
	}
	return ""
}

// str returns the value as a string.
func (v value) str() (string, bool) {
	s, ok := v.v.(string)
	if !ok {
		v.fail("must be a string, got %s", describe(v.v))
	}
	return s, ok
}

// integer returns the value as an int.
func (v value) integer() (int, bool) {
	n, ok := v.v.(int64)
	if !ok {
		v.fail("must be an integer, got %s", describe(v.v))
		return 0, false
	}
	if int64(int(n)) != n {
		v.fail("is too large, got %d", n)
		return 0, false
	}
	return int(n), true
}

// float returns the value as a float64, accepting integers.
func (v value) float() (float64, bool) {
	switch n := v.v.(type) {
	case float64:
		return n, true
	case int64:
		return float64(n), true
	}
	v.fail("must be a number, got %s", describe(v.v))
	return 0, false
}

// boolean returns the value as a bool.
func (v value) boolean() (bool, bool) {
	b, ok := v.v.(bool)
	if !ok {
		v.fail("must be true or false, got %s", describe(v.v))
	}
	return b, ok
}

// strs returns the value as a list of strings. example is shown in the
// message when the value is not one.
func (v value) strs(example string) ([]string, bool) {
	arr, ok := v.v.([]any)
	if !ok {
		v.fail("must be a list of strings such as %s, got %s", example, describe(v.v))
		return nil, false
	}
	out := make([]string, 0, len(arr))
	for i, e := range arr {
		s, ok := e.(string)
		if !ok {
			v.l.errorf(append(v.path, index(i)), "%s must be a list of strings such as %s, got %s as item %d", v.name, example, describe(e), i+1)
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// table returns the value as a table. example is shown in the message when
// the value is not one.
func (v value) table(example string) (map[string]any, bool) {
	t, ok := v.v.(map[string]any)
	if !ok {
		v.fail("must be a table such as %s, got %s", example, describe(v.v))
	}
	return t, ok
}

// child returns the value of key inside table t.
func (v value) child(t map[string]any, key string) value {
	return value{l: v.l, path: append(v.path[:len(v.path):len(v.path)], key), name: key, v: t[key]}
}
