package ui

import (
	"testing"

	"muse/api"
	"muse/session"
)

// TestCopyNamesAPartialReply: the copy key and /copy name a reply still
// streaming "the reply so far", and one stopped part way as only as far
// as it got, so the notice never calls a fragment the last reply.
func TestCopyNamesAPartialReply(t *testing.T) {
	for status, want := range map[string]string{
		session.StatusComplete:    "the last reply",
		session.StatusStreaming:   "the reply so far",
		session.StatusCancelled:   "the last reply, as far as it got",
		session.StatusInterrupted: "the last reply, as far as it got",
	} {
		es := []session.Entry{
			{ID: "e1", Kind: session.KindUser, Text: "hi"},
			{ID: "e2", Kind: session.KindAssistant, Status: status, Message: &api.Message{Content: []api.ContentBlock{{Type: api.BlockText, Text: "partial"}}}},
		}
		text, what, refused := copyChoice(es, false, 0)
		if text != "partial" || what != want || refused != "" {
			t.Errorf("status %q: copied %q as %q (refused %q), want %q", status, text, what, refused, want)
		}
	}
}
