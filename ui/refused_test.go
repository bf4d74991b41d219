package ui

import (
	"bytes"
	"image"
	"image/png"
	"testing"

	"muse/api"
	"muse/session"
)

// refusedSession writes a session of one turn, with image settings the
// service would refuse (a size that is no size), and loads it.
func refusedSession(t *testing.T, h *harness) *session.Session {
	t.Helper()
	w := session.NewWriter(h.store, session.Params{Model: "demo-chat", MaxTokens: 1024, Image: &session.ImageParams{Size: "huge"}})
	for _, e := range []session.Entry{
		{Kind: session.KindUser, Text: "hello"},
		{Kind: session.KindAssistant, Status: session.StatusComplete, Message: &api.Message{Content: []api.ContentBlock{{Type: api.BlockText, Text: "hi there"}}}},
	} {
		if _, err := w.Append(e); err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	sess, err := h.store.Load(w.ID())
	if err != nil {
		t.Fatal(err)
	}
	return sess
}

// A request the engine refuses, a message turn's (an image that lies
// about its type) or an image turn's (a size that is no size), is refused
// before anything is written: the typed prompt comes back into the input,
// the attachment waits above it again, the conversation and the journal
// are as they were, and the status bar says what was wrong. The screen
// checks nothing itself: the engine's one check does, and both kinds of
// turns come back through the one event loop.
func TestRefusedRequestKeepsPromptAttachmentsAndConversation(t *testing.T) {
	h := newHarness(t, 0)
	sess := refusedSession(t, h)
	var b bytes.Buffer
	if err := png.Encode(&b, image.NewRGBA(image.Rect(0, 0, 2, 1))); err != nil {
		t.Fatal(err)
	}
	liar := session.File{Attachment: session.Attachment{Name: "dot.png", Kind: session.AttachImage, MediaType: "image/jpeg", Bytes: int64(b.Len())}, Data: b.Bytes()}
	m := h.modelWith(t, sess, func(o *Options) { o.Attach = append(o.Attach, liar) })
	tm := start(t, m, 100, 24)
	send(tm, "what is this?")
	waitFor(t, tm, "image is said to be")
	m = quit(t, tm)
	if files := m.comp.Pending().Files(); m.comp.Input().Value() != "what is this?" || len(files) != 1 || files[0].Name != "dot.png" {
		t.Errorf("input %q, %d attachments waiting; want the prompt back and dot.png", m.comp.Input().Value(), len(files))
	}
	if n := len(m.conv.Entries()); n != 2 {
		t.Errorf("%d entries on screen, want the 2 of before", n)
	}

	tm = start(t, h.model(t, sess), 100, 24)
	send(tm, "/image a red dot")
	waitFor(t, tm, `size "huge" must be`)
	m = quit(t, tm)
	if n := len(m.conv.Entries()); n != 2 || m.turns.Busy() {
		t.Errorf("%d entries on screen (busy %v), want the 2 of before", n, m.turns.Busy())
	}
	back, err := h.store.Load(sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	if len(back.All) != 2 {
		t.Errorf("the journal holds %d entries, want the 2 of before", len(back.All))
	}
}
