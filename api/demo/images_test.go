package demo

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/png"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"muse/api"
)

func getImages(t *testing.T, srv *httptest.Server, body any) api.ImageResult {
	t.Helper()
	var res api.ImageResult
	decodeOK(t, postImage(t, srv, body), &res)
	if res.Created <= 0 {
		t.Fatalf("created %d", res.Created)
	}
	return res
}

func decodePNG(t *testing.T, data []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("decoding PNG: %v", err)
	}
	return img
}

func b64(t *testing.T, d api.ImageData) []byte {
	t.Helper()
	if d.URL != "" {
		t.Fatalf("image has a url %q", d.URL)
	}
	b, err := base64.StdEncoding.DecodeString(d.B64JSON)
	if err != nil {
		t.Fatalf("b64_json: %v", err)
	}
	return b
}

func download(t *testing.T, url string) *http.Response {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { resp.Body.Close() })
	return resp
}

func TestImageAuth(t *testing.T) {
	srv := newTestServer(t, Options{})
	url := srv.URL + imagesPath
	body := imageBody("a cat", map[string]any{"size": "8*8"})
	for name, hdr := range map[string]map[string]string{
		"missing":      {},
		"api key only": {"x-api-key": DefaultAPIKey},
		"wrong bearer": {"Authorization": "Bearer nope"},
	} {
		msg := expectError(t, post(t, url, body, hdr), http.StatusUnauthorized, errAuthentication)
		if name == "api key only" && !strings.Contains(msg, "x-api-key") {
			t.Errorf("%s: message %q", name, msg)
		}
	}
	getImages(t, srv, body) // no version header needed
}

func TestImageValidation(t *testing.T) {
	srv := newTestServer(t, Options{})
	cases := []struct {
		name string
		body any
		want string
	}{
		{"bad json", `{"model"`, "invalid JSON"},
		{"no model", func() any { b := imageBody("cat", nil); b["model"] = ""; return b }(), "model"},
		{"no prompt", imageBody("  ", nil), "prompt"},
		{"no input", map[string]any{"model": "m"}, "prompt"},
		{"bad size", imageBody("cat", map[string]any{"size": "big"}), "parameters.size"},
		{"zero size", imageBody("cat", map[string]any{"size": "0*10"}), "parameters.size"},
		{"x size", imageBody("cat", map[string]any{"size": "10x10"}), "parameters.size"},
		{"too large", imageBody("cat", map[string]any{"size": "4097*16"}), "size too large"},
		{"too tall", imageBody("cat", map[string]any{"size": "16*5000"}), "size too large"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			msg := expectError(t, postImage(t, srv, c.body), http.StatusBadRequest, errInvalidRequest)
			if !strings.Contains(msg, c.want) {
				t.Fatalf("message %q does not contain %q", msg, c.want)
			}
		})
	}
}

func TestImageDefault(t *testing.T) {
	srv := newTestServer(t, Options{})
	body := imageBody("a lighthouse at dusk", map[string]any{"size": "64*48"})
	res := getImages(t, srv, body)
	if len(res.Data) != 1 || res.Data[0].RevisedPrompt != "a lighthouse at dusk, rendered in soft light" {
		t.Fatalf("data %+v", res.Data)
	}
	raw := b64(t, res.Data[0])
	if b := decodePNG(t, raw).Bounds(); b.Dx() != 64 || b.Dy() != 48 {
		t.Fatalf("bounds %v", b)
	}
	if again := b64(t, getImages(t, srv, body).Data[0]); !bytes.Equal(again, raw) {
		t.Fatal("same prompt gave a different PNG")
	}
	other := b64(t, getImages(t, srv, imageBody("a lighthouse at noon", map[string]any{"size": "64*48"})).Data[0])
	if bytes.Equal(other, raw) {
		t.Fatal("different prompts gave the same PNG")
	}
	marked := b64(t, getImages(t, srv, imageBody("a lighthouse at dusk", map[string]any{"size": "64*48", "watermark": true})).Data[0])
	if bytes.Equal(marked, raw) {
		t.Fatal("watermark changed nothing")
	}

	res = getImages(t, srv, imageBody("a lighthouse at dusk", map[string]any{"size": "5*3", "prompt_extend": false}))
	if res.Data[0].RevisedPrompt != "a lighthouse at dusk" {
		t.Fatalf("revised %q", res.Data[0].RevisedPrompt)
	}
	if b := decodePNG(t, b64(t, res.Data[0])).Bounds(); b.Dx() != 5 || b.Dy() != 3 {
		t.Fatalf("bounds %v", b)
	}
	res = getImages(t, srv, imageBody("tiny", map[string]any{"size": "1*1"}))
	decodePNG(t, b64(t, res.Data[0]))
}

