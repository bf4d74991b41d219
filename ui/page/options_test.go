package page

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"muse/api"
	"muse/session"
)

// inMemory returns a session of entries on one branch, with no files:
// each prompt a minute after the one before, each reply in its minute.
func inMemory(title string, entries ...session.Entry) *session.Session {
	parent := ""
	for i := range entries {
		entries[i].ID = "e" + string(rune('a'+i%26)) + strings.Repeat("x", i/26)
		entries[i].Parent = parent
		entries[i].Time = clock.Add(time.Duration(i/2) * time.Minute)
		parent = entries[i].ID
	}
	return &session.Session{ID: "20261122-100000-abcdef", Title: title, Created: clock, Updated: clock, Entries: entries, All: entries}
}

// everyBlock returns a session with text in every kind of block: title,
// prompt, attachment name, thinking, reply, tool call, server tool, tool
// result, image prompt, error and notice, each holding s.
func everyBlock(s string) *session.Session {
	input, _ := json.Marshal(map[string]string{"command": s})
	return inMemory("title "+s,
		session.Entry{Kind: session.KindUser, Text: "prompt " + s, Attachments: []session.Attachment{{Name: "file " + s + ".txt", Kind: session.AttachText, Bytes: 3}}},
		session.Entry{Kind: session.KindAssistant, Message: &api.Message{Model: "model", Content: []api.ContentBlock{
			{Type: api.BlockThinking, Thinking: "thinking " + s},
			{Type: api.BlockText, Text: "reply " + s + "\n\n```sh\ncurl -H 'x: " + s + "'\n```\n"},
			{Type: api.BlockToolUse, ID: "t1", Name: "run", Input: input},
			{Type: "server_tool_use", Raw: json.RawMessage(`{"type":"server_tool_use","name":"web_fetch","input":{"url":` + string(mustQuote(s)) + `}}`)},
		}}},
		session.Entry{Kind: session.KindTool, ToolResults: []session.ToolResult{{ToolUseID: "t1", Name: "run", Output: "output " + s, Approval: "yes"}}},
		session.Entry{Kind: session.KindImage, ImagePrompt: "image prompt " + s, Images: []session.Image{{Index: 0, Error: "failed " + s}}},
		session.Entry{Kind: session.KindError, Error: &session.ErrorInfo{Status: 500, Message: "error " + s, Hint: "hint " + s}},
		session.Entry{Kind: session.KindNotice, Text: "notice " + s},
	)
}

func mustQuote(s string) []byte {
	b, _ := json.Marshal(s)
	return b
}

// TestHostileTextInEveryBlock puts the hostile reply in every kind of
// block, and checks the page is inert.
func TestHostileTextInEveryBlock(t *testing.T) {
	inert(t, render(t, everyBlock(hostileReply), Options{}))
}

// TestRedact puts secrets of each form in every kind of block: with
// --redact none is left, the page says it was redacted, and muse's own
// configured credential is masked too; without it they stay.
func TestRedact(t *testing.T) {
	secrets := []string{
		"sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWx",
		"sk-proj-0123456789abcdefghij",
		"AKIAIOSFODNN7EXAMPLE",
		"ghp_0123456789abcdefghijklmnopqrstuvwxyz",
		"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
		"Bearer abcdefghijklmnop.qrstuvwx",
		"-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\nAAAABG5vbmUAAAAEbm9uZQ==\n-----END OPENSSH PRIVATE KEY-----",
		"muse-configured-token-42",
	}
	sess := everyBlock(strings.Join(secrets, " and "))
	plain := render(t, sess, Options{})
	for _, s := range []string{"sk-ant-api03-AbCdEfGhIjKlMnOpQrStUvWx", "muse-configured-token-42"} {
		if !strings.Contains(plain, s) {
			t.Fatalf("without --redact the page lost %q", s)
		}
	}
	page := render(t, sess, Options{Redact: true, Secrets: []string{"muse-configured-token-42", "prompt"}})
	for _, s := range secrets {
		for _, part := range []string{s, strings.TrimPrefix(s, "Bearer "), "b3BlbnNzaC1rZXktdjEAAAAA"} {
			if len(part) > 12 && strings.Contains(page, part) {
				t.Errorf("--redact left %q", part)
			}
		}
	}
	if n := strings.Count(page, Mask); n < 10*8 {
		t.Errorf("%d masks, want each of 8 secrets in each of 10 blocks", n)
	}
	if !strings.Contains(page, "Redacted:") {
		t.Error("the page does not say it was redacted")
	}
	if !strings.Contains(page, "prompt ") {
		t.Error("a configured secret under 8 bytes masked a word")
	}
	inert(t, page)
}

