package session

import (
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"muse/api"
)

func TestSearch(t *testing.T) {
	s, _ := newTestStore(t)
	older, err := s.Create(Params{Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("lorem ipsum ", 20) + "the NEEDLE\nis here " + strings.Repeat("dolor sit ", 20)
	thinking := Entry{ID: "e4", Kind: KindAssistant, Message: &api.Message{Content: []api.ContentBlock{
		{Type: api.BlockThinking, Thinking: "maybe a needle"}, {Type: api.BlockText, Text: "no"}}}}
	for _, e := range []Entry{
		userEntry("e1", "find the needle"),
		{ID: "e2", Kind: KindAssistant, Message: &api.Message{Content: []api.ContentBlock{{Type: api.BlockText, Text: long}}}},
		userEntry("e3", "nothing"),
		thinking,
		{ID: "e5", Kind: KindError, Error: &ErrorInfo{Status: 500, Message: "Needle overflow"}},
		{ID: "e6", Kind: KindNotice, Text: "needle notice"},
		{ID: "e7", Kind: KindImage, ImagePrompt: "a needle in a haystack"},
	} {
		if err := s.Append(older, e); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.SetTitle(older, "Older"); err != nil {
		t.Fatal(err)
	}
	newer, err := s.Create(Params{Model: "m"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Append(newer, userEntry("e1", "NeEdLe first")); err != nil {
		t.Fatal(err)
	}

	matches, err := s.Search("needle", 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, m := range matches {
		got = append(got, m.ID[len(m.ID)-6:]+"/"+m.EntryID+"/"+m.Kind)
	}
	o, n := older.ID[len(older.ID)-6:], newer.ID[len(newer.ID)-6:]
	want := []string{n + "/e1/user", o + "/e1/user", o + "/e2/assistant", o + "/e4/assistant", o + "/e5/error", o + "/e6/notice", o + "/e7/image"}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("matches %v, want %v", got, want)
	}
	m := matches[2]
	if m.Title != "Older" || m.Turn != 1 || matches[3].Turn != 2 || matches[0].Title != "untitled" || matches[0].Turn != 1 {
		t.Errorf("match fields: %+v, %+v", m, matches[3])
	}
	if !strings.Contains(m.Snippet, "the NEEDLE is here") || strings.Contains(m.Snippet, "\n") ||
		!strings.HasPrefix(m.Snippet, "…") || !strings.HasSuffix(m.Snippet, "…") {
		t.Errorf("snippet %q", m.Snippet)
	}
	if n := utf8.RuneCountInString(m.Snippet); n < 70 || n > 84 {
		t.Errorf("snippet of %d runes: %q", n, m.Snippet)
	}
	if matches[0].Snippet != "NeEdLe first" {
		t.Errorf("short snippet %q", matches[0].Snippet)
	}

	if limited, err := s.Search("NEEDLE", 2); err != nil || len(limited) != 2 || limited[1].EntryID != "e1" {
		t.Errorf("Search with limit 2: %+v, %v", limited, err)
	}
	if multi, err := s.Search("needle  is", 0); err != nil || len(multi) != 1 || multi[0].EntryID != "e2" {
		t.Errorf("a query across a newline: %+v, %v", multi, err)
	}
	if none, err := s.Search("haystacks", 0); err != nil || len(none) != 0 {
		t.Errorf("Search for nothing: %+v, %v", none, err)
	}
	if _, err := s.Search(" \n", 0); err == nil {
		t.Error("an empty query was accepted")
	}
}

func TestSnippet(t *testing.T) {
	for _, tc := range []struct{ text, q, want string }{
		{"short hit", "hit", "short hit"},
		{strings.Repeat("a", 100) + "X", "x", "…" + strings.Repeat("a", 79) + "X"},
		{"X" + strings.Repeat("b", 100), "x", "X" + strings.Repeat("b", 79) + "…"},
		{"İstanbul Straße", "straße", "İstanbul Straße"},
	} {
		got, ok := snippet(tc.text, tc.q)
		if !ok || got != tc.want {
			t.Errorf("snippet(%.20q…, %q) = %q, %v; want %q", tc.text, tc.q, got, ok, tc.want)
		}
	}
}
