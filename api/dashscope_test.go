package api_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"muse/api"
	"muse/api/demo"
)

// imageClient talks to a demo server whose polls never wait.
func imageClient(t *testing.T, opts ...api.Option) *api.Client {
	t.Helper()
	srv := httptest.NewServer(demo.NewHandler(demo.Options{}))
	t.Cleanup(srv.Close)
	opts = append([]api.Option{api.WithAccessToken(demo.DefaultToken), api.WithTestSleep(func(time.Duration) {})}, opts...)
	c := api.New(srv.URL, opts...)
	t.Cleanup(c.Close)
	return c
}

func generate(t *testing.T, c *api.Client, prompt string, opts ...api.RequestOption) (*api.ImageResult, error) {
	t.Helper()
	return c.GenerateImage(context.Background(), api.NewImageRequest("demo-image", prompt, nil), opts...)
}

// A real DashScope server answers in its own shapes; each gives images.
func TestDashScopeShapes(t *testing.T) {
	c := imageClient(t)
	r, err := generate(t, c, "a cat demo:dashscope")
	if err != nil || len(r.Data) != 1 || !strings.HasSuffix(r.Data[0].URL, ".png") {
		t.Fatalf("synchronous: %+v, %v", r, err)
	}
	var seen []string
	r, err = generate(t, c, "a cat demo:task", api.OnImageTask(func(p api.ImageTask) { seen = append(seen, p.Status) }))
	if err != nil || len(r.Data) != 1 || r.Data[0].URL == "" || r.Data[0].RevisedPrompt == "" {
		t.Fatalf("task: %+v, %v", r, err)
	}
	if got := strings.Join(seen, " "); got != "PENDING RUNNING RUNNING SUCCEEDED" {
		t.Errorf("progress %q", got)
	}
	_, err = generate(t, c, "a cat demo:taskfail")
	var apiErr *api.APIError
	if !errors.As(err, &apiErr) || apiErr.Type != "DataInspectionFailed" || !strings.Contains(apiErr.Message, "demo:taskfail") {
		t.Errorf("failed task: %v", err)
	}
	_, err = generate(t, c, "a cat demo:dserror")
	if !errors.As(err, &apiErr) || apiErr.Status != 400 || apiErr.Type != "InvalidParameter" || apiErr.RequestID == "" || !strings.Contains(apiErr.Message, "demo:dserror") {
		t.Errorf("DashScope error body: %+v", apiErr)
	}
}

// A task that never ends is given up after the task timeout; a cancel
// stops the polling at once.
func TestDashScopeTaskLimits(t *testing.T) {
	c := imageClient(t, api.WithTaskTimeout(2*time.Second))
	_, err := generate(t, c, "a cat demo:task")
	if err == nil || !strings.Contains(err.Error(), "muse stopped waiting") {
		t.Errorf("time limit: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	c = imageClient(t)
	_, err = c.GenerateImage(ctx, api.NewImageRequest("demo-image", "a cat demo:task", nil), api.OnImageTask(func(api.ImageTask) { cancel() }))
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancel: %v", err)
	}
}

// A server that sends more images than asked for has the rest dropped, and
// counted.
func TestImageCountCapped(t *testing.T) {
	r, err := generate(t, imageClient(t), "many demo:many")
	if err != nil || len(r.Data) != api.MaxImages || r.Dropped != 12-api.MaxImages {
		t.Fatalf("%d images, %d dropped, %v", len(r.Data), r.Dropped, err)
	}
}
