// Package models keeps the list of models a service offers (GET
// /v1/models), cached per profile in muse's cache folder for a day, so that
// muse models, --model and /model complete from it without asking the
// service each time. The cache is derived data: it lives apart from the
// sessions and the configuration, may be deleted at any time, and a broken
// one is fetched again.
package models

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"muse/api"
	"muse/api/regfile"
	"muse/session/dirs"
)

// MaxAge is how long a cached list is used before it is fetched again.
const MaxAge = 24 * time.Hour

// List is a service's models as cached.
type List struct {
	// Fetched is when the list was fetched.
	Fetched time.Time `json:"fetched"`
	// None is true when the service has no models endpoint (it answered
	// 404): typed names are all there is, and it is not asked again until
	// the list is stale.
	None bool `json:"none,omitempty"`
	// Models are the models, as api.ListModels returned them.
	Models []api.ModelInfo `json:"models"`
}

// Names returns the models' ids, sorted.
func (l List) Names() []string {
	names := make([]string, len(l.Models))
	for i, m := range l.Models {
		names[i] = m.ID
	}
	slices.Sort(names)
	return names
}

// Cache is one profile's cached list: a file under muse's cache folder
// named for the profile and the service address.
type Cache struct {
	// Path is the cache file.
	Path string
	// Now is the clock; nil means time.Now.
	Now func() time.Time
}

// CacheFor returns the cache of the profile (which may be "") talking to
// baseURL, in $XDG_CACHE_HOME/muse/models (or the platform's cache folder).
// getenv and goos are as dirs.BaseDir takes them.
func CacheFor(profile, baseURL string, getenv func(string) string, goos string) (*Cache, error) {
	base, err := dirs.BaseDir(dirs.CacheBase, getenv, goos)
	if err != nil {
		return nil, errors.New("models cache: " + err.Error())
	}
	// The address may hold a credential (user information, a query): only
	// its hash names the file.
	sum := sha256.Sum256([]byte(profile + "\x00" + strings.TrimRight(baseURL, "/")))
	return &Cache{Path: filepath.Join(base, "muse", "models", hex.EncodeToString(sum[:12])+".json")}, nil
}

func (c *Cache) now() time.Time {
	if c.Now != nil {
		return c.Now()
	}
	return time.Now()
}

// Read returns the cached list, and whether it is fresh (younger than
// MaxAge). A missing or broken file is no list and no error.
func (c *Cache) Read() (List, bool) {
	f, err := os.Open(c.Path)
	if err != nil {
		return List{}, false
	}
	defer f.Close()
	var l List
	// The file holds at most what ListModels keeps, which is bounded; a
	// larger one is not muse's.
	data, err := regfile.ReadAll(f, 2*api.MaxModelsSize)
	if err != nil || json.Unmarshal(data, &l) != nil || len(l.Models) > api.MaxModels {
		return List{}, false
	}
	age := c.now().Sub(l.Fetched)
	return l, age >= 0 && age < MaxAge
}

// Write saves the list: the folder 0700, the file 0600, replaced whole.
func (c *Cache) Write(l List) error {
	if err := os.MkdirAll(filepath.Dir(c.Path), 0o700); err != nil {
		return fmt.Errorf("models cache: %w", err)
	}
	data, err := json.Marshal(l)
	if err != nil {
		return fmt.Errorf("models cache: %w", err)
	}
	tmp, err := os.CreateTemp(filepath.Dir(c.Path), ".models-*")
	if err != nil {
		return fmt.Errorf("models cache: %w", err)
	}
	defer os.Remove(tmp.Name())
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return fmt.Errorf("models cache: %w", err)
	}
	if err := tmp.Close(); err != nil {
		return fmt.Errorf("models cache: %w", err)
	}
	if err := os.Rename(tmp.Name(), c.Path); err != nil {
		return fmt.Errorf("models cache: %w", err)
	}
	return nil
}

// Get returns the list: the cached one while it is fresh and refresh is
// false, else the service's, which is then cached. A service without the
// endpoint gives a List with None set and no error. cached says the list
// came from the cache.
func (c *Cache) Get(ctx context.Context, client *api.Client, refresh bool) (l List, cached bool, err error) {
	if l, fresh := c.Read(); fresh && !refresh {
		return l, true, nil
	}
	ms, err := client.ListModels(ctx)
	var ae *api.APIError
	switch {
	case errors.As(err, &ae) && (ae.Status == http.StatusNotFound || ae.Status == http.StatusMethodNotAllowed):
		l = List{Fetched: c.now(), None: true}
	case err != nil:
		return List{}, false, err
	default:
		l = List{Fetched: c.now(), Models: ms}
	}
	return l, false, c.Write(l)
}
