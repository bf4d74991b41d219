package demo

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"muse/api"
)

// The demo answers the three image APIs muse speaks, and refuses in
// OpenAI's shape a field OpenAI does not know.
func TestImageShapes(t *testing.T) {
	srv := httptest.NewServer(NewHandler(Options{}))
	defer srv.Close()
	for _, name := range api.ImageAPIs {
		c := api.New(srv.URL, api.WithAccessToken(DefaultToken), api.WithImageAPI(name))
		res, err := c.GenerateImage(context.Background(), api.NewImageRequest("demo-image", "a fox", &api.ImageParameters{Size: "32*32"}))
		if err != nil || len(res.Data) == 0 {
			t.Errorf("%s: %v %+v", name, err, res)
		}
	}
	req := httptest.NewRequest("POST", srv.URL+imagesPath, strings.NewReader(`{"prompt":"a fox","negative_prompt":"blurry"}`))
	req.RequestURI = ""
	req.Header.Set("Authorization", "Bearer "+DefaultToken)
	req.Header.Set("Content-Type", "application/json")
	resp, err := srv.Client().Do(req)
	if err != nil || resp.StatusCode != 400 {
		t.Errorf("unknown OpenAI field: %v %v", err, resp.Status)
	}
}

// Adaptive thinking with an effort is accepted, and streams thinking; an
// effort the API does not know is refused.
func TestAdaptiveThinking(t *testing.T) {
	srv := httptest.NewServer(NewHandler(Options{}))
	defer srv.Close()
	c := api.New(srv.URL, api.WithAccessToken(DefaultToken))
	req := api.MessageRequest{Model: "demo-chat", MaxTokens: 1024, Messages: []api.MessageParam{api.TextMessage("user", "hi")},
		Thinking: &api.Thinking{Type: api.ThinkingAdaptive}, OutputConfig: &api.OutputConfig{Effort: "high"}}
	m, err := c.CreateMessage(context.Background(), req)
	if err != nil || len(m.Content) < 2 || m.Content[0].Type != api.BlockThinking {
		t.Fatalf("%v %+v", err, m)
	}
}
