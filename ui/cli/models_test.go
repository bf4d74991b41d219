package cli

import (
	"fmt"
	"muse/api"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"muse/api/standin"
	"muse/ui/textfmt"
)

// muse models lists the service's models once, then from the cache for a
// day, and again with --refresh; the cache is a 0600 file under
// XDG_CACHE_HOME/muse/models. --model completes from it.
func TestModelsCommandCaches(t *testing.T) {
	srv := standin.Start(standin.Rules{Name: "anthropic", Auth: standin.AuthAPIKey, Version: "anthropic-version",
		Models: standin.ModelsAnthropic, ModelIDs: []string{"claude-opus-4-7", "claude-sonnet-4-6"}}, "k")
	defer srv.Close()
	env := map[string]string{"XDG_CONFIG_HOME": t.TempDir(), "XDG_CACHE_HOME": t.TempDir(), "ANTHROPIC_BASE_URL": srv.URL, "ANTHROPIC_API_KEY": "k"}
	r := runMain(t, env, "", "models")
	if r.code != 0 || r.stdout != "claude-opus-4-7    Claude-opus-4-7    2025-05-14T00:00:00Z\nclaude-sonnet-4-6  Claude-sonnet-4-6  2025-05-14T00:00:00Z\n" {
		t.Fatalf("%+v", r)
	}
	if r2 := runMain(t, env, "", "models"); r2.stdout != r.stdout || len(srv.Requests()) != 1 {
		t.Errorf("second run asked again (%d requests): %+v", len(srv.Requests()), r2)
	}
	if runMain(t, env, "", "models", "--refresh"); len(srv.Requests()) != 2 {
		t.Errorf("--refresh did not ask: %d requests", len(srv.Requests()))
	}
	files, _ := filepath.Glob(filepath.Join(env["XDG_CACHE_HOME"], "muse", "models", "*.json"))
	if len(files) != 1 {
		t.Fatalf("cache files %q", files)
	}
	if st, _ := os.Stat(files[0]); st.Mode().Perm() != 0o600 {
		t.Errorf("cache file mode %v", st.Mode())
	}
	r = runMain(t, env, "", "__complete", "--model", "claude-s")
	if !strings.Contains(r.stdout, "claude-sonnet-4-6\n") || strings.Contains(r.stdout, "opus") {
		t.Errorf("--model completion: %q", r.stdout)
	}
}

// A service without GET /v1/models gets one quiet note and exit 0.
func TestModelsCommandNoEndpoint(t *testing.T) {
	srv := standin.Start(standin.Rules{Name: "glm", Auth: standin.AuthBearer, BasePath: "/api/anthropic"}, "k")
	defer srv.Close()
	env := map[string]string{"XDG_CONFIG_HOME": t.TempDir(), "XDG_CACHE_HOME": t.TempDir(), "ANTHROPIC_BASE_URL": srv.BaseURL(), "ANTHROPIC_AUTH_TOKEN": "k"}
	r := runMain(t, env, "", "models")
	if r.code != 0 || r.stdout != "" || strings.Count(r.stderr, "\n") != 1 || !strings.Contains(r.stderr, "lists no models") {
		t.Errorf("%+v", r)
	}
}

// The demo lists its models, in Anthropic's shape.
func TestModelsCommandDemo(t *testing.T) {
	env := map[string]string{"XDG_CONFIG_HOME": t.TempDir(), "XDG_CACHE_HOME": t.TempDir()}
	r := runMain(t, env, "", "models", "--demo")
	if r.code != 0 || !strings.HasPrefix(r.stdout, "demo-chat       Demo Chat       2026") {
		t.Errorf("%+v", r)
	}
	if files, err := filepath.Glob(filepath.Join(env["XDG_CACHE_HOME"], "muse", "models", "*")); err != nil || len(files) != 0 {
		t.Errorf("the demo's list was cached: %q (%v)", files, err)
	}
}

// BenchmarkModelsFromCache is muse models answered from the cache of a
// service with 5,000 models (README: ≤ 30 ms for the whole process).
func BenchmarkModelsFromCache(b *testing.B) {
	ids := make([]string, 5000)
	for i := range ids {
		ids[i] = fmt.Sprintf("model-%04d", i)
	}
	srv := standin.Start(standin.Rules{Name: "vllm", Auth: standin.AuthNone, Models: standin.ModelsOpenAI, ModelIDs: ids}, "")
	defer srv.Close()
	env := map[string]string{"XDG_CONFIG_HOME": b.TempDir(), "XDG_CACHE_HOME": b.TempDir(), "MUSE_BASE_URL": srv.URL}
	if r := runMain(b, env, "", "models"); r.code != 0 {
		b.Fatalf("%+v", r)
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if r := runMain(b, env, "", "models"); r.code != 0 {
			b.Fatal(r.stderr)
		}
	}
	if n := len(srv.Requests()); n != 1 {
		b.Errorf("%d requests: the cache was not used", n)
	}
}

