package engine

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"image"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"muse/api"
	"muse/api/demo"
	"muse/session"
)

var imageParams = session.ImageParams{Model: "demo-image", Size: "16*16"}

// imageEvents runs an image turn of prompt on a new session of st and
// returns its outcome, events and error.
func imageEvents(t *testing.T, ctx context.Context, cfg ImageConfig, w *session.Writer, prompt string) (ImageOutcome, []ImageEvent, error) {
	t.Helper()
	var mu sync.Mutex
	var evs []ImageEvent
	out, err := RunImage(ctx, cfg, w, ImageTurn{Prompt: prompt, Params: imageParams}, func(ev ImageEvent) {
		mu.Lock()
		evs = append(evs, ev)
		mu.Unlock()
	})
	return out, evs, err
}

func base64Std(b []byte) string { return base64.StdEncoding.EncodeToString(b) }

func kindsOf(evs []ImageEvent) []ImageKind {
	var out []ImageKind
	for _, ev := range evs {
		if ev.Kind != ImageFetching { // as many as the download takes
			out = append(out, ev.Kind)
		}
	}
	return out
}

func TestImageTurnEventsAndRecords(t *testing.T) {
	c := client(t, demo.NewHandler(demo.Options{}))
	st := store(t)
	w := session.NewWriter(st, params)
	out, evs, err := imageEvents(t, context.Background(), ImageConfig{Client: c, Store: st}, w, "demo:mixed a red fox")
	if err != nil {
		t.Fatal(err)
	}
	want := []ImageKind{ImageStarted, ImageListed, ImageSaved, ImageSaved, ImageEnded}
	if got := kindsOf(evs); fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("events %v, want %v", got, want)
	}
	if evs[0].Entry.ID == "" || evs[0].Entry.Status != session.StatusStreaming {
		t.Errorf("started with %+v", evs[0].Entry)
	}
	w.Close()
	sess, err := st.Load(w.ID())
	if err != nil {
		t.Fatal(err)
	}
	e := sess.Entries[0]
	if len(sess.Entries) != 1 || e.Status != session.StatusComplete || len(e.Images) != 2 || sess.Title != "demo:mixed a red fox" {
		t.Fatalf("session %+v", sess)
	}
	for i, img := range e.Images {
		if want := filepath.Join(st.ImageDir(w.ID()), fmt.Sprintf("turn-1-image-%d-", i+1)); !strings.HasPrefix(img.Path, want) || !strings.HasSuffix(img.Path, ".png") {
			t.Errorf("image %d saved to %s, want %s", i+1, img.Path, want)
		}
	}
	if out.Entry.ID != e.ID || out.Dropped != 0 {
		t.Errorf("outcome %+v", out)
	}
}

// The images of a second image turn are numbered by the image turns of the
// session, whatever else it holds, so its files never replace the first's.
func TestImageTurnNumbersCountImageTurns(t *testing.T) {
	c := client(t, demo.NewHandler(demo.Options{}))
	st := store(t)
	w := session.NewWriter(st, params)
	if _, err := Run(context.Background(), Config{Client: c}, w, Turn{Prompt: "hello", Params: params}, func(Event) {}, nil); err != nil {
		t.Fatal(err)
	}
	for n := 1; n <= 2; n++ {
		out, _, err := imageEvents(t, context.Background(), ImageConfig{Client: c, Store: st}, w, "a fox")
		if err != nil {
			t.Fatal(err)
		}
		if got := filepath.Base(out.Entry.Images[0].Path); !strings.HasPrefix(got, fmt.Sprintf("turn-%d-image-1-", n)) {
			t.Errorf("turn %d saved as %s", n, got)
		}
	}
}

func TestImageTurnReportsDroppedImages(t *testing.T) {
	c := client(t, demo.NewHandler(demo.Options{}))
	st := store(t)
	out, evs, err := imageEvents(t, context.Background(), ImageConfig{Client: c, Store: st}, session.NewWriter(st, params), "demo:many cats")
	if err != nil {
		t.Fatal(err)
	}
	var dropped *ImageEvent
	for i := range evs {
		if evs[i].Kind == ImagesDropped {
			dropped = &evs[i]
		}
	}
	if dropped == nil || dropped.Dropped != 8 || dropped.Text != "the server sent 12 images; kept the first 4" {
		t.Fatalf("dropped event %+v", dropped)
	}
	if out.Dropped != 8 || len(out.Entry.Images) != api.MaxImages {
		t.Errorf("outcome: %d dropped, %d images", out.Dropped, len(out.Entry.Images))
	}
	for _, img := range out.Entry.Images {
		if img.Path == "" {
			t.Errorf("image %d not saved: %s", img.Index+1, img.Error)
		}
	}
}