// TestImageDefaultSize checks the default without rendering 1024×1024, which
// is slow under the race detector.
func TestImageDefaultSize(t *testing.T) {
	for _, params := range []*api.ImageParameters{nil, {}, {Size: ""}} {
		req := api.NewImageRequest("m", "p", params)
		if w, h, msg := validateImageRequest(&req); w != 1024 || h != 1024 || msg != "" {
			t.Fatalf("params %+v: %d×%d %q", params, w, h, msg)
		}
	}
	req := api.NewImageRequest("m", "p", &api.ImageParameters{Size: "4096*4096"})
	if w, h, msg := validateImageRequest(&req); w != 4096 || h != 4096 || msg != "" {
		t.Fatalf("4096*4096: %d×%d %q", w, h, msg)
	}
}

func TestImageURLScenario(t *testing.T) {
	srv := newTestServer(t, Options{})
	res := getImages(t, srv, imageBody("a fox demo:url", map[string]any{"size": "40*30"}))
	if len(res.Data) != 1 || res.Data[0].B64JSON != "" || !strings.HasPrefix(res.Data[0].URL, srv.URL+imagePrefix) {
		t.Fatalf("data %+v", res.Data)
	}
	resp := download(t, res.Data[0].URL) // no credentials
	body := readAll(t, resp.Body)
	if resp.StatusCode != http.StatusOK || resp.Header.Get("Content-Type") != "image/png" {
		t.Fatalf("status %d type %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	if b := decodePNG(t, body).Bounds(); b.Dx() != 40 || b.Dy() != 30 {
		t.Fatalf("bounds %v", b)
	}

	// A fresh server renders the same URL again from its key.
	fresh := newTestServer(t, Options{})
	again := download(t, fresh.URL+strings.TrimPrefix(res.Data[0].URL, srv.URL))
	if !bytes.Equal(readAll(t, again.Body), body) {
		t.Fatal("re-rendered image differs")
	}
	for _, bad := range []string{"nothing.png", "0000000000000001-40x30-0-0", "0000000000000001-9999x30-0-0.png", "1-40x30-0-0.png"} {
		expectError(t, download(t, srv.URL+imagePrefix+bad), http.StatusNotFound, errNotFound)
	}
}

func TestImageMixedAndTwo(t *testing.T) {
	srv := newTestServer(t, Options{})
	res := getImages(t, srv, imageBody("demo:mixed", map[string]any{"size": "16*16"}))
	if len(res.Data) != 2 || res.Data[0].URL == "" || res.Data[0].B64JSON != "" {
		t.Fatalf("data %+v", res.Data)
	}
	decodePNG(t, b64(t, res.Data[1]))
	resp := download(t, res.Data[0].URL)
	decodePNG(t, readAll(t, resp.Body))

	res = getImages(t, srv, imageBody("demo:two", map[string]any{"size": "32*32"}))
	if len(res.Data) != 2 {
		t.Fatalf("data %+v", res.Data)
	}
	a, b := mean(decodePNG(t, b64(t, res.Data[0]))), mean(decodePNG(t, b64(t, res.Data[1])))
	var dist float64
	for i := range a {
		dist += (a[i] - b[i]) * (a[i] - b[i])
	}
	if dist < 20*20 {
		t.Fatalf("average colours %v and %v are too close", a, b)
	}
}

// mean is the average colour of img, in 0–255 per channel.
func mean(img image.Image) [3]float64 {
	var sum [3]float64
	bnd := img.Bounds()
	for y := bnd.Min.Y; y < bnd.Max.Y; y++ {
		for x := bnd.Min.X; x < bnd.Max.X; x++ {
			r, g, b, _ := img.At(x, y).RGBA()
			sum[0] += float64(r >> 8)
			sum[1] += float64(g >> 8)
			sum[2] += float64(b >> 8)
		}
	}
	n := float64(bnd.Dx() * bnd.Dy())
	return [3]float64{sum[0] / n, sum[1] / n, sum[2] / n}
}

func TestImageBadScenarios(t *testing.T) {
	srv := newTestServer(t, Options{})

	res := getImages(t, srv, imageBody("demo:badb64", nil))
	if _, err := base64.StdEncoding.DecodeString(res.Data[0].B64JSON); err == nil || res.Data[0].B64JSON == "" {
		t.Fatalf("badb64 decoded: %q", res.Data[0].B64JSON)
	}

	res = getImages(t, srv, imageBody("demo:huge", nil))
	raw := b64(t, res.Data[0])
	cfg, err := png.DecodeConfig(bytes.NewReader(raw))
	if err != nil || cfg.Width != 100000 || cfg.Height != 100000 {
		t.Fatalf("huge config %+v %v", cfg, err)
	}
	if len(raw) > 200 {
		t.Fatalf("huge PNG is %d bytes, want tiny", len(raw))
	}

	res = getImages(t, srv, imageBody("demo:404", nil))
	if !strings.HasPrefix(res.Data[0].URL, srv.URL+imagePrefix) {
		t.Fatalf("url %q", res.Data[0].URL)
	}
	expectError(t, download(t, res.Data[0].URL), http.StatusNotFound, errNotFound)

	res = getImages(t, srv, imageBody("demo:hostile", map[string]any{"size": "8*8"}))
	if len(res.Data) != 2 || res.Data[1].URL != "javascript:alert(1)" {
		t.Fatalf("data %+v", res.Data)
	}
	decodePNG(t, b64(t, res.Data[0]))
	for _, want := range []string{"\x1b]0;pwned\x07", "\x1b[2J", "\x1b]8;;"} {
		if !strings.Contains(res.Data[0].RevisedPrompt, want) {
			t.Errorf("revised_prompt lacks %q", want)
		}
	}
}

// TestImageDelayAndCancel checks that an image waits out its delay
// (Options.ImageDelay, and demo:slow's own), and that the handler stops
// waiting, and answers nothing, once the client goes away. The delays are
// asked of Options.pause, so nothing here waits on a clock.
func TestImageDelayAndCancel(t *testing.T) {
	var p pauses
	srv := newTestServer(t, Options{ImageDelay: 50 * time.Millisecond, pause: p.pause})
	getImages(t, srv, imageBody("waits", map[string]any{"size": "4*4"}))
	if p.total() != 50*time.Millisecond {
		t.Fatalf("waited %v before answering, want ImageDelay's 50ms", p.got)
	}

	asked := make(chan time.Duration, 1)
	h := NewHandler(Options{pause: held(asked)})
	done := make(chan struct{})
	var answered atomic.Bool // the handler wrote an answer after the client went away
	slow := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.ServeHTTP(writeSpy{w, &answered}, r)
		close(done)
	}))
	defer slow.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	data, err := json.Marshal(imageBody("demo:slow", map[string]any{"size": "4*4"}))
	if err != nil {
		t.Fatal(err)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, slow.URL+imagesPath, bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "Bearer "+DefaultToken)
	sent := make(chan error, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		sent <- err
	}()
	// The handler ends only because the client went away: held waits
	// for nothing else. The watchdog times nothing; it turns a hang into
	// a failure that says so.
	select {
	case d := <-asked:
		if d != slowImageDelay {
			t.Errorf("demo:slow waits %v, want %v", d, slowImageDelay)
		}
	case <-time.After(hangLimit):
		t.Fatal("demo:slow did not wait before answering")
	}
	cancel()
	select {
	case <-done:
		if answered.Load() {
			t.Fatal("image handler answered after the client went away")
		}
	case <-time.After(hangLimit):
		t.Fatal("image handler kept waiting after the client went away")
	}
	if err := <-sent; err == nil {
		t.Fatal("demo:slow answered a request that was cancelled")
	}
}

