package conversation

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"muse/api"
	"muse/ui/sanitize"
	"muse/ui/textfmt"
)

// Types of the blocks ServerBlockLines draws: thinking the server sent
// encrypted, a call of one of the server's own tools, and a web search's
// results. Their JSON holds encrypted data no one can read, so they are
// drawn as short labelled lines, never as JSON.
const (
	blockRedactedThinking = "redacted_thinking"
	blockServerToolUse    = "server_tool_use"
	blockWebSearchResult  = "web_search_tool_result"
)

// maxResultsShown is how many results of a web search are listed.
const maxResultsShown = 10

// ServerBlockLines draws a block of the server's tools, or redacted
// thinking, as short lines of sanitized text: a label (the search query of
// a web search), then, for search results, one line per result with its
// title and link. ok is false for a block of any other type.
func ServerBlockLines(b api.ContentBlock) (lines []string, ok bool) {
	switch b.Type {
	case blockRedactedThinking:
		return []string{"thinking · redacted"}, true
	case blockServerToolUse:
		return []string{serverCall(b)}, true
	case blockWebSearchResult:
		return searchResults(b.Raw), true
	}
	return nil, false
}

// serverCall labels a call of a server tool: the query of a web search,
// the address of a web fetch, the name and input of another.
func serverCall(b api.ContentBlock) string {
	var w struct {
		Name  string          `json:"name"`
		Input json.RawMessage `json:"input"`
	}
	_ = json.Unmarshal(b.Raw, &w) // a block that is not an object has no name
	input := w.Input
	if b.PartialInput != "" { // still streaming, or cut short
		input = json.RawMessage(b.PartialInput)
	}
	var in struct {
		Query string `json:"query"`
		URL   string `json:"url"`
	}
	complete := json.Unmarshal(input, &in) == nil
	switch {
	case w.Name == "web_search" && in.Query != "":
		return "web search · " + shortLine(in.Query, 200)
	case w.Name == "web_search":
		return "web search"
	case w.Name == "web_fetch" && in.URL != "":
		return "web fetch · " + shortLine(in.URL, 200)
	}
	label := "server tool · " + shortLine(w.Name, 60)
	var compact bytes.Buffer
	if complete && json.Compact(&compact, input) == nil && compact.String() != "{}" {
		label += " · " + shortLine(compact.String(), 80)
	}
	return label
}

// searchResults lists a web search's results, or the error it ended with.
func searchResults(raw json.RawMessage) []string {
	var w struct {
		Content json.RawMessage `json:"content"`
	}
	_ = json.Unmarshal(raw, &w)
	var failed struct {
		Type      string `json:"type"`
		ErrorCode string `json:"error_code"`
	}
	if json.Unmarshal(w.Content, &failed) == nil && failed.ErrorCode != "" {
		return []string{"web search failed · " + shortLine(failed.ErrorCode, 60)}
	}
	var results []struct {
		Title string `json:"title"`
		URL   string `json:"url"`
	}
	_ = json.Unmarshal(w.Content, &results)
	lines := []string{textfmt.Plural(len(results), "search result")}
	for i, r := range results {
		if i == maxResultsShown {
			lines = append(lines, fmt.Sprintf("… %d more", len(results)-i))
			break
		}
		title := shortLine(r.Title, 100)
		if title == "" {
			title = "untitled"
		}
		lines = append(lines, "· "+title+" — "+shortLine(r.URL, 200))
	}
	return lines
}

// shortLine sanitizes s to one line of at most n characters.
func shortLine(s string, n int) string {
	return textfmt.TruncateRunes(strings.TrimSpace(sanitize.Line(s)), n)
}