// paddedPNG is a valid 1×1 PNG followed by n bytes of padding: what
// SaveImage checks is its header, so it stands for an image of any size.
func paddedPNG(t *testing.T, n int) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, 1, 1))); err != nil {
		t.Fatal(err)
	}
	return append(buf.Bytes(), make([]byte, n)...)
}

// imageServer answers an image request with data, and serves body at
// /img/<i>; read counts the bytes muse reads of the bodies it downloads.
func imageServer(t *testing.T, data func(base string) []api.ImageData, body []byte, read *atomic.Int64) *api.Client {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/img/") {
			w.Header().Set("Content-Type", "image/png")
			w.(http.Flusher).Flush() // no Content-Length: the limit is met reading
			w.Write(body)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(api.ImageResult{Data: data("http://" + r.Host)})
	}))
	t.Cleanup(srv.Close)
	hc := &http.Client{Transport: countingTransport{http.DefaultTransport, read}}
	return api.New(srv.URL, api.WithAccessToken(demo.DefaultToken), api.WithMaxRetries(0), api.WithHTTPClient(hc))
}

// countingTransport counts the bytes read of the bodies of image downloads.
type countingTransport struct {
	http.RoundTripper
	n *atomic.Int64
}

func (c countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	resp, err := c.RoundTripper.RoundTrip(r)
	if err == nil && strings.HasPrefix(r.URL.Path, "/img/") {
		resp.Body = countingBody{resp.Body, c.n}
	}
	return resp, err
}

type countingBody struct {
	io.ReadCloser
	n *atomic.Int64
}

func (b countingBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	b.n.Add(int64(n))
	return n, err
}

// The images of one generation share a budget of bytes: those past it are
// refused with a message that says so, and no more than the budget (and a
// read's worth) is read.
func TestImageTurnByteBudget(t *testing.T) {
	const size = 1 << 20
	body := paddedPNG(t, size)
	var read atomic.Int64
	c := imageServer(t, func(base string) []api.ImageData {
		var out []api.ImageData
		for i := range 4 {
			out = append(out, api.ImageData{URL: fmt.Sprintf("%s/img/%d", base, i)})
		}
		return out
	}, body, &read)
	st := store(t)
	budget := int64(2*len(body) + size/2)
	out, _, err := imageEvents(t, context.Background(), ImageConfig{Client: c, Store: st, MaxBytes: budget}, session.NewWriter(st, params), "four big ones")
	if err != nil {
		t.Fatal(err)
	}
	imgs := out.Entry.Images
	if len(imgs) != 4 || imgs[0].Path == "" || imgs[1].Path == "" {
		t.Fatalf("images %+v", imgs)
	}
	if imgs[2].Path != "" || !strings.Contains(imgs[2].Error, "the images of one generation may hold 2.5 MiB in all, and only 512 KiB was left for this one") {
		t.Errorf("image 3 past the budget: %q", imgs[2].Error)
	}
	if imgs[3].Path != "" || !strings.Contains(imgs[3].Error, "not fetched: the images before it used up the 2.5 MiB") {
		t.Errorf("image 4 after the budget: %q", imgs[3].Error)
	}
	// Image 3 stops at the half MiB left, and image 4 is not asked for.
	if got, most := read.Load(), budget+32<<10; got > most {
		t.Errorf("muse read %d bytes of images; the budget allows %d", got, most)
	}
}

// Base64 images count against the budget as they are decoded; an image
// after the budget is spent is not even decoded.
func TestImageTurnByteBudgetBase64(t *testing.T) {
	b64 := func(n int) string { return base64Std(paddedPNG(t, n)) }
	c := imageServer(t, func(string) []api.ImageData {
		return []api.ImageData{{B64JSON: b64(1000)}, {B64JSON: b64(1000)}, {B64JSON: b64(10)}, {B64JSON: b64(500)}}
	}, nil, new(atomic.Int64))
	st := store(t)
	one := int64(len(paddedPNG(t, 1000)))
	small := int64(len(paddedPNG(t, 10)))
	out, _, err := imageEvents(t, context.Background(), ImageConfig{Client: c, Store: st, MaxBytes: one + small}, session.NewWriter(st, params), "three")
	if err != nil {
		t.Fatal(err)
	}
	imgs := out.Entry.Images
	if imgs[0].Path == "" || !strings.Contains(imgs[1].Error, "may hold "+api.SizeText(one+small)+" in all") || imgs[2].Path == "" || !strings.Contains(imgs[3].Error, "used up the "+api.SizeText(one+small)) {
		t.Errorf("images %+v", imgs)
	}
}

