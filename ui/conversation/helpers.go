package conversation

import (
	"fmt"
	"strconv"

	"muse/api"
	"muse/session"
)

// memo caches one string by the key it was made from.
type memo struct {
	key, val string
	ok       bool
}

func (c *memo) get(key string, f func() string) string {
	if !c.ok || c.key != key {
		c.key, c.val, c.ok = key, f(), true
	}
	return c.val
}

// memoKey joins ints, bools and strings into a memo key, without fmt's cost.
func memoKey(parts ...any) string {
	b := make([]byte, 0, 64)
	for _, p := range parts {
		switch v := p.(type) {
		case int:
			b = strconv.AppendInt(b, int64(v), 10)
		case bool:
			b = strconv.AppendBool(b, v)
		case string:
			b = append(b, v...)
		}
		b = append(b, 0)
	}
	return string(b)
}

// plural counts n things: "1 line", "2 lines".
func plural(n int, thing string) string {
	if n == 1 {
		return "1 " + thing
	}
	return fmt.Sprintf("%d %ss", n, thing)
}

// errorName names a failed request the way its error does on the command
// line: "<status> <type>", the type told from the status when the server
// gave none (an HTML error page).
func errorName(info *session.ErrorInfo) string {
	return (&api.APIError{Status: info.Status, Type: info.Type}).Error()
}
