package conversation

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"

	"muse/api"
	"muse/session"
)

// narrowEntries are a reply with wrapping list items and an image turn
// with a long prompt and a revised one.
func narrowEntries() []session.Entry {
	reply := "Some points:\n\n" +
		"- Handle errors where you can act on them, and wrap them with context.\n" +
		"- A well-known trick: keep the happy path left-aligned in every function.\n" +
		"  - A nested item that is long enough to wrap twice at forty columns wide.\n" +
		"- [ ] a task item that also wraps at forty columns\n\n" +
		"1. The first step is to read the issue twice.\n" +
		"2. The second step is to write a failing test.\n\n" +
		"A paragraph whose rows must keep their own indent, even when a row starts\n" +
		"with 2024. and some words after it, so it wraps a few times here.\n"
	return []session.Entry{
		{ID: "a", Kind: session.KindAssistant, Status: session.StatusComplete,
			Message: &api.Message{Content: []api.ContentBlock{{Type: api.BlockText, Text: reply}}}},
		{ID: "i", Kind: session.KindImage, Status: session.StatusComplete,
			ImagePrompt: "a red fox sitting in a snowy forest at dawn",
			Images: []session.Image{{Index: 0, Width: 1024, Height: 1024, Path: "/tmp/fox.png",
				RevisedPrompt: "a red fox sitting in a snowy forest at dawn, rendered in soft light"}}},
	}
}

// TestNarrowHangingIndents renders a reply with lists and an image turn
// with a revised prompt at 40 columns, and compares it with
// testdata/narrow/hang40.golden: the rows a list item or a "prompt:" or
// "revised:" line continues on line up under its text.
func TestNarrowHangingIndents(t *testing.T) {
	c := testConversation(t, 0).SetEntries(narrowEntries()).SetSize(40, 80)
	var got []string
	for i := range narrowEntries() {
		got = append(got, c.entryLines(i)...)
	}
	for i, l := range got {
		got[i] = strings.TrimRight(ansi.Strip(l), " ")
		if w := ansi.StringWidth(got[i]); w > 40 {
			t.Errorf("row %d is %d columns wide: %q", i, w, got[i])
		}
	}
	path := filepath.Join("testdata", "narrow", "hang40.golden")
	text := strings.Join(got, "\n") + "\n"
	if *update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (go test ./ui/conversation -run Narrow -update writes it)", err)
	}
	if text != string(want) {
		t.Errorf("render differs from %s:\n%s", path, firstDiff(text, string(want)))
	}
}

// TestHangRejoinsCutWords checks that an item's rows cut inside a word
// ("well-" and "known") join again without a space, and rows cut at a
// space with one.
func TestHangRejoinsCutWords(t *testing.T) {
	src := "- a well-known trick. Next one"
	got := hang([]string{"well-", "known trick.", "Next one"}, src, 0, 2, 40)
	if want := []string{"  well-known trick. Next one"}; strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got %q, want %q", got, want)
	}
}