// TestLeaveOut checks --no-thinking and --no-tools: what they leave out is
// gone, the rest stays, and the page says what is left out.
func TestLeaveOut(t *testing.T) {
	sess := everyBlock("X")
	page := render(t, sess, Options{NoThinking: true, NoTools: true})
	for _, gone := range []string{"thinking X", `"command": "X"`, "output X", "web fetch"} {
		if strings.Contains(page, gone) {
			t.Errorf("%q is on the page", gone)
		}
	}
	for _, kept := range []string{"prompt X", "reply X", "image prompt X", "error X", "Left out of this page: thinking, tool calls and their results."} {
		if !strings.Contains(page, kept) {
			t.Errorf("%q is not on the page", kept)
		}
	}
	all := render(t, sess, Options{})
	for _, shown := range []string{"thinking X", `&#34;command&#34;: &#34;X&#34;`, "output X", "web fetch · X"} {
		if !strings.Contains(all, shown) {
			t.Errorf("without the options, %q is not on the page", shown)
		}
	}
}

// TestMissingImageFile removes the generated image's file: the page is
// whole, says the image is missing in its place, and names neither the
// file's path nor its folder.
func TestMissingImageFile(t *testing.T) {
	f := newFixture(t)
	var path string
	for _, e := range f.sess.Entries {
		for _, img := range e.Images {
			path = img.Path
		}
	}
	if err := os.Remove(path); err != nil {
		t.Fatal(err)
	}
	page := render(t, f.sess, Options{Files: f.store})
	inert(t, page)
	if !strings.Contains(page, "Image 1: the image file is missing or unreadable") {
		t.Error("the page does not say the image is missing")
	}
	if strings.Contains(page, path) || strings.Contains(page, os.TempDir()) {
		t.Error("the page names where the user's files are")
	}
	if !strings.Contains(page, "HOSTILE-REPLY") {
		t.Error("the page stops at the missing image")
	}
}

// TestMaxImagePx scales the embedded images down with ui/attach's scaler.
func TestMaxImagePx(t *testing.T) {
	f := newFixture(t)
	full := render(t, f.sess, Options{Files: f.store})
	small := render(t, f.sess, Options{Files: f.store, MaxImagePx: 64})
	if !strings.Contains(small, `width="64" height="40"`) || !strings.Contains(small, `width="64" height="40"`) {
		t.Error("the images are not scaled to 64 px a side")
	}
	if !strings.Contains(full, `width="640" height="400"`) {
		t.Error("without --max-image-px the generated image is not as stored")
	}
	if len(small) >= len(full) {
		t.Errorf("a page of images scaled down is %d bytes, as stored %d", len(small), len(full))
	}
}

// TestTableOfContents lists the prompts, each a link to its message, once
// there are TOCMin of them.
func TestTableOfContents(t *testing.T) {
	var entries []session.Entry
	for i := range TOCMin {
		entries = append(entries, session.Entry{Kind: session.KindUser, Text: "\n\nprompt <" + string(rune('A'+i)) + ">\nsecond line"},
			session.Entry{Kind: session.KindAssistant, Message: &api.Message{Content: []api.ContentBlock{{Type: api.BlockText, Text: "ok"}}}})
	}
	page := render(t, inMemory("t", entries...), Options{})
	if !strings.Contains(page, `<details class="toc"><summary>Prompts · 6</summary>`) || !strings.Contains(page, `<li><a href="#m11">prompt &lt;F&gt;</a></li>`) {
		t.Error("no table of contents linking each prompt")
	}
	short := render(t, inMemory("t", entries[:2*TOCMin-2]...), Options{})
	if strings.Contains(short, `class="toc"`) {
		t.Error("a table of contents for a short session")
	}
}
