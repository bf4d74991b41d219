package cli

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/muesli/termenv"

	"muse/api"
	"muse/session"
)

type run struct {
	code           int
	stdout, stderr string
}

func runMain(t testing.TB, env map[string]string, stdin string, args ...string) run {
	t.Helper()
	var out, errb bytes.Buffer
	if env == nil {
		env = map[string]string{}
	}
	if _, ok := env["XDG_DATA_HOME"]; !ok {
		env["XDG_DATA_HOME"] = t.TempDir()
	}
	e := Env{
		Stdin: strings.NewReader(stdin), Stdout: &out, Stderr: &errb,
		Getenv: func(k string) string { return env[k] }, StdinPiped: stdin != "",
	}
	code := Main(args, e)
	return run{code, out.String(), errb.String()}
}

func TestDemoPrint(t *testing.T) {
	r := runMain(t, nil, "", "--demo", "-p", "hello")
	if r.code != 0 || !strings.Contains(r.stdout, "## hello") || !strings.HasSuffix(r.stdout, "\n") {
		t.Fatalf("code %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	if strings.ContainsRune(r.stdout, 0x1b) {
		t.Errorf("escape in non-terminal output")
	}
}

func TestDemoPrintJSON(t *testing.T) {
	for _, extra := range [][]string{nil, {"--no-stream"}} {
		r := runMain(t, nil, "", append([]string{"--demo", "-p", "hello", "--json"}, extra...)...)
		var m api.Message
		if r.code != 0 || json.Unmarshal([]byte(r.stdout), &m) != nil {
			t.Fatalf("%v: code %d stdout %q", extra, r.code, r.stdout)
		}
		if strings.Count(strings.TrimSpace(r.stdout), "\n") != 0 || m.StopReason != "end_turn" || !strings.Contains(m.Text(), "## hello") {
			t.Errorf("%v: not one JSON message: %q", extra, r.stdout)
		}
	}
}

func TestHostileOutputSanitized(t *testing.T) {
	r := runMain(t, nil, "", "--demo", "-p", "demo:hostile")
	if r.code != 0 || strings.ContainsAny(r.stdout, "\x1b\x07\u009b") {
		t.Errorf("code %d, raw control bytes in %q", r.code, r.stdout)
	}
}

func TestExitCodesAndMessages(t *testing.T) {
	cases := []struct {
		name string
		env  map[string]string
		args []string
		code int
		want string
	}{
		{"no base url", map[string]string{}, []string{"-p", "x"}, 2, "set MUSE_BASE_URL"},
		{"no model", map[string]string{"MUSE_BASE_URL": "http://127.0.0.1:1"}, []string{"-p", "x"}, 2, "set MUSE_MODEL"},
		{"no credential", map[string]string{"MUSE_BASE_URL": "https://llm.example.com:1", "MUSE_MODEL": "m"}, []string{"-p", "x"}, 2, "set MUSE_ACCESS_TOKEN"},
		{"bad url", map[string]string{"MUSE_BASE_URL": "ftp://x", "MUSE_MODEL": "m", "MUSE_API_KEY": "k"}, []string{"-p", "x"}, 2, "not an http(s) address"},
		{"bad flag", nil, []string{"--bogus"}, 2, "unknown flag: --bogus"},
		{"max tokens", nil, []string{"--demo", "-p", "x", "--max-tokens", "0"}, 2, "--max-tokens must be at least 1"},
		{"temperature", nil, []string{"--demo", "-p", "x", "--temperature", "1.5"}, 2, "between 0 and 1"},
		{"json alone", nil, []string{"--json"}, 2, "--json goes with -p"},
		{"empty prompt", nil, []string{"-p", " "}, 2, "-p needs a prompt"},
		{"stray arg", nil, []string{"hello"}, 2, "unexpected argument"},
		{"theme", nil, []string{"--theme", "pink"}, 2, "--theme must be"},
		{"theme typo", nil, []string{"--theme", "drak"}, 2, `got "drak" (did you mean "dark"?)`},
		{"api error", nil, []string{"--demo", "-p", "demo:overloaded"}, 1, "muse: 529 overloaded_error: Overloaded"},
		{"not a terminal", nil, []string{"--demo"}, 2, "needs a terminal"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r := runMain(t, tc.env, "", tc.args...)
			if r.code != tc.code || !strings.Contains(r.stderr, tc.want) {
				t.Errorf("code %d stderr %q, want %d and %q", r.code, r.stderr, tc.code, tc.want)
			}
		})
	}
}

func TestHelpAndVersion(t *testing.T) {
	r := runMain(t, nil, "", "--help")
	for _, want := range []string{"--demo", "-p, --print", "--continue", "MUSE_ACCESS_TOKEN", "--max-tokens", "--stop", "--provider-version", "Exit status"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("help lacks %q", want)
		}
	}
	if r := runMain(t, nil, "", "--version"); r.code != 0 || !strings.HasPrefix(r.stdout, "muse ") {
		t.Errorf("version: %+v", r)
	}
}

