package cli

import (
	"encoding/json"
	"strings"
	"testing"

	"muse/api"
)

// TestPrintJSONPartial checks -p --json on a stream that fails part way:
// the reply as far as it came, marked partial with its error, and exit 1,
// as plain -p prints the partial text.
func TestPrintJSONPartial(t *testing.T) {
	r := runMain(t, nil, "", "--demo", "-p", "tell me demo:error", "--json")
	var m api.Message
	if err := json.Unmarshal([]byte(r.stdout), &m); err != nil {
		t.Fatalf("code %d, stdout %q: %v", r.code, r.stdout, err)
	}
	var mark struct {
		Partial bool   `json:"partial"`
		Error   string `json:"error"`
	}
	_ = json.Unmarshal([]byte(r.stdout), &mark)
	if r.code != ExitFailed || !mark.Partial || !strings.Contains(mark.Error, "overloaded_error") || m.Text() == "" {
		t.Errorf("code %d, partial %v, error %q, text %q", r.code, mark.Partial, mark.Error, m.Text())
	}
	if !strings.Contains(r.stderr, "overloaded_error") {
		t.Errorf("stderr %q", r.stderr)
	}
	plain := runMain(t, nil, "", "--demo", "-p", "tell me demo:error")
	if plain.code != r.code || !strings.HasPrefix(strings.TrimSpace(plain.stdout), strings.TrimSpace(m.Text())[:10]) {
		t.Errorf("plain -p: code %d, stdout %q; --json text %q", plain.code, plain.stdout, m.Text())
	}
}