// taskServer answers an image request with an asynchronous task, which
// succeeds at its first poll when succeed is set and runs for ever
// otherwise; polls counts the polls.
func taskServer(t *testing.T, succeed bool, polls *atomic.Int32) *api.Client {
	t.Helper()
	return client(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.URL.Path == "/img.png":
			w.Header().Set("Content-Type", "image/png")
			w.Write(paddedPNG(t, 0))
		case strings.HasPrefix(r.URL.Path, "/api/v1/tasks/"):
			polls.Add(1)
			if !succeed {
				fmt.Fprint(w, `{"output":{"task_id":"t1","task_status":"RUNNING"}}`)
				return
			}
			fmt.Fprintf(w, `{"output":{"task_id":"t1","task_status":"SUCCEEDED","results":[{"url":"http://%s/img.png"}]}}`, r.Host)
		default:
			fmt.Fprint(w, `{"output":{"task_id":"t1","task_status":"PENDING"}}`)
		}
	}))
}

func TestImageTurnReportsTaskProgress(t *testing.T) {
	var polls atomic.Int32
	c := taskServer(t, true, &polls)
	st := store(t)
	out, evs, err := imageEvents(t, context.Background(), ImageConfig{Client: c, Store: st}, session.NewWriter(st, params), "a slow fox")
	if err != nil {
		t.Fatal(err)
	}
	var states []string
	for _, ev := range evs {
		if ev.Kind == ImageTask {
			states = append(states, fmt.Sprintf("%s %s %s", ev.Task.ID, ev.Task.Status, ev.Task.Elapsed))
		}
	}
	if fmt.Sprint(states) != "[t1 PENDING 0s t1 SUCCEEDED 1s]" {
		t.Errorf("task events %q", states)
	}
	if out.Entry.Images[0].Path == "" || polls.Load() != 1 {
		t.Errorf("images %+v after %d polls", out.Entry.Images, polls.Load())
	}
}

// Cancelling the turn stops polling the task: the turn ends at once,
// cancelled and saved, without another poll.
func TestImageTurnCancelStopsPolling(t *testing.T) {
	var polls atomic.Int32
	c := taskServer(t, false, &polls)
	st := store(t)
	w := session.NewWriter(st, params)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var ended *ImageEvent
	_, err := RunImage(ctx, ImageConfig{Client: c, Store: st}, w, ImageTurn{Prompt: "never", Params: imageParams}, func(ev ImageEvent) {
		switch ev.Kind {
		case ImageTask:
			cancel() // as esc or ctrl+c does
		case ImageEnded:
			ended = &ev
		}
	})
	if !errors.Is(err, context.Canceled) || ended == nil || ended.Entry.Status != session.StatusCancelled {
		t.Fatalf("err %v, ended %+v", err, ended)
	}
	if n := polls.Load(); n != 0 {
		t.Errorf("%d polls after the cancel", n)
	}
	w.Close()
	sess, _ := st.Load(w.ID())
	if e := sess.Entries[0]; e.Status != session.StatusCancelled || e.Error != nil {
		t.Errorf("saved %+v", e)
	}
}

// Without a store or a folder, the images are not saved, and each says so:
// the turn still ends.
func TestImageTurnWithNowhereToSave(t *testing.T) {
	c := client(t, demo.NewHandler(demo.Options{}))
	out, _, err := imageEvents(t, context.Background(), ImageConfig{Client: c}, session.NewWriter(nil, params), "a fox")
	if err != nil || out.Entry.Status != session.StatusComplete {
		t.Fatalf("err %v, entry %+v", err, out.Entry)
	}
	if img := out.Entry.Images[0]; img.Path != "" || !strings.HasPrefix(img.Error, "not saved: ") {
		t.Errorf("image %+v", img)
	}
}

// A session with no journal keeps its images in a folder of the turn's own.
func TestImageTurnOfUnsavedSessionGetsOneShotFolder(t *testing.T) {
	c := client(t, demo.NewHandler(demo.Options{}))
	st := store(t)
	out, _, err := imageEvents(t, context.Background(), ImageConfig{Client: c, Store: st}, session.NewWriter(nil, params), "a fox")
	if err != nil {
		t.Fatal(err)
	}
	path := out.Entry.Images[0].Path
	if dir := filepath.Base(filepath.Dir(path)); !strings.HasPrefix(dir, "oneshot-") {
		t.Fatalf("saved to %s", path)
	}
	if _, err := os.Stat(path); err != nil {
		t.Error(err)
	}
}
