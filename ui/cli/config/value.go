package config

import (
	"strings"
	"time"
)

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