// TestRequestFromFlagsAndEnv checks what reaches the server: flags beat the
// environment, piped stdin follows the prompt, and the token never leaks.
func TestRequestFromFlagsAndEnv(t *testing.T) {
	var body map[string]any
	var hdr http.Header
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		json.Unmarshal(data, &body)
		hdr = r.Header
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"m","type":"message","role":"assistant","model":"flag-model","content":[{"type":"text","text":"ok"}],"stop_reason":"end_turn","usage":{"input_tokens":1,"output_tokens":1}}`)
	}))
	defer srv.Close()
	env := map[string]string{"MUSE_BASE_URL": srv.URL, "MUSE_MODEL": "env-model", "MUSE_ACCESS_TOKEN": "sekrit-token", "MUSE_PROVIDER_VERSION": "2024-02-02"}
	r := runMain(t, env, "piped text\n", "-p", "summarise", "--model", "flag-model", "--temperature", "0",
		"--stop", "A", "--stop", "B", "--system", "terse", "--top-k", "3", "--no-stream")
	if r.code != 0 || r.stdout != "ok\n" {
		t.Fatalf("code %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	if body["model"] != "flag-model" || body["temperature"] != 0.0 || body["system"] != "terse" || body["top_k"] != 3.0 || body["max_tokens"] != 4096.0 {
		t.Errorf("body %v", body)
	}
	if _, ok := body["top_p"]; ok {
		t.Errorf("unset top_p sent")
	}
	msgs := body["messages"].([]any)
	if c := msgs[0].(map[string]any)["content"]; c != "summarise\n\npiped text" {
		t.Errorf("content %q", c)
	}
	if hdr.Get("Authorization") != "Bearer sekrit-token" || hdr.Get("provider-version") != "2024-02-02" {
		t.Errorf("headers %v", hdr)
	}
	if strings.Contains(r.stdout+r.stderr, "sekrit") {
		t.Errorf("token leaked")
	}
}

func TestContinueAppendsToLatestSession(t *testing.T) {
	env := map[string]string{"XDG_DATA_HOME": t.TempDir()}
	// No session yet: a clear error.
	if r := runMain(t, env, "", "--demo", "-c", "-p", "again"); r.code != 1 || !strings.Contains(r.stderr, "no saved session yet") {
		t.Fatalf("no session: %+v", r)
	}
	first := runMain(t, env, "", "--demo", "-p", "hello")
	if first.code != 0 {
		t.Fatal(first.stderr)
	}
	store, err := session.Open(filepath.Join(env["XDG_DATA_HOME"], "muse", "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	w := session.NewWriter(store, session.Params{Model: "demo-chat", MaxTokens: 100})
	if err := w.AppendAll([]session.Entry{
		{ID: "e1", Kind: session.KindUser, Text: "first question"},
		{ID: "e2", Kind: session.KindAssistant, Message: &api.Message{Content: []api.ContentBlock{{Type: "text", Text: "first answer"}}}},
	}); err != nil {
		t.Fatal(err)
	}
	w.Close()
	sess := w.Snapshot()
	r := runMain(t, env, "", "--demo", "-c", "-p", "again", "--json")
	var m api.Message
	if r.code != 0 || json.Unmarshal([]byte(r.stdout), &m) != nil {
		t.Fatalf("continue: %+v", r)
	}
	// The demo counts the words of every message sent: history went along.
	if m.Usage.InputTokens != 5 {
		t.Errorf("input tokens %d, want 5 (history + prompt)", m.Usage.InputTokens)
	}
	back, err := store.Load(sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.Entries) != 4 || back.Entries[2].Text != "again" || back.Entries[3].Message.Text() == "" || back.Entries[3].Parent != back.Entries[2].ID || back.Entries[2].Parent != "e2" {
		t.Errorf("entries after -c -p: %+v", back.Entries)
	}
}

func TestNoColorReachesTheProfile(t *testing.T) {
	get := func(env map[string]string) termenv.Profile {
		return termenv.NewOutput(io.Discard, termenv.WithEnvironment(environ{func(k string) string { return env[k] }})).EnvColorProfile()
	}
	if p := get(map[string]string{"CLICOLOR_FORCE": "1"}); p == termenv.Ascii {
		t.Errorf("CLICOLOR_FORCE gave no colour")
	}
	if p := get(map[string]string{"CLICOLOR_FORCE": "1", "NO_COLOR": "1"}); p != termenv.Ascii {
		t.Errorf("NO_COLOR gave profile %v, want Ascii", p)
	}
}
