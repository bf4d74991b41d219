//go:build linux

package e2e

import (
	"path/filepath"
	"strings"
	"testing"

	"muse/api/standin"
)

// TestProviderVariablesOnly is the run in a real terminal: muse
// started with only ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY (and, for
// images, an OpenAI-shaped image service of its own), against a stand-in
// that requires anthropic-version and x-api-key and refuses a thinking
// budget: /model completed from the service's list with tab, /thinking
// adaptive high, a reply; then an image turn, which goes to the image
// stand-in with its own key, never the chat's.
func TestProviderVariablesOnly(t *testing.T) {
	t.Parallel()
	chat := standin.Start(standin.Providers["anthropic"], "sk-chat")
	defer chat.Close()
	img := standin.StartOpenAIImages("sk-image")
	defer img.Close()
	h := newHome(t, "")
	h.env = append(h.env, "ANTHROPIC_BASE_URL="+chat.URL, "ANTHROPIC_API_KEY=sk-chat",
		"MUSE_IMAGE_BASE_URL="+img.URL, "MUSE_IMAGE_API=openai", "MUSE_IMAGE_ACCESS_TOKEN=sk-image", "MUSE_IMAGE_MODEL=gpt-image-1")
	tm := start(t, h, 100, 30)
	tm.waitFor("no model yet")
	// The list is fetched once the first frame is out, and cached.
	tm.waitUntil("the models list cached", waitDeadline, func(string) bool {
		files, _ := filepath.Glob(filepath.Join(h.dir, "cache/muse/models/*.json"))
		return len(files) == 1
	})
	tm.typ("/model claude-o\t")
	tm.waitFor("/model claude-opus-4-7")
	tm.typ("\r")
	tm.waitFor("model claude-opus-4-7 · from the next request")
	tm.typ("/thinking adaptive high\r")
	tm.waitFor("thinking adaptive high · from the next request")
	tm.typ("hello\r")
	tm.waitFor("Hello from anthropic.")
	tm.typ("/image a red fox\r")
	tm.waitFor("A revised a red fox")
	// /quit, not ctrl+c twice: the image turn may still be ending, and ctrl+c
	// would cancel it first.
	tm.typ("/quit\r")
	if code := tm.waitExit(); code != 0 {
		t.Fatalf("muse exited with status %d", code)
	}
	var msg *standin.Request
	for _, r := range chat.Requests() {
		if r.Path == "/v1/messages" {
			msg = &r
		}
	}
	if msg == nil {
		t.Fatal("no message request")
	}
	th, _ := msg.Body["thinking"].(map[string]any)
	oc, _ := msg.Body["output_config"].(map[string]any)
	if msg.Body["model"] != "claude-opus-4-7" || th["type"] != "adaptive" || oc["effort"] != "high" ||
		msg.Header.Get("x-api-key") != "sk-chat" || msg.Header.Get("anthropic-version") == "" {
		t.Errorf("message request %v %v", msg.Header, msg.Body)
	}
	reqs := img.Requests()
	if len(reqs) != 1 || reqs[0].Header.Get("Authorization") != "Bearer sk-image" || strings.Contains(reqs[0].Header.Get("x-api-key"), "sk-chat") {
		t.Errorf("image requests %+v", reqs)
	}
}
