package api

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
)

// OpenAI's shape: prompt, n and size WxH, nothing it would refuse; the
// image address and credential are the image service's own, and the
// chat's credential never goes there.
func TestImageAPIOpenAI(t *testing.T) {
	chat := newRecorder(t, jsonReply(200, okMessage))
	img := newRecorder(t, jsonReply(200, `{"created":1,"data":[{"b64_json":"aGk=","revised_prompt":"a red fox"}]}`))
	c := New(chat.URL, WithAccessToken("chat-token"), WithImageAPI(ImageAPIOpenAI), WithImageService(img.URL+"/v1", "img-token"),
		WithOpenAIImageOptions(OpenAIImageOptions{Quality: "high", OutputFormat: "webp"}))
	neg, yes := "blurry", true
	res, err := c.GenerateImage(context.Background(), NewImageRequest("gpt-image-1", "a fox",
		&ImageParameters{Size: "1024*768", NegativePrompt: &neg, Watermark: &yes, PromptExtend: &yes}))
	if err != nil || len(res.Data) != 1 || res.Data[0].B64JSON != "aGk=" || res.Data[0].RevisedPrompt != "a red fox" {
		t.Fatalf("%v %+v", err, res)
	}
	var body map[string]any
	json.Unmarshal([]byte(img.bodies[0]), &body)
	if len(body) != 6 || body["quality"] != "high" || body["output_format"] != "webp" || body["prompt"] != "a fox" || body["size"] != "1024x768" || body["n"] != float64(1) || body["model"] != "gpt-image-1" {
		t.Errorf("body %s", img.bodies[0])
	}
	h := img.reqs[0].Header
	if img.reqs[0].URL.Path != "/v1/images/generations" || h.Get("Authorization") != "Bearer img-token" || h.Get("x-api-key") != "" {
		t.Errorf("request %s %v", img.reqs[0].URL, h)
	}
	if len(chat.reqs) != 0 {
		t.Errorf("the chat service got %d requests", len(chat.reqs))
	}
}

// DashScope's shapes: the synchronous multimodal-generation path with the
// interface's body, and for a wan model the asynchronous image-synthesis
// path with X-DashScope-Async: enable, its task polled at the same address.
func TestImageAPIDashScope(t *testing.T) {
	rec := newRecorder(t, jsonReply(200, `{"output":{"choices":[{"message":{"content":[{"image":"https://oss.example.com/a.png"}]}}]}}`))
	c := New(rec.URL, WithAccessToken("t"), WithImageAPI(ImageAPIDashScope))
	if res, err := c.GenerateImage(context.Background(), NewImageRequest("qwen-image", "a fox", nil)); err != nil || len(res.Data) != 1 {
		t.Fatalf("%v %+v", err, res)
	}
	if rec.reqs[0].URL.Path != dashSyncPath || !strings.Contains(rec.bodies[0], `"input":{"messages"`) {
		t.Errorf("sync: %s %s", rec.reqs[0].URL.Path, rec.bodies[0])
	}
	rec = newRecorder(t,
		jsonReply(200, `{"output":{"task_id":"t1","task_status":"PENDING"}}`),
		jsonReply(200, `{"output":{"task_id":"t1","task_status":"SUCCEEDED","results":[{"url":"https://oss.example.com/b.png"}]}}`))
	c = New(rec.URL, WithAccessToken("t"), WithImageAPI(ImageAPIDashScope), withSleep(func(d time.Duration) {}))
	neg := "blurry"
	if res, err := c.GenerateImage(context.Background(), NewImageRequest("wanx2.1-t2i-turbo", "a fox", &ImageParameters{Size: "1024*1024", NegativePrompt: &neg})); err != nil || len(res.Data) != 1 {
		t.Fatalf("async: %v %+v", err, res)
	}
	if rec.reqs[0].URL.Path != dashAsyncPath || rec.reqs[0].Header.Get("X-DashScope-Async") != "enable" ||
		!strings.Contains(rec.bodies[0], `"input":{"prompt":"a fox","negative_prompt":"blurry"}`) || !strings.Contains(rec.bodies[0], `"size":"1024*1024"`) {
		t.Errorf("async request %s %v %s", rec.reqs[0].URL.Path, rec.reqs[0].Header, rec.bodies[0])
	}
	if rec.reqs[1].URL.Path != "/api/v1/tasks/t1" {
		t.Errorf("poll %s", rec.reqs[1].URL.Path)
	}
}

// A wrong image API, or an image credential over plain http to another
// host, fails every request with the setting to fix.
func TestImageConfigMistakes(t *testing.T) {
	if err := New("https://x.example.com", WithImageAPI("dalle")).Check(); err == nil || !strings.Contains(err.Error(), "image_api") {
		t.Errorf("bad API: %v", err)
	}
	if err := New("https://x.example.com", WithImageService("http://img.example.com", "t")).Check(); err == nil || !strings.Contains(err.Error(), "image credential over plain http") {
		t.Errorf("plain http: %v", err)
	}
	if err := New("https://x.example.com", WithImageService("ftp://img", "")).Check(); err == nil || !strings.Contains(err.Error(), "image_base_url") {
		t.Errorf("bad URL: %v", err)
	}
}
