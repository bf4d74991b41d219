package config

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestShow(t *testing.T) {
	n, f, b := 4096, 0.5, true
	p := &Profile{
		Name:           "work",
		BaseURL:        "https://llm.example.com",
		AccessTokenEnv: "WORK_TOKEN",
		APIKeyCmd:      "pass show llm/key",
		Model:          "m",
		System:         "two\nlines \x1b[31m",
		MaxTokens:      &n,
		Temperature:    &f,
		Watermark:      &b,
		StopSequences:  []string{"a", "b"},
		Keys:           map[string][]string{"send": {"enter"}, "cancel": {"esc", "ctrl+g"}},
		Tools: []Tool{{
			Name:        "get_time",
			InputSchema: json.RawMessage(`{"type":"object"}`),
			Command:     []string{"date", "-u"},
		}},
	}
	var sb strings.Builder
	Show(p, &sb)
	want := `# profile "work"
base_url = "https://llm.example.com"
access_token_env = "WORK_TOKEN"
api_key_cmd = "pass show llm/key"
model = "m"
system = "two\nlines \x1b[31m"
max_tokens = 4096
temperature = 0.5
watermark = true
stop_sequences = ["a", "b"]
[keys]
cancel = ["esc", "ctrl+g"]
send = ["enter"]
[[tools]]
name = "get_time"
input_schema = "{\"type\":\"object\"}"
command = ["date", "-u"]
`
	if got := sb.String(); got != want {
		t.Errorf("Show:\n%s\nwant:\n%s", got, want)
	}
}

func TestShowMasks(t *testing.T) {
	var sb strings.Builder
	for _, name := range []string{"access_token", "api_key", "token", "x-api-key", "client_secret", "password", "signing_key"} {
		showLine(&sb, name, `"sekrit"`)
	}
	for _, name := range []string{"access_token_env", "api_key_cmd", "model", "max_tokens", "keys", "credential_timeout"} {
		showLine(&sb, name, `"shown"`)
	}
	got := sb.String()
	if strings.Contains(got, "sekrit") {
		t.Errorf("secret shown:\n%s", got)
	}
	if strings.Count(got, `"****"`) != 7 || strings.Count(got, `"shown"`) != 6 {
		t.Errorf("output:\n%s", got)
	}
}

func TestShowNil(t *testing.T) {
	var sb strings.Builder
	Show(nil, &sb)
	if sb.String() != "# no profile selected\n" {
		t.Errorf("Show(nil) = %q", sb.String())
	}
}

// TestShowEverySetting shows a profile that sets everything and checks each
// setting appears.
func TestShowEverySetting(t *testing.T) {
	dir := t.TempDir()
	text := strings.Replace(full, `input_schema_file = "schema.json"`, `input_schema = { type = "object" }`, 1)
	f, err := Load(write(t, dir, text))
	if err != nil {
		t.Fatal(err)
	}
	p, _ := f.Select("work")
	var sb strings.Builder
	Show(p, &sb)
	for _, k := range profileKeyNames {
		want := "\n" + k + " = "
		switch k {
		case "thinking": // the other form of thinking_budget, which full sets
			want = "\n"
		case "keys":
			want = "\n[keys]\n"
		case "tools":
			want = "\n[[tools]]\n"
		case "mcp":
			want = "\n[mcp.files]\ncommand = \"npx\"\nargs = [\"-y\", \"@modelcontextprotocol/server-filesystem\", \".\"]\nallow = [\"read_text_file\"]\nenv = [\"DEBUG\"]\n[mcp.tracker]\ntype = \"http\"\nurl = \"https://mcp.example.com/mcp\"\ntoken_env = \"TRACKER_TOKEN\"\nheaders = [\"X-Team\"]\n"
		}
		if !strings.Contains(sb.String(), want) {
			t.Errorf("Show leaves out %s:\n%s", k, sb.String())
		}
	}
}

// A profile's adaptive thinking loads and shows; with thinking_budget too
// it is refused, naming both forms; a wrong effort gets a suggestion.
func TestAdaptiveThinkingSetting(t *testing.T) {
	dir := t.TempDir()
	f, err := Load(write(t, dir, "[profiles.c]\nthinking = \"adaptive\"\neffort = \"max\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	var sb strings.Builder
	Show(f.Profiles["c"], &sb)
	if !strings.Contains(sb.String(), "thinking = \"adaptive\"\neffort = \"max\"") {
		t.Errorf("show:\n%s", sb.String())
	}
	_, err = Load(write(t, dir, "[profiles.c]\nthinking = \"adaptive\"\nthinking_budget = 2048\n"))
	if err == nil || !strings.Contains(err.Error(), "two forms of thinking") {
		t.Errorf("both forms: %v", err)
	}
	_, err = Load(write(t, dir, "[profiles.c]\neffort = \"hihg\"\n"))
	if err == nil || !strings.Contains(err.Error(), `did you mean "high"`) {
		t.Errorf("effort: %v", err)
	}
	_, err = Load(write(t, dir, "[profiles.c]\nthinking = \"enabled\"\n"))
	if err == nil || !strings.Contains(err.Error(), "must be adaptive") {
		t.Errorf("thinking: %v", err)
	}
}
