package api

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// dashScope is a fake DashScope server: its image endpoint answers body,
// and its task endpoint answers RUNNING twice, then final.
func dashScope(t *testing.T, body, final string, opts ...Option) *Client {
	t.Helper()
	var polls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.Method == http.MethodPost && r.URL.Path == "/v1/images/generations":
			if strings.Contains(body, `"code"`) && !strings.Contains(body, "output") {
				w.WriteHeader(http.StatusBadRequest)
			}
			fmt.Fprint(w, body)
		case r.Method == http.MethodGet && r.URL.Path == "/api/v1/tasks/t1":
			if r.Header.Get("Authorization") != "Bearer tok" {
				w.WriteHeader(http.StatusUnauthorized)
				return
			}
			if polls.Add(1) <= 2 {
				fmt.Fprint(w, `{"request_id":"r2","output":{"task_id":"t1","task_status":"RUNNING"}}`)
				return
			}
			fmt.Fprint(w, final)
		default:
			w.WriteHeader(http.StatusNotFound)
		}
	}))
	t.Cleanup(srv.Close)
	c := New(srv.URL, append([]Option{WithAccessToken("tok"), withSleep(func(time.Duration) {})}, opts...)...)
	t.Cleanup(c.Close)
	return c
}

func generate(c *Client, prompt string, opts ...RequestOption) (*ImageResult, error) {
	return c.GenerateImage(context.Background(), NewImageRequest("m", prompt, nil), opts...)
}

const pendingTask = `{"request_id":"r1","output":{"task_id":"t1","task_status":"PENDING"}}`

// A real DashScope server answers in its own shapes; each gives images.
func TestDashScopeShapes(t *testing.T) {
	c := dashScope(t, `{"request_id":"r","output":{"choices":[{"finish_reason":"stop","message":{"role":"assistant","content":[{"image":"https://x/a.png"}]}}]},"usage":{"image_count":1}}`, "")
	r, err := generate(c, "a cat")
	if err != nil || len(r.Data) != 1 || r.Data[0].URL != "https://x/a.png" {
		t.Fatalf("synchronous: %+v, %v", r, err)
	}

	c = dashScope(t, pendingTask, `{"request_id":"r3","output":{"task_id":"t1","task_status":"SUCCEEDED","results":[{"url":"https://x/b.png","actual_prompt":"a cat, lit"}]}}`)
	var seen []string
	r, err = generate(c, "a cat", OnImageTask(func(p ImageTask) { seen = append(seen, p.Status) }))
	if err != nil || len(r.Data) != 1 || r.Data[0].URL != "https://x/b.png" || r.Data[0].RevisedPrompt != "a cat, lit" {
		t.Fatalf("task: %+v, %v", r, err)
	}
	if got := strings.Join(seen, " "); got != "PENDING RUNNING RUNNING SUCCEEDED" {
		t.Errorf("progress %q", got)
	}

	c = dashScope(t, pendingTask, `{"request_id":"r3","output":{"task_id":"t1","task_status":"FAILED","code":"DataInspectionFailed","message":"refused"}}`)
	_, err = generate(c, "a cat")
	var apiErr *APIError
	if !errors.As(err, &apiErr) || apiErr.Type != "DataInspectionFailed" || apiErr.Message != "refused" || apiErr.RequestID != "r3" {
		t.Errorf("failed task: %v", err)
	}

	c = dashScope(t, `{"request_id":"r9","code":"InvalidParameter","message":"bad size"}`, "")
	_, err = generate(c, "a cat")
	if !errors.As(err, &apiErr) || apiErr.Status != 400 || apiErr.Type != "InvalidParameter" || apiErr.RequestID != "r9" || apiErr.Message != "bad size" {
		t.Errorf("DashScope error body: %+v", apiErr)
	}
}

// A task that never ends is given up after the task timeout; a cancel
// stops the polling at once.
func TestDashScopeTaskLimits(t *testing.T) {
	c := dashScope(t, pendingTask, `{"output":{"task_id":"t1","task_status":"RUNNING"}}`, WithTaskTimeout(20*time.Second))
	_, err := generate(c, "a cat")
	if err == nil || !strings.Contains(err.Error(), "muse stopped waiting") {
		t.Errorf("time limit: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	_, err = c.GenerateImage(ctx, NewImageRequest("m", "a cat", nil), OnImageTask(func(ImageTask) { cancel() }))
	if !errors.Is(err, context.Canceled) {
		t.Errorf("cancel: %v", err)
	}
}

// A server that sends more images than asked for has the rest dropped, and
// counted.
func TestImageCountCapped(t *testing.T) {
	data := strings.Repeat(`{"url":"https://x/a.png"},`, 500)
	c := dashScope(t, `{"created":1,"data":[`+strings.TrimSuffix(data, ",")+`]}`, "")
	r, err := generate(c, "many")
	if err != nil || len(r.Data) != MaxImages || r.Dropped != 500-MaxImages {
		t.Fatalf("%d images, %d dropped, %v", len(r.Data), r.Dropped, err)
	}
}

// A task that succeeds for some images and fails for others keeps each
// failed image in its place, with its code and message, so that both
// front ends and --json report it.
func TestDashScopePartialFailure(t *testing.T) {
	c := dashScope(t, pendingTask, `{"request_id":"r3","output":{"task_id":"t1","task_status":"SUCCEEDED","results":[
		{"url":"https://x/a.png"},{"code":"DataInspectionFailed","message":"Output data may contain inappropriate content."},{"url":"https://x/c.png"}],
		"task_metrics":{"TOTAL":3,"SUCCEEDED":2,"FAILED":1}}}`)
	r, err := generate(c, "three cats")
	if err != nil || len(r.Data) != 3 {
		t.Fatalf("%+v, %v", r, err)
	}
	if d := r.Data[1]; d.URL != "" || d.Error != "DataInspectionFailed: Output data may contain inappropriate content." {
		t.Errorf("the failed image: %+v", d)
	}
	if r.Data[0].URL != "https://x/a.png" || r.Data[2].URL != "https://x/c.png" || r.Data[0].Error != "" {
		t.Errorf("the others: %+v", r.Data)
	}
}
