package demo

import (
	"encoding/base64"
	"testing"

	"muse/api/pdftest"
)

// A document sent counts in the reply's input tokens, as the service
// counts it: a text document by its words and its title's, a PDF by
// pdfPageTokens a page.
func TestDocumentsCountAsInput(t *testing.T) {
	srv := newTestServer(t, Options{})
	withDoc := func(doc map[string]any) map[string]any {
		return chat("", map[string]any{"messages": []any{map[string]any{"role": "user", "content": []any{
			doc, map[string]any{"type": "text", "text": "what is in it"}}}}})
	}
	base := getMessage(t, srv, chat("what is in it", nil)).Usage.InputTokens
	text := map[string]any{"type": "document", "title": "my notes",
		"source": map[string]any{"type": "text", "media_type": "text/plain", "data": "one two three\nfour five"}}
	if got := getMessage(t, srv, withDoc(text)).Usage.InputTokens; got != base+2+5 {
		t.Errorf("a text document of 5 words titled in 2: %d input tokens, want %d", got, base+7)
	}
	pdf := map[string]any{"type": "document",
		"source": map[string]any{"type": "base64", "media_type": "application/pdf", "data": base64.StdEncoding.EncodeToString(pdftest.Paged(3))}}
	if got := getMessage(t, srv, withDoc(pdf)).Usage.InputTokens; got != base+3*pdfPageTokens {
		t.Errorf("a PDF of 3 pages: %d input tokens, want %d", got, base+3*pdfPageTokens)
	}
}
