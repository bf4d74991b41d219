package demo

import (
	"context"
	"testing"

	"muse/api"
)

// TestModelsGiveContextWindows lists the demo's models with muse's own
// client: the chat models give their context window (max_input_tokens,
// as Anthropic's list does), so --demo's status line shows ctx%; the
// image model gives none.
func TestModelsGiveContextWindows(t *testing.T) {
	srv := newTestServer(t, Options{})
	c := api.New(srv.URL, api.WithAccessToken(DefaultToken), api.WithInsecureHTTP(true), api.WithProviderVersion(testVersion))
	models, err := c.ListModels(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"demo-chat": 16000, "demo-chat-fast": 8000, "demo-image": 0}
	if len(models) != len(want) {
		t.Fatalf("listed %v", models)
	}
	for _, m := range models {
		if w, ok := want[m.ID]; !ok || m.ContextWindow != w {
			t.Errorf("%s: context window %d, want %d", m.ID, m.ContextWindow, w)
		}
	}
}
