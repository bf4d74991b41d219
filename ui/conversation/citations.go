package conversation

import (
	"encoding/json"
	"fmt"

	"muse/api"
	"muse/ui/textfmt"
)

// maxCitationsShown is how many citations of a reply are listed.
const maxCitationsShown = 10

// citation is one item of a text block's "citations": a passage of a
// document sent (char_location, page_location, content_block_location) or
// of a web search's result (web_search_result_location).
type citation struct {
	Type          string `json:"type"`
	CitedText     string `json:"cited_text"`
	DocumentTitle string `json:"document_title"`
	DocumentIndex int    `json:"document_index"`
	StartPage     int    `json:"start_page_number"`
	EndPage       int    `json:"end_page_number"`
	Title         string `json:"title"`
	URL           string `json:"url"`
}

// CitationLines draws the citations of a reply's text blocks as web search
// results are drawn (see ServerBlockLines): a label, then one line per
// citation with the passage quoted and where it is from, all sanitized.
// It returns nil when no block has citations.
func CitationLines(blocks []api.ContentBlock) []string {
	var all []citation
	for _, b := range blocks {
		raw, ok := b.Extra["citations"]
		if b.Type != api.BlockText || !ok {
			continue
		}
		var cs []citation
		_ = json.Unmarshal(raw, &cs) // not an array of objects: none
		all = append(all, cs...)
	}
	if len(all) == 0 {
		return nil
	}
	lines := []string{textfmt.Plural(len(all), "citation")}
	for i, c := range all {
		if i == maxCitationsShown {
			lines = append(lines, fmt.Sprintf("… %d more", len(all)-i))
			break
		}
		lines = append(lines, "· “"+shortLine(c.CitedText, 100)+"” — "+c.source())
	}
	return lines
}

// source says where a cited passage is from: a document's title (or its
// number) and pages, or a search result's title and address.
func (c citation) source() string {
	if c.Type == "web_search_result_location" {
		return shortLine(c.Title, 100) + " " + shortLine(c.URL, 200)
	}
	doc := shortLine(c.DocumentTitle, 100)
	if doc == "" {
		doc = fmt.Sprintf("document %d", c.DocumentIndex+1)
	}
	switch {
	case c.Type != "page_location":
	case c.EndPage > c.StartPage+1:
		doc += fmt.Sprintf(", pp. %d–%d", c.StartPage, c.EndPage-1)
	default:
		doc += fmt.Sprintf(", p. %d", c.StartPage)
	}
	return doc
}
