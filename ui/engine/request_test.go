package engine

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"muse/api"
	"muse/api/demo"
	"muse/session"
)

// countChecks counts the checks of message requests until the test ends.
func countChecks(t *testing.T) *int {
	t.Helper()
	n := 0
	orig := validate
	validate = func(r *api.MessageRequest) error { n++; return orig(r) }
	t.Cleanup(func() { validate = orig })
	return &n
}

// Each request is built and checked once, by the engine, before its
// prompt is written, and sent as it was checked: a new prompt's image
// (from memory), the same image read back from the session on the next
// turn, and each request of a turn with a tool round cost one check, and the client
// checks none again (api.Checked). A refused attachment refuses the turn
// with that one check, and writes nothing.
func TestEachRequestIsCheckedOnce(t *testing.T) {
	checks := countChecks(t)
	var bodies []string
	c := client(t, recording(&bodies))
	w := session.NewWriter(store(t), params)
	defer w.Close()
	img := tinyPNG()
	f := session.File{Attachment: session.Attachment{Name: "dot.png", Kind: session.AttachImage, MediaType: "image/png", Bytes: int64(len(img))}, Data: img}
	cfg := Config{Client: c}
	if _, err := Run(context.Background(), cfg, w, Turn{Prompt: "what is this?", Attachments: []session.File{f}, Params: params}, func(Event) {}, nil); err != nil {
		t.Fatal(err)
	}
	if *checks != 1 || len(bodies) != 1 {
		t.Fatalf("a prompt with an image: %d checks for %d requests, want 1 for 1", *checks, len(bodies))
	}
	if _, err := Run(context.Background(), cfg, w, Turn{Prompt: "and now?", Params: params}, func(Event) {}, nil); err != nil {
		t.Fatal(err)
	}
	if *checks != 2 || len(bodies) != 2 || !strings.Contains(bodies[1], `"type":"image"`) {
		t.Fatalf("the next prompt, the image read back: %d checks for %d requests, want 2 for 2", *checks, len(bodies))
	}

	// A tool round: each request of the turn is checked once.
	tools := Config{Client: c, Tools: []Tool{{Def: api.Tool{Name: "get_time", InputSchema: json.RawMessage(`{"type":"object"}`)}, Command: []string{"x"}}},
		RunTool: func(context.Context, []string, []byte) (string, int, error) { return "12:00", 0, nil }}
	yes := func(context.Context, api.ContentBlock, bool) Approval { return Approval{Run: true} }
	res, err := Run(context.Background(), tools, w, Turn{Prompt: "demo:tool time?", Params: params}, func(Event) {}, yes)
	if err != nil || res.Rounds != 1 {
		t.Fatalf("tool turn: %d rounds, %v", res.Rounds, err)
	}
	if *checks != 4 || len(bodies) != 4 {
		t.Fatalf("a turn of one tool round: %d checks for %d requests, want 4 for 4", *checks, len(bodies))
	}

	before := len(w.Branch())
	liar := f
	liar.MediaType = "image/jpeg" // the bytes are a PNG
	_, err = Run(context.Background(), cfg, w, Turn{Prompt: "and this?", Attachments: []session.File{liar}, Params: params}, func(Event) {}, nil)
	if !errors.Is(err, ErrNotStarted) || !errors.Is(err, api.ErrInvalidRequest) || !strings.Contains(err.Error(), "image is said to be image/jpeg") {
		t.Fatalf("a prompt with an image that lies about its type: %v", err)
	}
	if *checks != 5 || len(bodies) != 4 || len(w.Branch()) != before {
		t.Errorf("refused: %d checks, %d requests, %d entries; want 5, 4, %d", *checks, len(bodies), len(w.Branch()), before)
	}
}

// A stored attachment the check refuses (an imported record that lies
// about its bytes) is left out, named by a line saying why, and the
// request checked again: it costs one check more, and never makes the
// turn fail.
func TestStoredAttachmentTheServiceWouldRefuseIsLeftOut(t *testing.T) {
	checks := countChecks(t)
	var bodies []string
	c := client(t, recording(&bodies))
	w := session.NewWriter(store(t), params)
	defer w.Close()
	a, err := w.SaveAttachment(session.Attachment{Name: "liar.png", Kind: session.AttachImage, MediaType: "image/jpeg"}, tinyPNG())
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range []session.Entry{
		{Kind: session.KindUser, Text: "what is this?", Attachments: []session.Attachment{a}},
		{Kind: session.KindAssistant, Status: session.StatusComplete, Message: &api.Message{Content: []api.ContentBlock{{Type: api.BlockText, Text: "a dot"}}}},
	} {
		if _, err := w.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := Run(context.Background(), Config{Client: c}, w, Turn{Prompt: "next", Params: params}, func(Event) {}, nil); err != nil {
		t.Fatal(err)
	}
	if len(bodies) != 1 || !strings.Contains(bodies[0], `[attachment name=\"liar.png\" kind=\"image\" left out: image is said to be image/jpeg`) || strings.Contains(bodies[0], `"type":"image"`) {
		t.Errorf("sent %s", bodies)
	}
	if *checks != 2 {
		t.Errorf("%d checks, want 2: one refusing the stored image, one of the request without it", *checks)
	}
}

// The client checks a request unless told its caller did (api.Checked).
func TestTheClientTrustsACheckedRequest(t *testing.T) {
	var bodies []string
	c := client(t, recording(&bodies))
	bad := api.MessageRequest{Model: "demo-chat", Messages: []api.MessageParam{api.TextMessage(api.RoleUser, "hi")}} // no max_tokens
	if _, err := c.CreateMessage(context.Background(), bad); !errors.Is(err, api.ErrInvalidRequest) || len(bodies) != 0 {
		t.Errorf("unchecked: %v, %d requests sent", err, len(bodies))
	}
	if _, err := c.CreateMessage(context.Background(), bad, api.Checked()); len(bodies) != 1 {
		t.Errorf("checked: %v, %d requests sent, want it sent as it is", err, len(bodies))
	}
}

// An image turn's request is built and checked once, by the engine, and
// sent as checked; one it refuses writes nothing.
func TestAnImageRequestIsCheckedOnce(t *testing.T) {
	n := 0
	orig := validateImage
	validateImage = func(r *api.ImageRequest) error { n++; return orig(r) }
	t.Cleanup(func() { validateImage = orig })
	c := client(t, demo.NewHandler(demo.Options{}))
	w := session.NewWriter(nil, params)
	ip := session.ImageParams{Model: "demo-image"}
	if _, err := RunImage(context.Background(), ImageConfig{Client: c}, w, ImageTurn{Prompt: "a red dot", Params: ip}, func(ImageEvent) {}); err != nil || n != 1 {
		t.Fatalf("%d checks, %v; want 1", n, err)
	}
	ip.Size = "huge"
	before := len(w.Snapshot().All)
	_, err := RunImage(context.Background(), ImageConfig{Client: c}, w, ImageTurn{Prompt: "a red dot", Params: ip}, func(ImageEvent) {})
	if !errors.Is(err, ErrNotStarted) || n != 2 || len(w.Snapshot().All) != before {
		t.Errorf("a size that is no size: %v after %d checks, %d entries; want ErrNotStarted after 2, %d", err, n, len(w.Snapshot().All), before)
	}
}
