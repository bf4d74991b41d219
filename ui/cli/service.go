package cli

import (
	"net/url"

	"muse/api"
	cfgfile "muse/ui/cli/config"
)

// anthropicBaseURL is where ANTHROPIC_API_KEY or ANTHROPIC_AUTH_TOKEN goes
// when no address is set anywhere, as Anthropic's own tools do.
const anthropicBaseURL = "https://api.anthropic.com"

// profileBaseURL names the profile's base_url as the source of the address.
const profileBaseURL = "the profile's base_url"

// setting is a resolved value and where it came from, as doctor and config
// show name it: "--base-url", "MUSE_BASE_URL", "the profile's base_url",
// "ANTHROPIC_BASE_URL"…
type setting struct{ value, from string }

// firstSet returns the first setting with a value, or the zero setting.
func firstSet(ss ...setting) setting {
	for _, s := range ss {
		if s.value != "" {
			return s
		}
	}
	return setting{}
}

// envSetting is the variable name's value, from that variable.
func envSetting(getenv func(string) string, name string) setting {
	return setting{getenv(name), name}
}

// serviceAddress resolves the chat service's address: --base-url, then
// MUSE_BASE_URL, then the profile's base_url, then the providers' own
// ANTHROPIC_BASE_URL, and, when only an ANTHROPIC_* credential is set,
// Anthropic's API. anthropic is true when the address came from the
// ANTHROPIC_* variables: only then are their credentials sent to it, so
// that a key meant for one provider never reaches another's address.
func serviceAddress(f *flags, getenv func(string) string, prof *cfgfile.Profile) (s setting, anthropic bool) {
	s = firstSet(setting{f.baseURL, "--base-url"}, envSetting(getenv, "MUSE_BASE_URL"), setting{prof.BaseURL, profileBaseURL})
	if s.value != "" {
		return s, false
	}
	if s = envSetting(getenv, "ANTHROPIC_BASE_URL"); s.value != "" {
		return s, true
	}
	if getenv("ANTHROPIC_API_KEY") != "" || getenv("ANTHROPIC_AUTH_TOKEN") != "" {
		return setting{anthropicBaseURL, "Anthropic's API, the default for ANTHROPIC_API_KEY"}, true
	}
	return setting{}, false
}

// serviceModel resolves the model: --model, MUSE_MODEL, the profile's
// model, then ANTHROPIC_MODEL; and when only an ANTHROPIC_* credential
// sends muse to Anthropic's API, the anthropic recipe's model, as
// Anthropic's own tools start with a model of their own.
func serviceModel(f *flags, getenv func(string) string, prof *cfgfile.Profile) setting {
	s := firstSet(setting{f.model, "--model"}, envSetting(getenv, "MUSE_MODEL"),
		setting{prof.Model, "the profile's model"}, envSetting(getenv, "ANTHROPIC_MODEL"))
	if s.value != "" {
		return s
	}
	if addr, anthropic := serviceAddress(f, getenv, prof); anthropic && addr.value == anthropicBaseURL {
		if r, err := cfgfile.LookupService("anthropic"); err == nil {
			return setting{r.Model, "the anthropic recipe's model, the default for Anthropic's API"}
		}
	}
	return s
}

// anthropicCredential is ANTHROPIC_AUTH_TOKEN, sent as a bearer token, or
// else ANTHROPIC_API_KEY, sent as x-api-key, as Anthropic's tools send them.
func anthropicCredential(getenv func(string) string) (token, key, from string) {
	if t := getenv("ANTHROPIC_AUTH_TOKEN"); t != "" {
		return t, "", "ANTHROPIC_AUTH_TOKEN"
	}
	if k := getenv("ANTHROPIC_API_KEY"); k != "" {
		return "", k, "ANTHROPIC_API_KEY"
	}
	return "", "", ""
}

// loopbackURL reports whether the address is on this machine, where a
// local server (Ollama, llama.cpp, LM Studio…) needs no credential.
func loopbackURL(raw string) bool {
	u, err := url.Parse(raw)
	return err == nil && u.Host != "" && api.IsLoopback(u.Hostname())
}

// allowInsecure reports whether a credential may go over plain http to
// another host: MUSE_ALLOW_INSECURE_HTTP=1 (or true), or allow_insecure_http
// = true in the profile.
func allowInsecure(getenv func(string) string, prof *cfgfile.Profile) bool {
	switch getenv("MUSE_ALLOW_INSECURE_HTTP") {
	case "1", "true", "yes":
		return true
	}
	return prof.AllowInsecureHTTP != nil && *prof.AllowInsecureHTTP
}
