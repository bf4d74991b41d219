package conversation

import (
	"encoding/json"
	"strings"
	"testing"

	"muse/api"
)

// TestCitationLines checks that the citations of a reply's text blocks,
// of documents sent (by character range and by page) and of web search
// results, are listed with the passage and where it is from, sanitized,
// at most maxCitationsShown of them, and that a reply without any lists
// none.
func TestCitationLines(t *testing.T) {
	cited := func(cs string) api.ContentBlock {
		return api.ContentBlock{Type: api.BlockText, Text: "x", Extra: map[string]json.RawMessage{"citations": json.RawMessage(cs)}}
	}
	got := CitationLines([]api.ContentBlock{
		{Type: api.BlockText, Text: "plain"},
		cited(`[{"type":"char_location","cited_text":"ship it\u001b[2J","document_index":0,"document_title":"notes.md","start_char_index":7,"end_char_index":14}]`),
		cited(`[{"type":"page_location","cited_text":"p","document_index":1,"start_page_number":3,"end_page_number":4},
			{"type":"page_location","cited_text":"q","document_index":1,"document_title":"r.pdf","start_page_number":2,"end_page_number":5},
			{"type":"web_search_result_location","cited_text":"w","title":"Go","url":"https://go.dev"}]`),
	})
	want := []string{
		"4 citations",
		"· “ship it” — notes.md",
		"· “p” — document 2, p. 3",
		"· “q” — r.pdf, pp. 2–4",
		"· “w” — Go https://go.dev",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	many := cited("[" + strings.TrimSuffix(strings.Repeat(`{"type":"char_location","cited_text":"a"},`, 12), ",") + "]")
	if got := CitationLines([]api.ContentBlock{many}); len(got) != maxCitationsShown+2 || got[len(got)-1] != "… 2 more" {
		t.Errorf("12 citations drawn as %q", got)
	}
	if got := CitationLines([]api.ContentBlock{{Type: api.BlockText, Text: "x"}}); got != nil {
		t.Errorf("no citations drawn as %q", got)
	}
}
