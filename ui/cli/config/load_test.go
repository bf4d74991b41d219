package config

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"muse/ui/keyaction"
	"muse/ui/mcp/mcpcfg"
	"muse/ui/tomlfile"
)

// write puts text in dir/config.toml and returns the path.
func write(t *testing.T, dir, text string) string {
	t.Helper()
	path := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(path, []byte(text), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

const full = `default_profile = "work"

[profiles.work]
base_url = "https://llm.example.com"
access_token_env = "WORK_TOKEN"
access_token_cmd = "pass show llm/token"
api_key_env = "WORK_KEY"
api_key_cmd = "pass show llm/key"
provider_version = "2023-06-01"
version_header = "anthropic-version"
model = "chat-1"
image_model = "image-1"
max_tokens = 4096
temperature = 0.7
top_p = 1
top_k = 40
stop_sequences = ["STOP", """
END"""]
system = """
Be brief.
Be kind."""
thinking_budget = 2048
image_size = "1024*768"
negative_prompt = "blurry"
prompt_extend = true
watermark = false
user_id = "u-1"
theme = "dark"
notify = "osc9"
sync = "auto"
sync_images = false
sync_key_cmd = "pass show muse/sync"
max_tool_rounds = 5
context_window = 200000
price_input = 3
price_output = 15
price_cache_read = 0.3
price_cache_write = 3.75
auto_compact = true
save = false
mouse = true
allow_insecure_http = false
effort = "high"
image_base_url = "https://img.example.com"
image_api = "openai"
image_access_token_env = "IMG_TOKEN"
image_access_token_cmd = "pass show img"
image_quality = "high"
image_background = "opaque"
image_output_format = "webp"
mcp_expand_env = true
mcp_roots = true
tool_timeout = "1m30s"
credential_timeout = "45s"
request_timeout = "20m"
stall_timeout = "5m"
stall_size = 4194304

[profiles.work.keys]
send = ["enter"]
newline = ["alt+enter", "ctrl+j"]

[[profiles.work.tools]]
name = "get_time"
description = "The time."
input_schema = { type = "object", properties = { tz = { type = "string" } } }
command = ["date", "-u"]

[[profiles.work.tools]]
name = "lookup"
input_schema_file = "schema.json"

[profiles.work.mcp.files]
command = "npx"
args = ["-y", "@modelcontextprotocol/server-filesystem", "."]
env = { DEBUG = "1" }
allow = ["read_text_file"]

[profiles.work.mcp.tracker]
type = "http"
url = "https://mcp.example.com/mcp"
headers = { X-Team = "blue" }
token_env = "TRACKER_TOKEN"

[profiles."home lab"]
base_url = "http://127.0.0.1:8080"
model = "local"
`

func TestLoadFull(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "schema.json"), []byte(`{
  "type": "object",
  "properties": {"q": {"type": "string"}}
}`), 0o600); err != nil {
		t.Fatal(err)
	}
	path := write(t, dir, full)
	f, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if f.Path != path || f.DefaultProfile != "work" {
		t.Errorf("file = %q, default %q", f.Path, f.DefaultProfile)
	}
	if got := f.Names(); !reflect.DeepEqual(got, []string{"home lab", "work"}) {
		t.Errorf("names = %q", got)
	}
	i := func(n int) *int { return &n }
	fl := func(x float64) *float64 { return &x }
	b := func(x bool) *bool { return &x }
	want := &Profile{
		Name:                "work",
		BaseURL:             "https://llm.example.com",
		AccessTokenEnv:      "WORK_TOKEN",
		AccessTokenCmd:      "pass show llm/token",
		APIKeyEnv:           "WORK_KEY",
		APIKeyCmd:           "pass show llm/key",
		ProviderVersion:     "2023-06-01",
		VersionHeader:       "anthropic-version",
		Model:               "chat-1",
		ImageModel:          "image-1",
		System:              "Be brief.\nBe kind.",
		UserID:              "u-1",
		Theme:               "dark",
		Notify:              "osc9",
		ImageSize:           "1024*768",
		NegativePrompt:      "blurry",
		MaxTokens:           i(4096),
		TopK:                i(40),
		ThinkingBudget:      i(2048),
		MaxToolRounds:       i(5),
		ContextWindow:       i(200000),
		PriceInput:          3,
		PriceOutput:         15,
		PriceCacheRead:      0.3,
		PriceCacheWrite:     3.75,
		Temperature:         fl(0.7),
		TopP:                fl(1),
		PromptExtend:        b(true),
		Watermark:           b(false),
		Save:                b(false),
		AutoCompact:         b(true),
		Mouse:               b(true),
		MCPExpandEnv:        b(true),
		MCPRoots:            b(true),
		AllowInsecureHTTP:   b(false),
		Sync:                "auto",
		SyncImages:          b(false),
		SyncKeyCmd:          "pass show muse/sync",
		Effort:              "high",
		ImageBaseURL:        "https://img.example.com",
		ImageAPI:            "openai",
		ImageAccessTokenEnv: "IMG_TOKEN",
		ImageAccessTokenCmd: "pass show img",
		ImageQuality:        "high",
		ImageBackground:     "opaque",
		ImageOutputFormat:   "webp",
		ToolTimeout:         90 * time.Second,
		CredentialTimeout:   45 * time.Second,
		RequestTimeout:      20 * time.Minute,
		StallTimeout:        5 * time.Minute,
		StallSize:           i(4194304),
		StopSequences:       []string{"STOP", "END"},
		Keys:                map[string][]string{"send": {"enter"}, "newline": {"alt+enter", "ctrl+j"}},
		Tools: []Tool{
			{
				Name:        "get_time",
				Description: "The time.",
				InputSchema: json.RawMessage(`{"properties":{"tz":{"type":"string"}},"type":"object"}`),
				Command:     []string{"date", "-u"},
			},
			{
				Name:        "lookup",
				InputSchema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}}}`),
			},
		},
		MCP: []mcpcfg.Server{
			{Name: "files", Where: f.Path + ":73", Command: "npx", Args: []string{"-y", "@modelcontextprotocol/server-filesystem", "."},
				Env: map[string]string{"DEBUG": "1"}, Allow: []string{"read_text_file"}},
			{Name: "tracker", Where: f.Path + ":79", Type: "http", URL: "https://mcp.example.com/mcp",
				Headers: map[string]string{"X-Team": "blue"}, TokenEnv: "TRACKER_TOKEN"},
		},
	}
	got, err := f.Select("")
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("profile:\n got %+v\nwant %+v", got, want)
	}
	home, err := f.Select("home lab")
	if err != nil || home.BaseURL != "http://127.0.0.1:8080" || home.Model != "local" || home.MaxTokens != nil {
		t.Errorf("home lab = %+v, %v", home, err)
	}
}

func TestLoadMissingFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "muse", "config.toml")
	f, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if f.Path != path || f.DefaultProfile != "" || len(f.Profiles) != 0 {
		t.Errorf("file = %+v", f)
	}
	if p, err := f.Select(""); p != nil || err != nil {
		t.Errorf("Select(\"\") = %v, %v", p, err)
	}
}

func TestLoadUnreadable(t *testing.T) {
	dir := t.TempDir()
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "read config") {
		t.Errorf("Load(dir) = %v", err)
	}
}

func TestSelect(t *testing.T) {
	dir := t.TempDir()
	f, err := Load(write(t, dir, "[profiles.a]\nmodel = \"m\"\n[profiles.b]\n"))
	if err != nil {
		t.Fatal(err)
	}
	if p, err := f.Select(""); p != nil || err != nil {
		t.Errorf("no default: Select(\"\") = %v, %v", p, err)
	}
	if p, err := f.Select("b"); err != nil || p.Name != "b" {
		t.Errorf("Select(b) = %v, %v", p, err)
	}
	_, err = f.Select("c")
	if err == nil || !strings.Contains(err.Error(), `no profile "c"`) || !strings.Contains(err.Error(), `known profiles are "a", "b"`) {
		t.Errorf("Select(c) = %v", err)
	}
	f.DefaultProfile = "a"
	if p, err := f.Select(""); err != nil || p.Name != "a" || p.Model != "m" {
		t.Errorf("default: Select(\"\") = %v, %v", p, err)
	}
	empty := &File{Path: "x.toml"}
	if _, err := empty.Select("a"); err == nil || !strings.Contains(err.Error(), "defines no profiles") {
		t.Errorf("empty Select(a) = %v", err)
	}
	var none *File
	if p, err := none.Select(""); p != nil || err != nil {
		t.Errorf("nil Select = %v, %v", p, err)
	}
}

func TestDefaultPath(t *testing.T) {
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
	for _, tc := range []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"XDG_CONFIG_HOME": "/x", "HOME": "/h"}, "/x/muse/config.toml"},
		{map[string]string{"XDG_CONFIG_HOME": "rel", "HOME": "/h"}, "/h/.config/muse/config.toml"},
		{map[string]string{"HOME": "/h"}, "/h/.config/muse/config.toml"},
	} {
		if got, err := DefaultPath(env(tc.env)); err != nil || got != tc.want {
			t.Errorf("DefaultPath(%v) = %q, %v; want %q", tc.env, got, err, tc.want)
		}
	}
	if _, err := DefaultPath(env(nil)); err == nil {
		t.Error("DefaultPath with no HOME: no error")
	}
}

// TestLoadErrors checks each kind of problem, the line it is reported at and
// the message.
func TestLoadErrors(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		line       int
		msg        string
	}{
		{"unknown key", "[profiles.work]\nmodel = \"m\"\n\ntemprature = 0.5\n", 4,
			`unknown key "temprature" in [profiles.work] (did you mean "temperature"?)`},
		{"unknown key far off", "[profiles.work]\nzzz = 1\n", 2, `unknown key "zzz" in [profiles.work]`},
		{"unknown top-level key", "defualt_profile = \"w\"\n", 1,
			`unknown key "defualt_profile" at the top level (did you mean "default_profile"?)`},
		{"profile key at top level", "model = \"m\"\n", 1,
			`unknown key "model" at the top level (profile settings belong in a [profiles.NAME] table)`},
		{"wrong type", "[profiles.w]\nmodel = \"m\"\n\n\nmax_tokens = \"lots\"\n", 5,
			`max_tokens must be an integer, got string "lots"`},
		{"float for integer", "[profiles.w]\ntop_k = 1.5\n", 2, `top_k must be an integer, got float 1.5`},
		{"string for number", "[profiles.w]\ntemperature = \"hot\"\n", 2, `temperature must be a number, got string "hot"`},
		{"string for bool", "[profiles.w]\nwatermark = \"yes\"\n", 2, `watermark must be true or false, got string "yes"`},
		{"temperature range", "[profiles.w]\nmodel = \"m\"\n\n\n\ntemperature = 1.5\n", 6,
			`temperature must be between 0 and 1, got 1.5`},
		{"top_p range", "[profiles.w]\ntop_p = -0.1\n", 2, `top_p must be between 0 and 1, got -0.1`},
		{"max_tokens", "[profiles.w]\nmax_tokens = 0\n", 2, `max_tokens must be at least 1, got 0`},
		{"top_k", "[profiles.w]\ntop_k = 0\n", 2, `top_k must be at least 1, got 0`},
		{"max_tool_rounds", "[profiles.w]\nmax_tool_rounds = -1\n", 2, `max_tool_rounds must be at least 1, got -1`},
		{"context_window", "[profiles.w]\ncontext_window = 0\n", 2, `context_window must be at least 1, got 0`},
		{"price", "[profiles.w]\nprice_output = -1\n", 2, `price_output must be dollars per million tokens, 0 or more, got -1`},
		{"price typo", "[profiles.w]\nprice_inptu = 3\n", 2, `did you mean "price_input"`},
		{"thinking_budget low", "[profiles.w]\nthinking_budget = 512\n", 2, `thinking_budget must be at least 1024, got 512`},
		{"thinking_budget vs max_tokens", "[profiles.w]\nthinking_budget = 4096\nmax_tokens = 4096\n", 2,
			`thinking_budget must be less than max_tokens (4096), got 4096`},
		{"image_size", "[profiles.w]\nimage_size = \"1024x1024\"\n", 2,
			`image_size must be WIDTH*HEIGHT with positive numbers such as "1024*1024", got "1024x1024"`},
		{"image_size zero", "[profiles.w]\nimage_size = \"0*10\"\n", 2, `image_size must be WIDTH*HEIGHT`},
		{"theme", "[profiles.w]\ntheme = \"blue\"\n", 2, `theme must be one of dark, light, auto, high-contrast, nord, solarized-light, or the path of a theme file (.toml); got "blue"`},
		{"notify", "[profiles.w]\nnotify = \"beep\"\n", 2, `notify must be off, bell, osc9, osc777; got "beep" (did you mean "bell"?)`},
		{"theme typo", "[profiles.w]\ntheme = \"drak\"\n", 2, `or the path of a theme file (.toml); got "drak" (did you mean "dark"?)`},
		{"sync typo", "[profiles.w]\nsync = \"autp\"\n", 2, `sync must be auto, manual; got "autp" (did you mean "auto"?)`},
		{"version_header", "[profiles.w]\nversion_header = \"provider version\"\n", 2,
			`version_header must be an HTTP header name such as "anthropic-version", got "provider version"`},
		{"provider_version", "[profiles.w]\nprovider_version = \"a\\nb\"\n", 2, `provider_version must not contain control characters`},
		{"base_url scheme", "[profiles.w]\nbase_url = \"ftp://x\"\n", 2,
			`base_url must be an http(s) address such as "https://llm.example.com", got "ftp://x"`},
		{"base_url no host", "[profiles.w]\nbase_url = \"llm.example.com\"\n", 2, `base_url must be an http(s) address`},
		{"empty model", "[profiles.w]\nmodel = \" \"\n", 2, `model must not be empty`},
		{"env name", "[profiles.w]\naccess_token_env = \"sk-secret-123\"\n", 2,
			`access_token_env must name an environment variable such as WORK_TOKEN`},
		{"empty command", "[profiles.w]\napi_key_cmd = \"\"\n", 2, `api_key_cmd must be a shell command`},
		{"stop_sequences type", "[profiles.w]\nstop_sequences = \"STOP\"\n", 2,
			`stop_sequences must be a list of strings such as ["\n\nHuman:"], got string "STOP"`},
		{"stop_sequences item", "[profiles.w]\nstop_sequences = [\n  \"a\",\n  3,\n]\n", 4,
			`stop_sequences must be a list of strings such as ["\n\nHuman:"], got integer 3 as item 2`},
		{"stop_sequences empty item", "[profiles.w]\nstop_sequences = [\"a\", \"\"]\n", 2, `stop_sequences item 2 must not be empty`},
		{"credential", "[profiles.w]\nmodel = \"m\"\naccess_token = \"sk-secret-123\"\n", 3,
			`credentials are not read from the file: use access_token_env or access_token_cmd`},
		{"token", "[profiles.w]\ntoken = \"sk-secret-123\"\n", 2,
			`credentials are not read from the file: use access_token_env or access_token_cmd`},
		{"api_key", "[profiles.w]\napi_key = \"sk-secret-123\"\n", 2,
			`credentials are not read from the file: use api_key_env or api_key_cmd`},
		{"top-level credential", "access_token = \"sk-secret-123\"\n", 1,
			`credentials are not read from the file: use access_token_env or access_token_cmd`},
		{"default_profile unknown", "default_profile = \"wrok\"\n[profiles.work]\n", 1,
			`default_profile "wrok" names no profile: expected one of "work"`},
		{"default_profile no profiles", "\ndefault_profile = \"work\"\n", 2,
			`default_profile "work" names no profile: add a [profiles.work] table`},
		{"default_profile type", "default_profile = 1\n", 1, `default_profile must be a string, got integer 1`},
		{"profile not a table", "[profiles]\nwork = 1\n", 2, `profile "work" must be a table [profiles.work], got integer 1`},
		{"profiles not a table", "profiles = [1]\n", 1, `profiles must be a table of [profiles.NAME] tables, got array`},
		{"unknown action", "[profiles.w.keys]\nsend = [\"enter\"]\nsned = [\"x\"]\n", 3,
			`unknown action "sned" in [profiles.w.keys] (did you mean "send"?): actions are send newline cancel`},
		{"empty key list", "[profiles.w.keys]\ncancel = []\n", 2, `cancel has no keys: list at least one`},
		{"key list type", "[profiles.w.keys]\nsend = \"enter\"\n", 2, `send must be a list of strings such as ["enter"], got string "enter"`},
		{"empty key", "[profiles.w.keys]\nsend = [\"enter\", \"\"]\n", 2, `send: key 2 is empty`},
		{"key bound twice", "[profiles.w.keys]\nnewline = [\"enter\"]\nsend = [\"enter\"]\n", 3,
			`key "enter" is bound to both newline and send`},
		{"keys not a table", "[profiles.w]\nkeys = 1\n", 2, `keys must be a table such as`},
		{"tool without name", "[profiles.w]\nmodel = \"m\"\n[[profiles.w.tools]]\ndescription = \"d\"\ninput_schema = { type = \"object\" }\n", 3,
			`tool 1 has no name: add name = "get_time" to [[profiles.w.tools]]`},
		{"tool bad name", "[[profiles.w.tools]]\nname = \"get time\"\ninput_schema = { type = \"object\" }\n", 2,
			`name must be 1 to 64 letters, digits, _ or -, got "get time"`},
		{"duplicate tool", "[[profiles.w.tools]]\nname = \"t\"\ninput_schema = { type = \"object\" }\n\n[[profiles.w.tools]]\nname = \"t\"\ninput_schema = { type = \"object\" }\n", 6,
			`name "t" is used by two tools (first at line 2): tool names must differ`},
		{"schema not a table", "[[profiles.w.tools]]\nname = \"t\"\ninput_schema = \"object\"\n", 3,
			`input_schema must be a table such as { type = "object", properties = { tz = { type = "string" } } }, got string "object"`},
		{"schema not an object", "[[profiles.w.tools]]\nname = \"t\"\ninput_schema = { type = \"string\" }\n", 3,
			`input_schema must have type "object", got string "string"`},
		{"schema missing", "[[profiles.w.tools]]\nname = \"t\"\n", 2, `tool 1 needs an input_schema such as { type = "object"`},
		{"schema twice", "[[profiles.w.tools]]\nname = \"t\"\ninput_schema = { type = \"object\" }\ninput_schema_file = \"s.json\"\n", 4,
			`input_schema_file cannot be used together with input_schema: keep one`},
		{"schema file missing", "[[profiles.w.tools]]\nname = \"t\"\ninput_schema_file = \"nope.json\"\n", 3,
			`input_schema_file "nope.json": cannot read it`},
		{"empty command", "[[profiles.w.tools]]\nname = \"t\"\ninput_schema = { type = \"object\" }\ncommand = []\n", 4,
			`tool 1: command must name the program and its arguments, such as ["date", "-u"], got an empty list`},
		{"empty program", "[[profiles.w.tools]]\nname = \"t\"\ninput_schema = { type = \"object\" }\ncommand = [\n  \"\",\n]\n", 5,
			`tool 1: command must name the program and its arguments, such as ["date", "-u"], got an empty program`},
		{"empty argument", "[[profiles.w.tools]]\nname = \"t\"\ninput_schema = { type = \"object\" }\ncommand = [\"ls\", \"\"]\n", 4,
			`tool 1: command item 2 is empty: leave it out`},
		{"command type", "[[profiles.w.tools]]\nname = \"t\"\ninput_schema = { type = \"object\" }\ncommand = \"date\"\n", 4,
			`command must be a list of strings such as ["date", "-u"], got string "date"`},
		{"unknown tool key", "[[profiles.w.tools]]\nname = \"t\"\ninput_schema = { type = \"object\" }\ncmd = [\"date\"]\n", 4,
			`unknown key "cmd" in [[profiles.w.tools]] (did you mean "command"?)`},
		{"second tool's line", "[[profiles.w.tools]]\nname = \"a\"\ninput_schema = { type = \"object\" }\n[[profiles.w.tools]]\nname = \"b\"\ninput_schema = 1\n", 6,
			`input_schema must be a table`},
		{"inline tools", "[profiles.w]\ntools = [\n  { name = \"a\", input_schema = { type = \"object\" } },\n  { name = \"b\", input_schema = { type = \"array\" } },\n]\n", 4,
			`input_schema must have type "object", got string "array"`},
		{"tools not an array", "[profiles.w]\ntools = 1\n", 2, `tools must be an array of [[profiles.NAME.tools]] tables, got integer 1`},
		{"dotted key through a value", "[profiles.w]\nmodel.x = 1\n", 2, `model must be a string, got table`},
		{"header through a value", "[profiles.w.model.x]\n", 1, `model must be a string, got table`},
		{"array of profiles", "[[profiles]]\nmodel = \"m\"\n", 1, `profiles must be a table of [profiles.NAME] tables, got array`},
		{"tools as a table", "[profiles.w]\nmodel = \"m\"\n[profiles.w.tools]\nname = \"t\"\n", 3, `tools must be an array of [[profiles.NAME.tools]] tables, got table`},
		{"quoted profile", "[profiles.\"my work\"]\nmodle = \"m\"\n", 2, `unknown key "modle" in [profiles."my work"] (did you mean "model"?)`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := write(t, t.TempDir(), tc.text)
			_, err := Load(path)
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Load = %v, want an *Error", err)
			}
			if e.Path != path || e.Line != tc.line || !strings.Contains(e.Msg, tc.msg) {
				t.Errorf("error = %q\nwant line %d and %q", err, tc.line, tc.msg)
			}
			// The place is FILE:LINE:COL.
			if want := path + ":" + strconv.Itoa(tc.line) + ":" + strconv.Itoa(e.Col) + ": "; e.Col == 0 || !strings.HasPrefix(err.Error(), want) {
				t.Errorf("error %q does not start with %q", err, want)
			}
			if strings.Contains(err.Error(), "sk-secret") {
				t.Errorf("error %q repeats the secret", err)
			}
		})
	}
}

func TestLoadSyntaxError(t *testing.T) {
	path := write(t, t.TempDir(), "[profiles.w]\nmodel = \"m\"\nmax_tokens = = 3\n")
	_, err := Load(path)
	var e *Error
	if !errors.As(err, &e) || e.Line != 3 || e.Col == 0 {
		t.Fatalf("Load = %#v", err)
	}
	if want := path + ":3:" + strconv.Itoa(e.Col) + ": "; !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error %q does not start with %q", err, want)
	}
}

func TestLoadDuplicateKeyIsSyntaxError(t *testing.T) {
	_, err := Load(write(t, t.TempDir(), "[profiles.w]\nmodel = \"a\"\nmodel = \"b\"\n"))
	var e *Error
	if !errors.As(err, &e) || e.Line != 3 {
		t.Fatalf("Load = %v", err)
	}
}

func TestLoadSeveralErrors(t *testing.T) {
	_, err := Load(write(t, t.TempDir(), "[profiles.w]\ntop_k = 0\ntheme = \"x\"\n[profiles.a]\nmax_tokens = 0\n"))
	if err == nil {
		t.Fatal("no error")
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != 3 || !strings.Contains(lines[0], ":2:1: top_k") || !strings.Contains(lines[1], ":3:1: theme") || !strings.Contains(lines[2], ":5:1: max_tokens") {
		t.Errorf("errors = %q", lines)
	}
	var e *Error
	if !errors.As(err, &e) || e.Line != 2 {
		t.Errorf("first error = %v", e)
	}
}

func TestSchemaFile(t *testing.T) {
	dir := t.TempDir()
	sub := filepath.Join(dir, "schemas")
	if err := os.Mkdir(sub, 0o700); err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{
		"ok.json":    `{"type": "object", "properties": {}}`,
		"array.json": `[1, 2]`,
		"bad.json":   "{\n  \"type\": \"object\",\n  oops\n}",
	} {
		if err := os.WriteFile(filepath.Join(sub, name), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	tool := func(file string) string {
		return "[[profiles.w.tools]]\nname = \"t\"\ninput_schema_file = \"" + file + "\"\n"
	}
	f, err := Load(write(t, dir, tool("schemas/ok.json")))
	if err != nil {
		t.Fatal(err)
	}
	if got := string(f.Profiles["w"].Tools[0].InputSchema); got != `{"type":"object","properties":{}}` {
		t.Errorf("schema = %s", got)
	}
	abs := filepath.Join(sub, "ok.json")
	if _, err := Load(write(t, dir, tool(abs))); err != nil {
		t.Errorf("absolute path: %v", err)
	}
	_, err = Load(write(t, dir, tool("schemas/array.json")))
	if err == nil || !strings.Contains(err.Error(), `:3:1: tool 1: input_schema_file "schemas/array.json": must be a JSON object schema`) {
		t.Errorf("array schema: %v", err)
	}
	_, err = Load(write(t, dir, tool("schemas/bad.json")))
	if err == nil || !strings.Contains(err.Error(), filepath.Join(sub, "bad.json")+":3:3: invalid JSON") {
		t.Errorf("bad schema: %v", err)
	}
}

func TestLoadMoreErrors(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		line       int
		msg        string
	}{
		{"base_url with password", "[profiles.w]\nbase_url = \"https://me:sk-secret-1@llm.example.com\"\n", 2,
			`base_url must not hold a user name or password: use access_token_env or api_key_env`},
		{"empty profile name", "[profiles.\"\"]\nmodel = \"m\"\n", 1, `a profile needs a name`},
		{"exponent", "[profiles.w]\nmax_tokens = 1e3\n", 2, `max_tokens must be an integer, got float 1000`},
		{"date", "[profiles.w]\nmodel = 1979-05-27\n", 2, `model must be a string, got date-time 1979-05-27`},
		{"key as credential", "[profiles.w]\nkey = \"sk-secret-1\"\n", 2, `use api_key_env or api_key_cmd`},
		{"tool not a table", "[profiles.w]\ntools = [1]\n", 2, `tool 1 must be a table such as`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Load(write(t, t.TempDir(), tc.text))
			var e *Error
			if !errors.As(err, &e) || e.Line != tc.line || !strings.Contains(e.Msg, tc.msg) {
				t.Errorf("error = %v\nwant line %d and %q", err, tc.line, tc.msg)
			}
			if err != nil && strings.Contains(err.Error(), "sk-secret") {
				t.Errorf("error %q repeats the secret", err)
			}
		})
	}
}

func TestLoadCapsErrors(t *testing.T) {
	var sb strings.Builder
	sb.WriteString("[profiles.w]\n")
	for i := range 15 {
		sb.WriteString("bad" + strconv.Itoa(i) + " = 1\n")
	}
	_, err := Load(write(t, t.TempDir(), sb.String()))
	if err == nil {
		t.Fatal("no error")
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != maxErrors+1 || !strings.HasSuffix(lines[maxErrors], "… and 5 more problems") {
		t.Errorf("errors:\n%s", err)
	}
}

// The commented example lists the actions a [keys] table may bind.
func TestExampleListsTheActions(t *testing.T) {
	_, rest, _ := strings.Cut(example, "Actions: ")
	list, _, _ := strings.Cut(rest, ".")
	got := strings.Fields(strings.ReplaceAll(list, "#", " "))
	if want := keyaction.Names(); !slices.Equal(got, want) {
		t.Errorf("the example lists the actions %q, want %q", got, want)
	}
}

// Bad [profiles.NAME.mcp.SERVER] tables are reported at their line.
func TestLoadBadMCP(t *testing.T) {
	text := `[profiles.w]
model = "m"
[profiles.w.mcp.a]
args = ["x"]
[profiles.w.mcp.b]
command = "x"
url = "https://h/"
[profiles.w.mcp.c]
url = "https://h/"
headers = { Authorization = "Bearer sekrit" }
[profiles.w.mcp.d]
command = "x"
token = "sekrit"
[profiles.w.mcp.e]
commnd = "x"
[profiles.w.mcp."bad name"]
command = "x"
`
	_, err := Load(write(t, t.TempDir(), text))
	if err == nil {
		t.Fatal("no error")
	}
	got := err.Error()
	for _, want := range []string{
		`:3:17: [profiles.w.mcp.a] needs command = "..." (a stdio server) or url`,
		`:5:17: [profiles.w.mcp.b] takes command (a stdio server) or url (an HTTP server), not both`,
		`:10:1: headers must not hold Authorization`,
		`:13:1: token is not read: credentials are not read from the file: use token_env or token_cmd`,
		`:15:1: unknown key "commnd" in [profiles.w.mcp.e] (did you mean "command"?)`,
		`:16:17: [profiles.w.mcp."bad name"] must be named with 1 to 32 letters`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("errors lack %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "sekrit") {
		t.Errorf("a secret is repeated:\n%s", got)
	}
}

// A value of the wrong kind, an unknown key and a value out of range are
// reported together, in the order of the file; a refused value brings no
// second message (a tool whose name is no string is not also nameless).
func TestLoadReportsAllAtOnce(t *testing.T) {
	text := "[profiles.w]\nmax_tokens = \"lots\"\ntemprature = 0.5\ntop_p = 2\n[[profiles.w.tools]]\nname = 1\ninput_schema = { type = \"object\" }\n"
	path := write(t, t.TempDir(), text)
	_, err := Load(path)
	if err == nil {
		t.Fatal("no error")
	}
	want := []string{
		path + `:2:14: max_tokens must be an integer, got string "lots"`,
		path + `:3:1: unknown key "temprature" in [profiles.w] (did you mean "temperature"?)`,
		path + `:4:1: top_p must be between 0 and 1, got 2`,
		path + `:6:8: tool 1: name must be a string, got integer 1`,
	}
	if got := strings.Split(err.Error(), "\n"); !slices.Equal(got, want) {
		t.Errorf("errors:\n%s\nwant:\n%s", err, strings.Join(want, "\n"))
	}
}

// MCP servers keep the file's order, which is not their names'.
func TestLoadMCPOrder(t *testing.T) {
	f, err := Load(write(t, t.TempDir(), "[profiles.w.mcp.zeta]\ncommand = \"z\"\n[profiles.w.mcp.alpha]\ncommand = \"a\"\n[profiles.w.mcp.mid]\ncommand = \"m\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, s := range f.Profiles["w"].MCP {
		names = append(names, s.Name)
	}
	if !slices.Equal(names, []string{"zeta", "alpha", "mid"}) {
		t.Errorf("servers in order %q", names)
	}
}

// A profile's MCP table is decoded into the one server type, whose toml
// tags are the one list of its keys.
func TestMCPKeysAreTheServerTags(t *testing.T) {
	if got := tomlfile.Keys(reflect.TypeFor[mcpcfg.Server]()); !slices.Equal(got, mcpcfg.ProfileKeys) {
		t.Errorf("mcpcfg.Server's toml tags %q, ProfileKeys %q", got, mcpcfg.ProfileKeys)
	}
}
