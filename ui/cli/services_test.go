package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"muse/api/standin"
	cfgfile "muse/ui/cli/config"
)

// TestRecipes runs each recipe of the README's Services section, as muse
// config init --service writes it, against a stand-in that enforces that
// provider's documented rules (api/standin): its base path, auth scheme,
// version header, thinking form, refused sampling parameters and models
// list. Only the address's scheme and host are swapped for the
// stand-in's; a recipe with a wrong path, credential or thinking form
// fails here. A refused setting gets the hint that names muse's setting.
func TestRecipes(t *testing.T) {
	for _, s := range cfgfile.Services {
		rules, ok := standin.Providers[s.Name]
		if s.BaseURL == "" {
			continue // images only: TestRecipeOpenAIImages
		}
		if !ok {
			t.Errorf("recipe %s has no stand-in", s.Name)
			continue
		}
		t.Run(s.Name, func(t *testing.T) {
			srv := standin.Start(rules, "key-"+s.Name)
			defer srv.Close()
			env := map[string]string{"XDG_CONFIG_HOME": t.TempDir(), "XDG_DATA_HOME": t.TempDir(), "XDG_CACHE_HOME": t.TempDir(), "XDG_STATE_HOME": t.TempDir()}
			for _, v := range []string{s.TokenEnv, s.KeyEnv, s.ImageTokenEnv} {
				if v != "" {
					env[v] = "key-" + s.Name
				}
			}
			if r := runMain(t, env, "", "config", "init", "--service", s.Name); r.code != 0 {
				t.Fatalf("init: %+v", r)
			}
			path := filepath.Join(env["XDG_CONFIG_HOME"], "muse", "config.toml")
			text, _ := os.ReadFile(path)
			origin := s.BaseURL
			if i := strings.Index(origin[len("https://"):], "/"); i >= 0 {
				origin = origin[:len("https://")+i]
			}
			os.WriteFile(path, []byte(strings.ReplaceAll(string(text), origin, srv.URL)), 0o600)

			r := runMain(t, env, "", "-p", "hi")
			if r.code != 0 || !strings.Contains(r.stdout, "Hello from "+s.Name+".") {
				t.Fatalf("the recipe does not work: %+v", r)
			}
			reqs := srv.Requests()
			th, _ := reqs[len(reqs)-1].Body["thinking"].(map[string]any)
			if s.Adaptive && (th["type"] != "adaptive" || reqs[len(reqs)-1].Body["output_config"] == nil) {
				t.Errorf("adaptive thinking not sent: %v", reqs[len(reqs)-1].Body)
			}
			for _, p := range rules.Refuse {
				flag := "--" + strings.ReplaceAll(p, "_", "-")
				val := "0.5"
				if p == "top_k" {
					val = "5"
				}
				r := runMain(t, env, "", "-p", "hi", flag, val)
				if r.code != 1 || !strings.Contains(r.stderr, "leave out "+flag) {
					t.Errorf("%s refused: %+v", p, r)
				}
			}
			switch rules.Thinking {
			case standin.ThinkAdaptive:
				if r := runMain(t, env, "", "-p", "hi", "--thinking-budget", "2048"); r.code != 1 || !strings.Contains(r.stderr, "--thinking adaptive") {
					t.Errorf("budget refused: %+v", r)
				}
			case standin.ThinkBudget:
				if r := runMain(t, env, "", "-p", "hi", "--thinking", "adaptive"); r.code != 1 || !strings.Contains(r.stderr, "a budget such as --thinking-budget 2048") {
					t.Errorf("adaptive refused: %+v", r)
				}
				if r := runMain(t, env, "", "-p", "hi", "--thinking-budget", "2048"); r.code != 0 {
					t.Errorf("budget: %+v", r)
				}
			}
			r = runMain(t, env, "", "models")
			switch {
			case rules.Models == standin.ModelsNone && (r.code != 0 || !strings.Contains(r.stderr, "lists no models")):
				t.Errorf("no models list: %+v", r)
			case rules.Models != standin.ModelsNone && len(rules.ModelIDs) > 0 && !strings.HasPrefix(r.stdout, rules.ModelIDs[0]):
				t.Errorf("models: %+v", r)
			}
			if strings.Contains(r.stdout+r.stderr, "key-"+s.Name) {
				t.Error("a credential was printed")
			}
		})
	}
}