// An image turn goes to the image service of its own, in OpenAI's shape,
// with the image credential; the chat's credential never goes there.
func TestImageToOpenAIService(t *testing.T) {
	chat := standin.Start(standin.Rules{Name: "anthropic", Auth: standin.AuthAPIKey, Version: "anthropic-version"}, "chat-key")
	defer chat.Close()
	img := standin.StartOpenAIImages("img-key")
	defer img.Close()
	env := map[string]string{"XDG_CONFIG_HOME": t.TempDir(), "XDG_DATA_HOME": t.TempDir(), "XDG_CACHE_HOME": t.TempDir(),
		"ANTHROPIC_BASE_URL": chat.URL, "ANTHROPIC_API_KEY": "chat-key", "ANTHROPIC_MODEL": "claude-opus-4-7",
		"MUSE_IMAGE_BASE_URL": img.URL, "MUSE_IMAGE_API": "openai", "MUSE_IMAGE_ACCESS_TOKEN": "img-key", "MUSE_IMAGE_MODEL": "gpt-image-1"}
	out := t.TempDir()
	r := runMain(t, env, "", "-p", "a fox", "--image", "--size", "64x64", "--out", out)
	if r.code != 0 || !strings.Contains(r.stderr+r.stdout, "A revised a fox") {
		t.Fatalf("%+v", r)
	}
	reqs := img.Requests()
	if len(reqs) != 1 || reqs[0].Body["size"] != "64x64" || reqs[0].Header.Get("x-api-key") != "" || len(chat.Requests()) != 0 {
		t.Errorf("image requests %+v, chat requests %d", reqs, len(chat.Requests()))
	}
	// With no image credential for another host, muse says so at start.
	delete(env, "MUSE_IMAGE_ACCESS_TOKEN")
	env["MUSE_IMAGE_BASE_URL"] = "https://images.example.com"
	if r := runMain(t, env, "", "-p", "a fox", "--image"); r.code != 2 || !strings.Contains(r.stderr, "MUSE_IMAGE_ACCESS_TOKEN") {
		t.Errorf("%+v", r)
	}
}

// The models list is in columns: each name and each date starts where
// the others do, whatever the ids' lengths, and no line ends in spaces.
func TestModelLinesAligned(t *testing.T) {
	got := modelLines([]api.ModelInfo{
		{ID: "a", DisplayName: "Alpha", Created: "2025-01-01"},
		{ID: "longer-id", DisplayName: "B", Created: "2025-02-02"},
		{ID: "no-name", Created: "2025-03-03"},
		{ID: "bare"},
	})
	want := "a          Alpha  2025-01-01\n" +
		"longer-id  B      2025-02-02\n" +
		"no-name           2025-03-03\n" +
		"bare\n"
	if got != want {
		t.Errorf("modelLines =\n%s\nwant\n%s", got, want)
	}
}

// Ids and names of wide characters and emoji align in the columns the
// terminal draws: every name and every date starts at the same column,
// measured by grapheme cluster (textfmt.Width), not by rune or byte.
func TestModelLinesAlignWide(t *testing.T) {
	got := modelLines([]api.ModelInfo{
		{ID: "モデル-chat", DisplayName: "デモ チャット", Created: "2026-01-01"},
		{ID: "👍🏽-model", DisplayName: "👨‍👩‍👧 family", Created: "2026-01-02"},
		{ID: "plain", DisplayName: "Ünïcödé", Created: "2026-01-03"},
	})
	lines := strings.Split(strings.TrimSuffix(got, "\n"), "\n")
	col := func(line, cell string) int {
		i := strings.Index(line, cell)
		if i < 0 {
			t.Fatalf("%q not in %q", cell, line)
		}
		return textfmt.Width(line[:i])
	}
	names, dates := []string{"デモ", "👨‍👩‍👧", "Ünïcödé"}, []string{"2026-01-01", "2026-01-02", "2026-01-03"}
	for i, l := range lines {
		if col(l, names[i]) != col(lines[0], names[0]) || col(l, dates[i]) != col(lines[0], dates[0]) || strings.HasSuffix(l, " ") {
			t.Errorf("not aligned:\n%s", got)
		}
	}
}
