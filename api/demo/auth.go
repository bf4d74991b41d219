package demo

import (
	"crypto/subtle"
	"fmt"
	"net/http"
	"strings"
	"time"
)

const versionHeader = "provider-version"

// bearer returns the token of an "Authorization: Bearer <token>" header.
func bearer(r *http.Request) (string, bool) {
	scheme, tok, ok := strings.Cut(strings.TrimSpace(r.Header.Get("Authorization")), " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") {
		return "", false
	}
	return strings.TrimSpace(tok), true
}

func same(a, b string) bool {
	return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1
}

// checkMessageAuth accepts a Bearer token or an x-api-key. On failure it has
// answered 401 and returns false.
func (h *handler) checkMessageAuth(w http.ResponseWriter, r *http.Request) bool {
	auth := r.Header.Get("Authorization")
	key := r.Header.Get("x-api-key")
	if auth == "" && key == "" {
		writeError(w, http.StatusUnauthorized, errAuthentication,
			"missing credentials: send Authorization: Bearer <token> or x-api-key")
		return false
	}
	if tok, ok := bearer(r); ok && same(tok, h.token) {
		return true
	}
	if key != "" && same(key, h.apiKey) {
		return true
	}
	writeError(w, http.StatusUnauthorized, errAuthentication,
		"invalid credentials: the Bearer token or x-api-key is not valid")
	return false
}

// checkImageAuth accepts only a Bearer token. On failure it has answered 401
// and returns false.
func (h *handler) checkImageAuth(w http.ResponseWriter, r *http.Request) bool {
	if r.Header.Get("Authorization") == "" {
		msg := "missing credentials: send Authorization: Bearer <token>"
		if r.Header.Get("x-api-key") != "" {
			msg = "x-api-key is not accepted by the image endpoint: send Authorization: Bearer <token>"
		}
		writeError(w, http.StatusUnauthorized, errAuthentication, msg)
		return false
	}
	if tok, ok := bearer(r); ok && same(tok, h.token) {
		return true
	}
	writeError(w, http.StatusUnauthorized, errAuthentication,
		"invalid credentials: the Bearer token is not valid")
	return false
}

// checkVersion requires a provider-version header in date form. On failure
// it has answered 400 and returns false.
func checkVersion(w http.ResponseWriter, r *http.Request) bool {
	v := r.Header.Get(versionHeader)
	if v == "" {
		writeError(w, http.StatusBadRequest, errInvalidRequest,
			"missing required header "+versionHeader+": send a date such as 2023-06-01")
		return false
	}
	if _, err := time.Parse(time.DateOnly, v); err != nil || len(v) != len(time.DateOnly) {
		writeError(w, http.StatusBadRequest, errInvalidRequest,
			fmt.Sprintf("header %s must be a date of the form YYYY-MM-DD, got %q", versionHeader, v))
		return false
	}
	return true
}