// The OpenAI images recipe: chat from the ANTHROPIC_* variables, images
// from an OpenAI-shaped service with its own key.
func TestRecipeOpenAIImages(t *testing.T) {
	s, err := cfgfile.LookupService("openai-images")
	if err != nil {
		t.Fatal(err)
	}
	chat := standin.Start(standin.Providers["anthropic"], "chat-key")
	defer chat.Close()
	img := standin.StartOpenAIImages("img-key")
	defer img.Close()
	env := map[string]string{"XDG_CONFIG_HOME": t.TempDir(), "XDG_DATA_HOME": t.TempDir(), "XDG_CACHE_HOME": t.TempDir(),
		"ANTHROPIC_BASE_URL": chat.URL, "ANTHROPIC_API_KEY": "chat-key", "ANTHROPIC_MODEL": "claude-opus-4-7", s.ImageTokenEnv: "img-key"}
	if r := runMain(t, env, "", "config", "init", "--service", s.Name); r.code != 0 {
		t.Fatalf("init: %+v", r)
	}
	path := filepath.Join(env["XDG_CONFIG_HOME"], "muse", "config.toml")
	text, _ := os.ReadFile(path)
	os.WriteFile(path, []byte(strings.ReplaceAll(string(text), s.ImageBaseURL, img.URL)), 0o600)
	if r := runMain(t, env, "", "-p", "a fox", "--image", "--out", t.TempDir()); r.code != 0 {
		t.Fatalf("%+v", r)
	}
	if r := runMain(t, env, "", "-p", "hi"); r.code != 0 || !strings.Contains(r.stdout, "Hello from anthropic.") {
		t.Errorf("chat: %+v", r)
	}
	if len(img.Requests()) != 1 {
		t.Errorf("image requests: %d", len(img.Requests()))
	}
}

// init --service refuses an unknown recipe with a suggestion, and a
// profile the file already has; it adds one to an existing file.
func TestInitService(t *testing.T) {
	env := map[string]string{"XDG_CONFIG_HOME": t.TempDir()}
	if r := runMain(t, env, "", "config", "init", "--service", "olama"); r.code != 2 || !strings.Contains(r.stderr, `did you mean "ollama"`) {
		t.Errorf("%+v", r)
	}
	runMain(t, env, "", "config", "init", "--service", "ollama")
	if r := runMain(t, env, "", "config", "init", "--service", "ollama"); r.code != 2 || !strings.Contains(r.stderr, "already has a profile") {
		t.Errorf("%+v", r)
	}
	if r := runMain(t, env, "", "config", "init", "--service", "glm"); r.code != 0 {
		t.Errorf("%+v", r)
	}
	r := runMain(t, env, "", "config", "show", "--profile", "glm")
	if r.code != 0 || !strings.Contains(r.stdout, `base_url = "https://api.z.ai/api/anthropic"`) {
		t.Errorf("%+v", r)
	}
	if cfgfile.ServiceFor("http://127.0.0.1:11434") != "ollama" || cfgfile.ServiceFor("https://api.deepseek.com/anthropic/v1") != "deepseek" || cfgfile.ServiceFor("https://x.example.com") != "" {
		t.Error("ServiceFor")
	}
}

// muse doctor sends one request and reports it step by step, stopping at
// the step that failed with the fix; it names the recipe that fits, and
// with --models lists the models.
func TestDoctorServiceCheck(t *testing.T) {
	srv := standin.Start(standin.Providers["anthropic"], "good-key")
	defer srv.Close()
	base := map[string]string{"XDG_CONFIG_HOME": t.TempDir(), "XDG_STATE_HOME": t.TempDir(), "XDG_DATA_HOME": t.TempDir(),
		"ANTHROPIC_BASE_URL": srv.URL, "ANTHROPIC_API_KEY": "good-key", "ANTHROPIC_MODEL": "claude-opus-4-7"}
	with := func(kv ...string) map[string]string {
		env := map[string]string{}
		for k, v := range base {
			env[k] = v
		}
		for i := 0; i+1 < len(kv); i += 2 {
			env[kv[i]] = kv[i+1]
		}
		return env
	}
	r := runMain(t, base, "", "doctor", "--models")
	for _, want := range []string{"reachable", "credential check accepted", "version header   accepted", "model check      claude-opus-4-7 is known", "thinking         none asked: accepted", "service models   3: claude-opus-4-7"} {
		if !strings.Contains(r.stdout, want) {
			t.Errorf("lacks %q:\n%s", want, r.stdout)
		}
	}
	if r.code != 0 {
		t.Errorf("exit %d", r.code)
	}
	for _, tc := range []struct {
		env  map[string]string
		args []string
		want string
	}{
		{with("ANTHROPIC_API_KEY", "bad-key"), nil, "✗ credential check"},
		{with("ANTHROPIC_MODEL", "claude-nope"), nil, "✗ model check"},
		{with(), []string{"--thinking-budget", "2048"}, "✗ thinking"},
		{with("ANTHROPIC_BASE_URL", srv.URL+"/wrong"), nil, "✗ reachable"},
	} {
		args := append([]string{"doctor"}, tc.args...)
		if len(tc.args) > 0 {
			// doctor takes no --thinking-budget: a profile sets it.
			writeConfig(t, tc.env, "default_profile = \"p\"\n[profiles.p]\nthinking_budget = 2048\n")
			args = []string{"doctor"}
		}
		r := runMain(t, tc.env, "", args...)
		if r.code != 1 || !strings.Contains(r.stdout, tc.want) || strings.Contains(r.stdout, "good-key") || strings.Contains(r.stdout, "bad-key") {
			t.Errorf("%s: %+v", tc.want, r)
		}
	}
}
