package api

import (
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// configError is a mistake in the client's own configuration: the request is
// never sent, and retrying cannot help. It matches ErrInvalidRequest, since
// it is a usage error, but its message names the setting to fix.
type configError struct{ msg string }

func (e *configError) Error() string { return e.msg }

// Is makes a configuration error match ErrInvalidRequest.
func (e *configError) Is(target error) bool { return target == ErrInvalidRequest }

func configErrorf(format string, args ...any) error {
	return &configError{msg: fmt.Sprintf(format, args...)}
}

// parseBaseURL parses the service address once. It returns the URL, the form
// shown in messages (credentials redacted, query dropped) and, when the
// address is unusable, a configuration error.
func parseBaseURL(raw string) (*url.URL, string, error) {
	raw = strings.TrimRight(strings.TrimSpace(raw), "/")
	u, err := url.Parse(raw)
	if err != nil {
		shown := redactRawURL(raw)
		return nil, shown, configErrorf("base URL %q is not an http(s) address: %v", shown, unwrapURLError(err))
	}
	shown := displayURL(u)
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, shown, configErrorf("base URL %q is not an http(s) address: it must look like https://host[:port]", shown)
	}
	return u, shown, nil
}

// displayURL returns u for messages: without query or fragment, and with its
// user information (which may be a credential) redacted.
func displayURL(u *url.URL) string {
	v := *u
	v.RawQuery, v.ForceQuery, v.Fragment, v.RawFragment = "", false, "", ""
	maskUser(&v)
	return v.String()
}

// maskUser masks the user information of v, user name included: a user
// name may be a token, alone or before an empty password
// (https://TOKEN:@host), and url.URL.Redacted would show it.
func maskUser(v *url.URL) {
	if v.User == nil {
		return
	}
	if _, ok := v.User.Password(); ok {
		v.User = url.UserPassword("xxxxx", "xxxxx")
	} else {
		v.User = url.User("xxxxx")
	}
}

// RedactURL returns the address raw as it may be printed: its user
// information and the values of its query (either may be a credential, as
// in ?key=K) masked, its fragment dropped; an address that does not parse
// is cut before its query. Every front end prints a service address through
// it.
func RedactURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil || u.Opaque != "" {
		return redactRawURL(raw)
	}
	v := *u
	v.Fragment, v.RawFragment = "", ""
	maskUser(&v)
	if v.RawQuery != "" {
		q := v.Query()
		for k, vals := range q {
			for i := range vals {
				vals[i] = "xxxxx"
			}
			q[k] = vals
		}
		v.RawQuery = q.Encode()
	}
	return v.String()
}

// redactRawURL redacts the user information and drops the query of an address
// that does not parse, so that even its error shows no credential.
func redactRawURL(s string) string {
	s, _, _ = strings.Cut(s, "#")
	s, _, _ = strings.Cut(s, "?")
	prefix, rest := "", s
	if i := strings.Index(s, "://"); i >= 0 {
		prefix, rest = s[:i+3], s[i+3:]
	}
	auth, path := rest, ""
	if j := strings.IndexByte(rest, '/'); j >= 0 {
		auth, path = rest[:j], rest[j:]
	}
	if k := strings.LastIndexByte(auth, '@'); k >= 0 {
		auth = "xxxxx@" + auth[k+1:]
	}
	return prefix + auth + path
}

// checkConfig validates the credentials and headers once, in New, so that a
// bad setting fails every request at once with a message that names it. The
// values themselves are never printed: they may be secrets.
func (c *Client) checkConfig() error {
	switch {
	case hasControl(c.token):
		return configErrorf("the access token contains a control character; check MUSE_ACCESS_TOKEN")
	case c.token == "" && hasControl(c.apiKey):
		return configErrorf("the API key contains a control character; check MUSE_API_KEY")
	case c.versionHeader != "" && !validHeaderName(c.versionHeader):
		return configErrorf("the version header name %q is not a valid HTTP header name", c.versionHeader)
	case hasControl(c.version):
		return configErrorf("the provider version contains a control character")
	case hasControl(c.userAgent):
		return configErrorf("the User-Agent contains a control character")
	case (c.token != "" || c.apiKey != "") && c.base.Scheme == "http" && !IsLoopback(c.base.Hostname()) && !c.insecureHTTP:
		return configErrorf("muse will not send the credential over plain http:// to %s, where anyone on the way can read it: use https://, or allow it on purpose with MUSE_ALLOW_INSECURE_HTTP=1 or allow_insecure_http = true in the profile", c.base.Host)
	}
	return nil
}

// IsLoopback reports whether host (a name or an address, without port or
// brackets) is this machine: localhost, 127.0.0.0/8 or ::1. A service there
// needs no credential, and plain http to it stays on the machine. These
// are exactly the hosts Go's HTTP_PROXY handling never proxies: a name
// under .localhost, or localhost with a trailing dot, would go through a
// proxy, so neither counts.
func IsLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// hasControl reports whether s contains an ASCII control character, which
// no HTTP header value may carry.
func hasControl(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < 0x20 || s[i] == 0x7f {
			return true
		}
	}
	return false
}

// validHeaderName reports whether s is an HTTP token (RFC 9110, section 5.6.2).
func validHeaderName(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		ok := c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' ||
			strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
		if !ok {
			return false
		}
	}
	return s != ""
}

// maxRedirects is how many redirects to the same host a request follows.
const maxRedirects = 5

// CheckRedirect is the redirect policy of every HTTP client of muse's that
// sends credentials (the client New builds, the debug log's, an MCP
// server's): they go in custom headers (x-api-key, an MCP server's
// "headers") that Go would forward to any host, so a redirect is followed
// only to the same host, never from https to http, and at most
// maxRedirects times.
func CheckRedirect(req *http.Request, via []*http.Request) error {
	first := via[0].URL
	if !strings.EqualFold(req.URL.Host, first.Host) {
		return fmt.Errorf("the server redirected to another host (%s); muse will not send credentials there", req.URL.Host)
	}
	if first.Scheme == "https" && req.URL.Scheme != "https" {
		return fmt.Errorf("the server redirected to a plain %s address; muse will not send credentials there", req.URL.Scheme)
	}
	if len(via) > maxRedirects {
		return fmt.Errorf("the server redirected more than %d times", maxRedirects)
	}
	return nil
}

// newHTTPClient returns the client's own HTTP client: a transport of its own
// (so Close can release its connections) and the redirect policy.
func newHTTPClient() *http.Client {
	var rt http.RoundTripper = http.DefaultTransport
	if t, ok := http.DefaultTransport.(*http.Transport); ok {
		rt = t.Clone()
	}
	return &http.Client{Transport: rt, CheckRedirect: CheckRedirect}
}
