package mcp

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	sdk "github.com/modelcontextprotocol/go-sdk/mcp"
)

// An HTTP server's credentials (a token_env bearer, which the profile
// turns into the Authorization header, and a token set in "headers") go
// to its own host only: a 307 from 127.0.0.1 to localhost, another host
// of the same machine, is refused, as muse's own client refuses it, and
// the other host sees neither. A redirect on the same host is followed,
// with them.
func TestHTTPRedirectKeepsCredentialsOnTheHost(t *testing.T) {
	var mu sync.Mutex
	var leaked []string
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		for _, h := range []string{"Authorization", "X-Api-Token"} {
			if v := r.Header.Get(h); v != "" {
				leaked = append(leaked, h+": "+v)
			}
		}
		http.Error(w, "nothing here", http.StatusNotFound)
	}))
	defer other.Close()
	u, _ := url.Parse(other.URL)
	elsewhere := "http://localhost:" + u.Port() + "/mcp"

	var auth []string
	mcpHandler := sdk.NewStreamableHTTPHandler(func(r *http.Request) *sdk.Server { return testServer() }, nil)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/moved":
			http.Redirect(w, r, elsewhere, http.StatusTemporaryRedirect)
		case "/old":
			http.Redirect(w, r, "/mcp", http.StatusTemporaryRedirect)
		default:
			mu.Lock()
			auth = append(auth, r.Header.Get("Authorization")+" "+r.Header.Get("X-Api-Token"))
			mu.Unlock()
			mcpHandler.ServeHTTP(w, r)
		}
	}))
	defer srv.Close()
	if !strings.HasPrefix(srv.URL, "http://127.0.0.1:") {
		t.Fatalf("the server is at %s, not 127.0.0.1", srv.URL)
	}
	creds := map[string]string{"Authorization": "Bearer bearer-sekrit", "X-Api-Token": "header-sekrit"}
	m := New([]Server{
		{Name: "moved", Type: TypeHTTP, URL: srv.URL + "/moved", Headers: creds},
		{Name: "old", Type: TypeHTTP, URL: srv.URL + "/old", Headers: creds},
	}, Options{})
	defer m.Close()
	err := m.Start(context.Background(), "moved")
	if err == nil || !strings.Contains(err.Error(), "redirected to another host") {
		t.Errorf("start moved: %v, want a refused redirect", err)
	}
	if err := m.Start(context.Background(), "old"); err != nil {
		t.Errorf("start old (a redirect on the same host): %v", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(leaked) > 0 {
		t.Errorf("another host got the credentials: %q", leaked)
	}
	if len(auth) == 0 || auth[0] != "Bearer bearer-sekrit header-sekrit" {
		t.Errorf("the server's own host got %q", auth)
	}
}
