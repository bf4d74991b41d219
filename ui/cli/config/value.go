package config

import (
	"strings"
	"time"
)

// value is one parsed value with its place in the file, so that checks can
// report problems against the right line.
type value struct {
	l    *loader
	line int    // where the key or element starts
	name string // the key as messages call it
	v    any    // nil when the key is missing
}

// fail records a problem with the value; the message starts with its name.
func (v value) fail(format string, args ...any) {
	v.l.errorf(v.line, "%s "+format, append([]any{v.name}, args...)...)
}

// unknown records an unknown key.
func (v value) unknown(key, where, hint string) {
	v.l.errorf(v.line, "unknown key %s %s%s", quote(key), where, hint)
}

// credential records a secret written into the file. The value is never
// repeated.
func (v value) credential() {
	v.l.errorf(v.line, "credentials are not read from the file: use %s", credential(v.name))
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

// duration returns the value, a string such as "30s", as a duration between
// 0 (excluded) and most.
func (v value) duration(most time.Duration) (time.Duration, bool) {
	s, ok := v.v.(string)
	if !ok {
		v.fail(`must be a duration such as "30s" or "2m", got %s`, describe(v.v))
		return 0, false
	}
	d, msg := checkDuration(s, most)
	if msg != "" {
		v.fail("%s", msg)
		return 0, false
	}
	return d, true
}

// checkDuration parses a duration such as "30s" and checks that it is above 0
// and at most most, returning what is wrong with it or "".
func checkDuration(s string, most time.Duration) (time.Duration, string) {
	d, err := time.ParseDuration(s)
	switch {
	case err != nil:
		return 0, `must be a duration such as "30s", "1m30s" or "2m", got ` + quote(s)
	case d <= 0 || d > most:
		return 0, "must be more than 0 and at most " + shortDuration(most) + ", got " + quote(s)
	}
	return d, ""
}

// shortDuration writes d without zero units: 1h rather than 1h0m0s.
func shortDuration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = s[:len(s)-2]
	}
	if strings.HasSuffix(s, "h0m") {
		s = s[:len(s)-2]
	}
	return s
}

// strs returns the value as a list of strings. example is shown in the
// message when the value is not one.
func (v value) strs(example string) ([]string, bool) {
	arr, ok := v.v.(*tomlArray)
	if !ok {
		v.fail("must be a list of strings such as %s, got %s", example, describe(v.v))
		return nil, false
	}
	out := make([]string, 0, len(arr.elems))
	for i, e := range arr.elems {
		s, ok := e.val.(string)
		if !ok {
			v.l.errorf(int(e.line), "%s must be a list of strings such as %s, got %s as item %d", v.name, example, describe(e.val), i+1)
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// table returns the value as a table. example is shown in the message when
// the value is not one.
func (v value) table(example string) (*tomlTable, bool) {
	t, ok := v.v.(*tomlTable)
	if !ok {
		v.fail("must be a table such as %s, got %s", example, describe(v.v))
	}
	return t, ok
}

// child returns the value of key inside table t, which is v's value. A
// missing key has a nil value at v's line.
func (v value) child(t *tomlTable, key string) value {
	c := value{l: v.l, line: v.line, name: key}
	if i := t.find(key); i >= 0 {
		c.line, c.v = int(t.keys[i].line), t.keys[i].val
	}
	return c
}
