package page

import (
	"regexp"
	"slices"
	"strings"
)

// Mask replaces each secret --redact finds.
const Mask = "[redacted]"

// secretPatterns match what looks like a credential: API keys in their
// common forms (OpenAI and Anthropic sk-, AWS access key ids, GitHub,
// GitLab, Slack and Google keys), the token of an Authorization header,
// JSON Web Tokens, and private key blocks. Go's regexp runs in linear
// time, whatever the text.
var secretPatterns = regexp.MustCompile(strings.Join([]string{
	`-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\s\S]*?-----END [A-Z0-9 ]*PRIVATE KEY-----`,
	`\bsk-[A-Za-z0-9_\-]{16,}`,
	`\b(?:AKIA|ASIA)[0-9A-Z]{16}\b`,
	`\bgh[pousr]_[A-Za-z0-9]{30,}`,
	`\bgithub_pat_[A-Za-z0-9_]{30,}`,
	`\bglpat-[A-Za-z0-9_\-]{20,}`,
	`\bxox[abprs]-[A-Za-z0-9\-]{10,}`,
	`\bAIza[0-9A-Za-z_\-]{35}`,
	`\beyJ[A-Za-z0-9_\-]{8,}\.eyJ[A-Za-z0-9_\-]{8,}\.[A-Za-z0-9_\-]{8,}`,
	`(?i)\bbearer\s+[A-Za-z0-9\-._~+/]{12,}=*`,
}, "|"))

// redactor masks secrets in text.
type redactor struct {
	// exact replaces the configured credentials, longest first.
	exact *strings.Replacer
}

// newRedactor returns a redactor that also masks each of secrets, muse's
// own credentials; those shorter than 8 bytes are left out, as they would
// mask common words.
func newRedactor(secrets []string) *redactor {
	var long []string
	for _, s := range secrets {
		if s = strings.TrimSpace(s); len(s) >= 8 {
			long = append(long, s)
		}
	}
	slices.SortFunc(long, func(a, b string) int { return len(b) - len(a) })
	var pairs []string
	for _, s := range long {
		pairs = append(pairs, s, Mask)
	}
	r := &redactor{}
	if len(pairs) > 0 {
		r.exact = strings.NewReplacer(pairs...)
	}
	return r
}

// redact returns s with each secret masked.
func (r *redactor) redact(s string) string {
	if r.exact != nil {
		s = r.exact.Replace(s)
	}
	return secretPatterns.ReplaceAllStringFunc(s, func(m string) string {
		if len(m) > 6 && strings.EqualFold(m[:6], "bearer") {
			return m[:6] + " " + Mask
		}
		return Mask
	})
}
