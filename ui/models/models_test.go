package models

import (
	"context"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"muse/api"
)

// A list is cached for a day: fresh until then, stale after, fetched
// again on refresh; the file is 0600 in a 0700 folder under the cache
// base, named without the address.
func TestCacheForADay(t *testing.T) {
	var asked atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		w.Write([]byte(`{"object":"list","data":[{"id":"b"},{"id":"a"}]}`))
	}))
	defer srv.Close()
	dir := t.TempDir()
	c, err := CacheFor("work", srv.URL+"/?key=SECRET", func(k string) string { return map[string]string{"XDG_CACHE_HOME": dir}[k] }, "linux")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(c.Path, filepath.Join(dir, "muse", "models")) || strings.Contains(c.Path, "SECRET") {
		t.Errorf("path %s", c.Path)
	}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c.Now = func() time.Time { return now }
	client := api.New(srv.URL)
	l, cached, err := c.Get(context.Background(), client, false)
	if err != nil || cached || strings.Join(l.Names(), ",") != "a,b" || asked.Load() != 1 {
		t.Fatalf("first: %v %v %v, asked %d", err, cached, l.Names(), asked.Load())
	}
	if st, err := os.Stat(c.Path); err != nil || st.Mode().Perm() != 0o600 {
		t.Errorf("file: %v %v", st.Mode(), err)
	}
	if st, err := os.Stat(filepath.Dir(c.Path)); err != nil || st.Mode().Perm() != 0o700 {
		t.Errorf("folder: %v %v", st.Mode(), err)
	}
	now = now.Add(MaxAge - time.Minute)
	if _, cached, _ := c.Get(context.Background(), client, false); !cached || asked.Load() != 1 {
		t.Errorf("within a day: cached %v, asked %d", cached, asked.Load())
	}
	if _, cached, _ := c.Get(context.Background(), client, true); cached || asked.Load() != 2 {
		t.Errorf("refresh: cached %v, asked %d", cached, asked.Load())
	}
	now = now.Add(MaxAge + time.Minute)
	if _, cached, _ := c.Get(context.Background(), client, false); cached || asked.Load() != 3 {
		t.Errorf("stale: cached %v, asked %d", cached, asked.Load())
	}
	// A broken file is no list: fetched again, not an error.
	os.WriteFile(c.Path, []byte("{broken"), 0o600)
	if l, fresh := c.Read(); fresh || len(l.Models) != 0 {
		t.Errorf("broken file read as %+v", l)
	}
}

// A service without the endpoint is cached as having none, so it is not
// asked again that day.
func TestCacheNoEndpoint(t *testing.T) {
	var asked atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		http.NotFound(w, r)
	}))
	defer srv.Close()
	c := &Cache{Path: filepath.Join(t.TempDir(), "m.json")}
	client := api.New(srv.URL, api.WithMaxRetries(0))
	l, _, err := c.Get(context.Background(), client, false)
	if err != nil || !l.None {
		t.Fatalf("%v %+v", err, l)
	}
	if l, cached, _ := c.Get(context.Background(), client, false); !cached || !l.None || asked.Load() != 1 {
		t.Errorf("asked again: %d", asked.Load())
	}
}
