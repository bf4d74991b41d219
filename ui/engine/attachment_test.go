package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"image"
	"image/png"
	"io"
	"net/http"
	"strings"
	"testing"

	"muse/api"
	"muse/api/demo"
	"muse/session"
	"muse/ui/attach"
	"muse/ui/conversation"
)

// recording is the demo server, keeping each request's body.
func recording(bodies *[]string) http.Handler {
	h := demo.NewHandler(demo.Options{})
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		*bodies = append(*bodies, string(b))
		r.Body = io.NopCloser(strings.NewReader(string(b)))
		h.ServeHTTP(w, r)
	})
}

// A prompt's attachments are stored, sent before its text, and sent again
// by every turn that carries that prompt: a retry, an edit, the next
// prompt.
func TestAttachmentsGoWithEveryTurnOfTheirPrompt(t *testing.T) {
	var bodies []string
	c := client(t, recording(&bodies))
	st := store(t)
	w := session.NewWriter(st, params)
	defer w.Close()
	f, err := attach.FromBytes("notes.md", []byte("# Plan\nship it\n"))
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Client: c}
	emit := func(Event) {}
	res, err := Run(context.Background(), cfg, w, Turn{Prompt: "read this", Attachments: []session.File{f}, Params: params}, emit, nil)
	if err != nil || !strings.Contains(res.Message.Text(), "I see notes.md: 2 lines") {
		t.Fatalf("reply %q, %v", res.Message.Text(), err)
	}
	user := w.Branch()[0]
	if len(user.Attachments) != 1 || user.Attachments[0].SHA256 == "" {
		t.Fatalf("the prompt's entry records %+v", user.Attachments)
	}
	if _, err := Run(context.Background(), cfg, w, Turn{Retry: true, Params: params}, emit, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), cfg, w, Turn{Prompt: "read it again", Edit: user.ID, Params: params}, emit, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := Run(context.Background(), cfg, w, Turn{Prompt: "and now?", Params: params}, emit, nil); err != nil {
		t.Fatal(err)
	}
	if len(bodies) != 4 {
		t.Fatalf("%d requests", len(bodies))
	}
	for i, body := range bodies {
		var req api.MessageRequest
		if err := json.Unmarshal([]byte(body), &req); err != nil {
			t.Fatal(err)
		}
		first := req.Messages[0]
		if b := first.Blocks; len(b) != 2 || b[0].Type != api.BlockDocument || b[0].Title != "notes.md" || b[0].Source.Type != api.SourceText ||
			b[0].Source.Data != "# Plan\nship it\n" {
			t.Errorf("request %d sends its first prompt as %+v", i+1, first)
		}
	}
}

// Limits are checked on the request as it would be sent, where the engine
// checks every request, before anything is saved or sent: a prompt within
// the attachments' limit whose whole body is over the service's 32 MB is
// refused, nothing reaches the server, and the session keeps no prompt
// the service would refuse (a request over 30 MB was sent).
func TestRequestOverTheServiceLimitIsNotSent(t *testing.T) {
	var bodies []string
	c := client(t, recording(&bodies))
	w := session.NewWriter(store(t), params)
	defer w.Close()
	var files []session.File
	for i := range 6 {
		var b bytes.Buffer // a PNG padded to 3 MiB, 4 MiB as base64: within the image limit
		png.Encode(&b, image.NewGray(image.Rect(0, 0, 1+i, 1)))
		img := append(b.Bytes(), make([]byte, 3<<20-b.Len())...)
		files = append(files, session.File{Attachment: session.Attachment{Name: fmt.Sprintf("%d.png", i), Kind: session.AttachImage, MediaType: "image/png", Bytes: int64(len(img))}, Data: img})
	}
	prompt := strings.Repeat("a long paste ", 700_000) // 9.1 MB of text
	_, err := Run(context.Background(), Config{Client: c}, w, Turn{Prompt: prompt, Attachments: files, Params: params}, func(Event) {}, nil)
	if err == nil || !strings.Contains(err.Error(), "over the service's limit of 32 MB") {
		t.Errorf("err %v", err)
	}
	if len(bodies) != 0 || len(w.Branch()) != 0 {
		t.Errorf("%d requests sent, %d entries saved", len(bodies), len(w.Branch()))
	}
}

// A text file attached from an old prompt (re-attached with a, or kept by
// an edit), whose record predates documents, goes as a plain-text
// document like any new one, and its record says so.
func TestReattachedOldTextFileGoesAsDocument(t *testing.T) {
	var bodies []string
	c := client(t, recording(&bodies))
	w := session.NewWriter(store(t), params)
	defer w.Close()
	old := session.File{Attachment: session.Attachment{Name: "old.txt", Kind: session.AttachText, MediaType: "text/plain", Bytes: 4}, Data: []byte("old\n")}
	if _, err := Run(context.Background(), Config{Client: c}, w, Turn{Prompt: "again", Attachments: []session.File{old}, Params: params}, func(Event) {}, nil); err != nil {
		t.Fatal(err)
	}
	var req api.MessageRequest
	if err := json.Unmarshal([]byte(bodies[0]), &req); err != nil {
		t.Fatal(err)
	}
	if b := req.Messages[0].Blocks[0]; b.Type != api.BlockDocument || b.Title != "old.txt" {
		t.Errorf("sent as %+v", b)
	}
	if a := w.Branch()[0].Attachments[0]; !a.Document || a.Name != "old.txt" {
		t.Errorf("recorded as %+v", a)
	}
}

// With Cite on, a text file goes asking for citations, and the demo, as
// the service, cites it: the reply's text block holds a char_location
// citation of the file's first line, streamed or not, which the chat
// screen and -p list after the reply.
func TestCitedTextFile(t *testing.T) {
	for _, noStream := range []bool{false, true} {
		var bodies []string
		c := client(t, recording(&bodies))
		w := session.NewWriter(nil, params)
		f, err := attach.FromBytes("notes.md", []byte("# Plan\nship it\n"))
		if err != nil {
			t.Fatal(err)
		}
		p := params
		p.Cite = true
		res, err := Run(context.Background(), Config{Client: c, NoStream: noStream}, w, Turn{Prompt: "what does it say?", Attachments: []session.File{f}, Params: p}, func(Event) {}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(bodies[0], `"title":"notes.md","citations":{"enabled":true}`) {
			t.Errorf("sent %.300s", bodies[0])
		}
		lines := conversation.CitationLines(res.Message.Content)
		if len(lines) != 2 || lines[0] != "1 citation" || lines[1] != "· “# Plan” — notes.md" {
			t.Errorf("stream %v: citations drawn as %q from %+v", !noStream, lines, res.Message.Content)
		}
	}
}
