package engine

import (
	"bytes"
	"image"
	"image/png"
	"strings"
	"testing"

	"muse/api"
	"muse/ui/attach"
)

// pngOf is a w×h px PNG.
func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewGray(image.Rect(0, 0, w, h))); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// A conversation whose history holds 101 images is sent with its oldest
// image left out, a line in its place and a note saying so, so that the
// request is within the service's 100 media and the new prompt's image
// is kept; the caller's messages are not changed. A prompt of 101 images
// by itself cannot be fixed so: it is refused before sending.
func TestOldestImagesLeftOutOverTheMediaLimit(t *testing.T) {
	img := api.ImageBlock("image/png", pngOf(t, 2, 2))
	var msgs []api.MessageParam
	for range 101 {
		msgs = append(msgs, api.MessageParam{Role: api.RoleUser, Blocks: []api.ContentBlock{img, {Type: api.BlockText, Text: "and?"}}},
			api.TextMessage(api.RoleAssistant, "ok"))
	}
	msgs = msgs[:len(msgs)-1] // the last prompt, unanswered
	out, notes := fitMedia(msgs, attach.Fit)
	if got := api.CountMedia(out).Total(); got != api.MaxMedia {
		t.Errorf("%d media sent, want %d", got, api.MaxMedia)
	}
	if b := out[0].Blocks[0]; b.Type != api.BlockText || b.Text != droppedImageText {
		t.Errorf("the oldest image went as %+v", b)
	}
	if out[len(out)-1].Blocks[0].Type != api.BlockImage {
		t.Error("the new prompt's image was left out")
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "left out the 1 oldest image") {
		t.Errorf("notes %q", notes)
	}
	if msgs[0].Blocks[0].Type != api.BlockImage {
		t.Error("the caller's messages were changed")
	}
	req := api.MessageRequest{Model: "m", MaxTokens: 10, Messages: out}
	if err := req.Validate(); err != nil {
		t.Error(err)
	}

	blocks := make([]api.ContentBlock, 101)
	for i := range blocks {
		blocks[i] = img
	}
	alone := []api.MessageParam{{Role: api.RoleUser, Blocks: blocks}}
	out, _ = fitMedia(alone, attach.Fit)
	req = api.MessageRequest{Model: "m", MaxTokens: 10, Messages: out}
	if err := req.Validate(); err == nil || !strings.Contains(err.Error(), "101 images and PDF pages") || !strings.Contains(err.Error(), "/detach") {
		t.Errorf("a prompt of 101 images: %v", err)
	}
}

// With more than 20 images in a request, each over 2000 px a side is
// scaled to 2000 with the attachments' scaler, so that the service takes
// the request; with 20, none is touched.
func TestLargeImagesScaledAmongMany(t *testing.T) {
	small := api.ImageBlock("image/png", pngOf(t, 2, 2))
	large := api.ImageBlock("image/png", pngOf(t, 2400, 100))
	blocks := []api.ContentBlock{large}
	for range 19 {
		blocks = append(blocks, small)
	}
	msgs := []api.MessageParam{{Role: api.RoleUser, Blocks: blocks}}
	if out, notes := fitMedia(msgs, attach.Fit); out[0].Blocks[0].Source != large.Source || notes != nil {
		t.Errorf("20 images: %q", notes)
	}
	msgs[0].Blocks = append(blocks, small)
	out, notes := fitMedia(msgs, attach.Fit)
	w, h, err := api.ImageSize(out[0].Blocks[0].Source)
	if err != nil || w != 2000 || h != 83 {
		t.Errorf("the large image went as %d×%d (%v), want 2000×83", w, h, err)
	}
	if len(notes) != 1 || !strings.Contains(notes[0], "scaled 1 image to 2000 px") {
		t.Errorf("notes %q", notes)
	}
	req := api.MessageRequest{Model: "m", MaxTokens: 10, Messages: out}
	if err := req.Validate(); err != nil {
		t.Error(err)
	}
}
