package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"muse/api"
	"muse/api/demo"
	cfgfile "muse/ui/cli/config"
	"muse/ui/models"
	"muse/ui/sanitize"
)

// modelsCmd is "muse models": the models the service offers.
func (a *app) modelsCmd() *cobra.Command {
	var refresh bool
	cmd := &cobra.Command{
		Use:   "models",
		Short: "list the models the service offers (GET /v1/models, cached for a day)",
		Long: `List the models the service offers, from its GET /v1/models, one a line:
the id, then its name and release date when the service gives them.

The list is cached per profile in muse's cache folder ($XDG_CACHE_HOME/muse/
models) for a day; --refresh fetches it again. --model and /model complete
from it. A service without the endpoint gets one note, and names typed in
full still work.`,
		Args: noArgs,
		RunE: func(c *cobra.Command, _ []string) error {
			a.f.set = c.Flags().Changed
			return status(a.listModels(a.env.Stdout, refresh))
		},
	}
	cmd.Flags().BoolVar(&refresh, "refresh", false, "fetch the list again instead of reading the cache")
	cmd.Flags().BoolVar(&a.f.demo, "demo", false, "list the embedded demo server's models")
	cmd.Flags().StringVar(&a.f.baseURL, "base-url", "", "service address `URL` (env MUSE_BASE_URL)")
	return cmd
}

// listModels prints the service's models to w and returns the exit status.
func (a *app) listModels(w io.Writer, refresh bool) int {
	env := a.env
	cfg, err := a.modelsConfig()
	if err != nil {
		return fail(env, err)
	}
	if a.f.demo {
		srv, err := demo.Start(demo.Options{})
		if err != nil {
			return fail(env, fmt.Errorf("start the demo server: %w", err))
		}
		defer srv.Close()
		cfg.baseURL = srv.URL
	}
	cache, err := models.CacheFor(cfg.profile, cfg.baseURL, env.dirGetenv(), env.goos)
	if err != nil && !a.f.demo {
		return fail(env, usagef("%v", err))
	}
	client := api.New(cfg.baseURL, cfg.clientOptions()...)
	defer client.Close()
	var l models.List
	if a.f.demo {
		// The demo's address changes each run: nothing to cache.
		l.Models, err = client.ListModels(context.Background())
	} else {
		l, _, err = cache.Get(context.Background(), client, refresh)
	}
	if err != nil {
		return fail(env, err)
	}
	if l.None {
		fmt.Fprintf(env.Stderr, "muse: %s lists no models (no GET /v1/models): type the model's name, with --model or /model\n", sanitize.Line(api.RedactURL(cfg.baseURL)))
		return ExitOK
	}
	if len(l.Models) == 0 {
		fmt.Fprintf(env.Stderr, "muse: %s lists %s\n", sanitize.Line(api.RedactURL(cfg.baseURL)), noneShown)
		return ExitOK
	}
	io.WriteString(w, modelLines(l.Models))
	return ExitOK
}

// noneShown says why a models list the service gave holds nothing, for
// muse models and doctor --models: muse leaves out an id it cannot show
// or send as it is (see api.Client.ListModels).
const noneShown = "no model muse can show: an id that is empty, too long or holds control characters (escape sequences) is left out; type the model's name, with --model or /model"

// modelLines is the models one a line, in columns (see writeTable): the
// id, its name when it differs, its release date.
func modelLines(list []api.ModelInfo) string {
	rows := make([][]string, len(list))
	for i, m := range list {
		name := ""
		if m.DisplayName != "" && m.DisplayName != m.ID {
			name = sanitize.Line(m.DisplayName)
		}
		rows[i] = []string{sanitize.Line(m.ID), name, sanitize.Line(m.Created)}
	}
	var b strings.Builder
	writeTable(&b, rows, 0) // a strings.Builder never fails
	return b.String()
}

// modelsConfig resolves the configuration for listing the models: no
// model is needed to ask which there are.
func (a *app) modelsConfig() (*config, error) {
	f := a.f
	if f.model == "" {
		f.model = "-" // not sent: only the list is asked for
	}
	return resolveIn(&f, a.env)
}

// modelsLoader returns what the chat screen calls, once its first frame
// is drawn, for the names /model completes and the context windows the
// service gives: the cached list, fetched again when it is stale. Nothing
// is said when the service has none or cannot be reached: typed names
// still work.
func modelsLoader(cfg *config, client *api.Client, env Env) func() []api.ModelInfo {
	return func() []api.ModelInfo {
		if cfg.demo {
			ms, _ := client.ListModels(context.Background())
			return ms
		}
		cache, err := models.CacheFor(cfg.profile, cfg.baseURL, env.dirGetenv(), env.goos)
		if err != nil {
			return nil
		}
		l, _, _ := cache.Get(context.Background(), client, false)
		return l.Models
	}
}

// modelCompletions completes --model from the cached models list of the
// profile in effect; it never asks the service (a shell waits for it).
func (a *app) modelCompletions(toComplete string) []string {
	prof, _, err := loadProfile(&a.f, a.env)
	if err != nil {
		return nil
	}
	if prof == nil {
		prof = &cfgfile.Profile{}
	}
	base, _ := serviceAddress(&a.f, a.env.Getenv, prof)
	cache, err := models.CacheFor(prof.Name, base.value, a.env.dirGetenv(), a.env.goos)
	if err != nil {
		return nil
	}
	l, _ := cache.Read()
	var out []string
	for _, n := range l.Names() {
		if strings.HasPrefix(n, toComplete) && sanitize.Line(n) == n {
			out = append(out, n)
		}
	}
	return out
}