// writeSpy records that a handler wrote a header or a body.
type writeSpy struct {
	http.ResponseWriter
	wrote *atomic.Bool
}

func (w writeSpy) WriteHeader(code int) { w.wrote.Store(true); w.ResponseWriter.WriteHeader(code) }

func (w writeSpy) Write(b []byte) (int, error) {
	w.wrote.Store(true)
	return w.ResponseWriter.Write(b)
}

func TestParseKeyRoundTrip(t *testing.T) {
	s := imageSpec{seed: 0xdeadbeef, width: 12, height: 34, variant: 1, watermark: true}
	got, ok := parseKey(s.key())
	if !ok || got != s {
		t.Fatalf("parseKey(%q) = %+v, %v", s.key(), got, ok)
	}
}

func TestImageCacheBounded(t *testing.T) {
	c := newImageCache(2, 10)
	c.put("a", []byte("1234"))
	c.put("b", []byte("1234"))
	c.get("a")
	c.put("c", []byte("1234")) // evicts b, the least recently used
	if _, ok := c.get("b"); ok {
		t.Fatal("b not evicted")
	}
	if _, ok := c.get("a"); !ok {
		t.Fatal("a evicted")
	}
	c.put("big", make([]byte, 11))
	if _, ok := c.get("big"); ok {
		t.Fatal("over-budget image kept")
	}
	c.put("d", []byte("123456789")) // 9 + 4 > 10: only d fits
	if _, ok := c.get("a"); ok || c.size != 9 {
		t.Fatalf("size %d", c.size)
	}
}
