package cli

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"time"

	"muse/api"
	cfgfile "muse/ui/cli/config"
	"muse/ui/engine"
)

// doctorCheckTimeout bounds doctor's one request.
const doctorCheckTimeout = 30 * time.Second

// doctorCheck sends one minimal request as muse would (the profile's
// model, credential, version headers and thinking form, max_tokens 16 or
// just above a thinking budget) and reports it step by step: reachable,
// credential accepted, version header accepted, model known, thinking
// form accepted; then the recipe that fits the address, and with
// listModels the service's models.
func (a *app) doctorCheck(d *report, listModels bool) {
	cfg, err := resolveIn(&a.f, a.env)
	if err != nil {
		d.bad("settings", strings.Join(errorLines(err), "; "))
		return
	}
	muse := cmdName(a.env)
	switch name := cfgfile.ServiceFor(cfg.baseURL); {
	case name != "" && cfg.baseFrom == profileBaseURL:
		// A profile sets it already: config init would refuse to write another.
		d.ok("recipe", "this address fits the recipe "+name)
	case name != "":
		d.ok("recipe", "this address fits the recipe "+name+" ("+muse+" config init --service "+name+" writes its profile)")
	default:
		d.ok("recipe", "none fits this address: see the README's Services ("+muse+" config init --help lists them)")
	}
	client := api.New(cfg.baseURL, append(cfg.clientOptions(), api.WithMaxRetries(0), api.WithRequestTimeout(doctorCheckTimeout))...)
	defer client.Close()
	p := cfg.params
	p.MaxTokens = 16
	if p.ThinkingBudget > 0 {
		p.MaxTokens = p.ThinkingBudget + 16
	}
	ctx, cancel := context.WithTimeout(context.Background(), doctorCheckTimeout)
	defer cancel()
	_, err = client.CreateMessage(ctx, engine.Request(p, []api.MessageParam{api.TextMessage(api.RoleUser, "Say OK.")}, nil))
	thinking := "none asked"
	switch {
	case p.Thinking != "":
		thinking = strings.TrimSpace("adaptive " + p.Effort)
	case p.ThinkingBudget > 0:
		thinking = fmt.Sprintf("a budget of %d", p.ThinkingBudget)
	}
	steps := []string{stepReachable, stepCredential, stepVersion, stepModel, stepThinking}
	oks := map[string]string{stepReachable: api.RedactURL(cfg.baseURL) + " answers", stepCredential: "accepted",
		stepVersion: "accepted", stepModel: p.Model + " is known", stepThinking: thinking + ": accepted"}
	failAt, why := doctorFailure(err, p.Model, muse)
	for _, s := range steps {
		if s == failAt {
			d.bad(s, why)
			break
		}
		d.ok(s, oks[s])
	}
	if listModels {
		a.doctorModels(d, cfg, client)
	}
}

// The steps of the check, as its lines label them: the credential and the
// model are "… check", so that neither reads as the Configuration
// section's "credentials" and "model" lines, which say what is set, not
// what the service made of it.
const (
	stepReachable  = "reachable"
	stepCredential = "credential check"
	stepVersion    = "version header"
	stepModel      = "model check"
	stepThinking   = "thinking"
)

// doctorFailure names the step a failed check stopped at, and why.
func doctorFailure(err error, model, muse string) (step, why string) {
	if err == nil {
		return "", ""
	}
	var ae *api.APIError
	if !errors.As(err, &ae) {
		// A connection's hint ends by sending the reader here.
		return stepReachable, strings.Replace(err.Error(), "; muse doctor checks it", "", 1)
	}
	msg := strings.ToLower(ae.Message)
	switch {
	case ae.Status == http.StatusUnauthorized || ae.Status == http.StatusForbidden:
		return stepCredential, ae.Error() + ": " + ae.ShellHint() + " (or ANTHROPIC_AUTH_TOKEN / ANTHROPIC_API_KEY: the provider's docs say which)"
	case ae.Status == http.StatusNotFound && ae.URL != "" && ae.Type != "not_found_error":
		return stepReachable, ae.Error() + ": " + ae.ShellHint()
	case strings.Contains(msg, "version"):
		return stepVersion, ae.Error() + ": set version_header in the profile to the header the service wants"
	case ae.Status == http.StatusBadRequest && containsAny(msg, "thinking", "effort", "output_config", "budget", "temperature", "top_p", "top_k"):
		// A refused thinking form or sampling setting, which the hint names.
		return stepThinking, ae.Error() + ": " + ae.ShellHint()
	case ae.Status == http.StatusNotFound || strings.Contains(msg, "model"):
		return stepModel, ae.Error() + ": " + model + " is not one the service knows (" + muse + " doctor --models, or " + muse + " models, lists them)"
	}
	return stepModel, ae.Error() + ": " + ae.ShellHint()
}

// doctorModels reports the service's models: how many, the first few.
func (a *app) doctorModels(d *report, cfg *config, client *api.Client) {
	ms, err := client.ListModels(context.Background())
	var ae *api.APIError
	switch {
	case errors.As(err, &ae) && ae.Status == http.StatusNotFound:
		d.ok("service models", "the service lists none (no GET /v1/models): type the model's name")
	case err != nil:
		d.bad("service models", err.Error())
	case len(ms) == 0:
		d.ok("service models", "the service lists "+noneShown)
	default:
		names := make([]string, 0, 5)
		known := false
		for i, m := range ms {
			if i < 5 {
				names = append(names, m.ID)
			}
			known = known || m.ID == cfg.params.Model
		}
		more := ""
		if len(ms) > 5 {
			more = ", …"
		}
		d.ok("service models", fmt.Sprintf("%d: %s%s", len(ms), strings.Join(names, ", "), more))
		if !known && len(ms) > 0 {
			d.more("the model " + cfg.params.Model + " is not in the list")
		}
	}
}

// containsAny reports whether s holds any of words.
func containsAny(s string, words ...string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}
