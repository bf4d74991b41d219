package cli

import (
	"strings"

	"muse/api"
)

// doctorHints rewrites the "muse doctor checks it" of an error so that it
// works when pasted: muse as it was run (cmdName), and a base URL that came
// from --base-url given in MUSE_BASE_URL, since doctor has no such flag.
func doctorHints(env Env, cfg *config) *strings.Replacer {
	doctor := cmdName(env) + " doctor"
	if cfg.baseFrom == "--base-url" {
		doctor = "MUSE_BASE_URL=" + shellQuote(api.RedactURL(cfg.baseURL)) + " " + doctor
	}
	return strings.NewReplacer("muse doctor checks it", doctor+" checks it")
}

// doctorHinted returns hint and err with doctorHints applied.
func doctorHinted(env Env, cfg *config, err error, hint string) (string, error) {
	r := doctorHints(env, cfg)
	if msg := r.Replace(err.Error()); msg != err.Error() {
		err = &asRunError{msg: msg, err: err}
	}
	return r.Replace(hint), err
}
