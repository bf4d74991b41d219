package demo

import (
	"context"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"muse/api"
)

func TestMessageAuth(t *testing.T) {
	srv := newTestServer(t, Options{})
	url := srv.URL + messagesPath
	cases := []struct {
		name   string
		bearer string
		key    string
		ok     bool
		want   string
	}{
		{"missing", "", "", false, "missing credentials: send Authorization: Bearer <token> or x-api-key"},
		{"wrong bearer", "Bearer nope", "", false, "invalid credentials"},
		{"wrong scheme", "Basic " + DefaultToken, "", false, "invalid credentials"},
		{"wrong key", "", "nope", false, "invalid credentials"},
		{"bearer", "Bearer " + DefaultToken, "", true, ""},
		{"lowercase scheme", "bearer " + DefaultToken, "", true, ""},
		{"api key", "", DefaultAPIKey, true, ""},
		{"wrong bearer good key", "Bearer nope", DefaultAPIKey, true, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			resp := post(t, url, chat("hi", nil), map[string]string{
				"Authorization": c.bearer, "x-api-key": c.key, "provider-version": testVersion,
			})
			if c.ok {
				var m api.Message
				decodeOK(t, resp, &m)
				return
			}
			if msg := expectError(t, resp, http.StatusUnauthorized, errAuthentication); !strings.HasPrefix(msg, c.want) {
				t.Fatalf("message %q, want prefix %q", msg, c.want)
			}
		})
	}
}

func TestCustomCredentials(t *testing.T) {
	srv := newTestServer(t, Options{Token: "tok", APIKey: "key"})
	url := srv.URL + messagesPath
	expectError(t, post(t, url, chat("hi", nil), messageHeaders()), http.StatusUnauthorized, errAuthentication)
	var m api.Message
	decodeOK(t, post(t, url, chat("hi", nil), map[string]string{"Authorization": "Bearer tok", "provider-version": testVersion}), &m)
	decodeOK(t, post(t, url, chat("hi", nil), map[string]string{"x-api-key": "key", "provider-version": testVersion}), &m)
	expectError(t, post(t, url, chat("hi", nil), map[string]string{"x-api-key": DefaultAPIKey, "provider-version": testVersion}),
		http.StatusUnauthorized, errAuthentication)
}

func TestVersionHeader(t *testing.T) {
	srv := newTestServer(t, Options{})
	for _, v := range []string{"", "2023-6-1", "2023-13-01", "v1", "2023-06-01x"} {
		hdr := messageHeaders()
		hdr["provider-version"] = v
		msg := expectError(t, post(t, srv.URL+messagesPath, chat("hi", nil), hdr), http.StatusBadRequest, errInvalidRequest)
		if !strings.Contains(msg, "provider-version") {
			t.Errorf("version %q: message %q does not name the header", v, msg)
		}
	}
	hdr := messageHeaders()
	hdr["provider-version"] = "2099-01-31"
	var m api.Message
	decodeOK(t, post(t, srv.URL+messagesPath, chat("hi", nil), hdr), &m)
}

func TestMessageValidation(t *testing.T) {
	srv := newTestServer(t, Options{})
	cases := []struct {
		name string
		body any
		want string
	}{
		{"bad json", `{"model":`, "invalid JSON"},
		{"empty body", ``, "empty"},
		{"wrong type", `{"model":"m","max_tokens":"ten","messages":[{"role":"user","content":"hi"}]}`, "max_tokens"},
		{"no model", chat("hi", map[string]any{"model": ""}), "model"},
		{"no messages", chat("hi", map[string]any{"messages": []any{}}), "messages"},
		{"bad role", chat("hi", map[string]any{"messages": []any{map[string]any{"role": "system", "content": "x"}}}), "messages.0.role"},
		{"empty content", chat("", nil), "messages.0.content"},
		{"max_tokens 0", chat("hi", map[string]any{"max_tokens": 0}), "max_tokens: must be an integer >= 1"},
		{"max_tokens missing", map[string]any{"model": "m", "messages": []any{map[string]any{"role": "user", "content": "hi"}}}, "max_tokens"},
		{"temperature high", chat("hi", map[string]any{"temperature": 1.5}), "temperature: must be between 0 and 1"},
		{"temperature low", chat("hi", map[string]any{"temperature": -0.1}), "temperature: must be between 0 and 1"},
		{"top_p", chat("hi", map[string]any{"top_p": 2}), "top_p: must be between 0 and 1"},
		{"top_k", chat("hi", map[string]any{"top_k": -1}), "top_k: must be an integer >= 0"},
		{"thinking budget", chat("hi", map[string]any{"max_tokens": 100, "thinking": map[string]any{"type": "enabled", "budget_tokens": 100}}), "thinking.budget_tokens"},
		{"tool name", chat("hi", map[string]any{"tools": []any{map[string]any{"input_schema": map[string]any{}}}}), "tools.0.name"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			msg := expectError(t, postMessage(t, srv, c.body), http.StatusBadRequest, errInvalidRequest)
			if !strings.Contains(msg, c.want) {
				t.Fatalf("message %q does not contain %q", msg, c.want)
			}
		})
	}
	// Set-but-zero and boundary values are fine.
	for _, extra := range []map[string]any{
		{"temperature": 0}, {"temperature": 1}, {"top_p": 0}, {"top_p": 1}, {"max_tokens": 1},
	} {
		getMessage(t, srv, chat("hi", extra))
	}
}

func TestContentTypeChecked(t *testing.T) {
	srv := newTestServer(t, Options{})
	hdr := messageHeaders()
	hdr["Content-Type"] = "text/plain"
	expectError(t, post(t, srv.URL+messagesPath, chat("hi", nil), hdr), http.StatusBadRequest, errInvalidRequest)
	hdr["Content-Type"] = "application/json; charset=utf-8"
	var m api.Message
	decodeOK(t, post(t, srv.URL+messagesPath, chat("hi", nil), hdr), &m)
}

func TestMethodsAndPaths(t *testing.T) {
	srv := newTestServer(t, Options{})
	for _, path := range []string{messagesPath, imagesPath} {
		resp, err := http.Get(srv.URL + path)
		if err != nil {
			t.Fatal(err)
		}
		expectError(t, resp, http.StatusMethodNotAllowed, errInvalidRequest)
		if resp.Header.Get("Allow") != http.MethodPost {
			t.Errorf("Allow %q", resp.Header.Get("Allow"))
		}
	}
	expectError(t, post(t, srv.URL+"/v1/nothing", chat("hi", nil), messageHeaders()), http.StatusNotFound, errNotFound)
	expectError(t, post(t, srv.URL+imagePrefix+"x.png", "", nil), http.StatusMethodNotAllowed, errInvalidRequest)
}

func TestRequestID(t *testing.T) {
	srv := newTestServer(t, Options{})
	re := regexp.MustCompile(`^req_demo_(\d+)$`)
	var prev int
	for i, resp := range []*http.Response{
		postMessage(t, srv, chat("hi", nil)),
		post(t, srv.URL+messagesPath, chat("hi", nil), nil), // 401
		post(t, srv.URL+"/nope", "", nil),                   // 404
		postImage(t, srv, imageBody("demo:404", nil)),
	} {
		m := re.FindStringSubmatch(resp.Header.Get("request-id"))
		if m == nil {
			t.Fatalf("response %d: request-id %q", i, resp.Header.Get("request-id"))
		}
		n, _ := strconv.Atoi(m[1])
		if n <= prev {
			t.Fatalf("request-id %d after %d", n, prev)
		}
		prev = n
	}
}

func TestReplyShape(t *testing.T) {
	srv := newTestServer(t, Options{})
	body := chat("How do I write a worker pool in Go?", map[string]any{"system": "Be brief please"})
	m := getMessage(t, srv, body)
	if m.Type != "message" || m.Role != api.RoleAssistant || m.Model != "demo-model" {
		t.Fatalf("header fields: %+v", m)
	}
	if !strings.HasPrefix(m.ID, "msg_demo_") {
		t.Fatalf("id %q", m.ID)
	}
	if m.StopReason != api.StopEndTurn || len(m.Content) != 1 || m.Content[0].Type != api.BlockText {
		t.Fatalf("stop %q content %+v", m.StopReason, m.Content)
	}
	text := m.Text()
	for _, want := range []string{
		"## How do I write a worker pool in Go?\n", "\n- ", "\n| Option | Strength | Trade-off |\n|---|---|---|\n",
		"\n```go\n", "\n```\n",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("reply lacks %q:\n%s", want, text)
		}
	}
	if n := strings.Count(text, "\n- "); n != 3 {
		t.Errorf("%d bullets, want 3", n)
	}
	u := m.Usage
	if u.InputTokens != 9+3 || u.OutputTokens != len(strings.Fields(text)) ||
		u.CacheReadInputTokens != 0 || u.CacheCreationInputTokens != 0 {
		t.Errorf("usage %+v", u)
	}

	// Deterministic for a prompt, different across prompts.
	if again := getMessage(t, srv, body); again.Text() != text || again.ID != m.ID {
		t.Error("same prompt gave a different reply")
	}
	seen := map[string]bool{text: true}
	for _, p := range []string{"What is a monad?", "Explain TCP slow start", "Write a haiku about rain"} {
		other := getMessage(t, srv, chat(p, nil)).Text()
		if seen[other] {
			t.Errorf("prompt %q repeats a reply", p)
		}
		seen[other] = true
	}
}

// A pasted page is cut in the heading, at the end of a word; demo:long
// echoes a prompt a new user types (the review's, 94 runes) whole.
func TestHeadingTruncated(t *testing.T) {
	srv := newTestServer(t, Options{})
	long := strings.Repeat("word ", 40)
	text := getMessage(t, srv, chat(long, nil)).Text()
	heading, _, _ := strings.Cut(text, "\n")
	if n := len([]rune(heading)); n > 70 || !strings.HasSuffix(heading, "word…") {
		t.Fatalf("heading %q (%d runes)", heading, n)
	}
	typed := "demo:long please explain the supercalifragilisticexpialidocious caching layer in great detail"
	text = getMessage(t, srv, chat(typed, nil)).Text()
	heading, _, _ = strings.Cut(text, "\n")
	if !strings.HasSuffix(heading, "caching layer in great detail") {
		t.Fatalf("heading %q lacks the end of the prompt", heading)
	}
}

func TestBlockContentAndToolResult(t *testing.T) {
	srv := newTestServer(t, Options{})
	blocks := chat("", map[string]any{"messages": []any{
		map[string]any{"role": "user", "content": []any{
			map[string]any{"type": "text", "text": "first part"},
			map[string]any{"type": "text", "text": "second part"},
		}},
	}})
	if text := getMessage(t, srv, blocks).Text(); !strings.HasPrefix(text, "## first part second part\n") {
		t.Fatalf("block prompt reply starts %q", text[:40])
	}

	result := strings.Repeat("x", 250)
	conv := chat("", map[string]any{"messages": []any{
		map[string]any{"role": "user", "content": "what time is it? demo:tool"},
		map[string]any{"role": "assistant", "content": []any{
			map[string]any{"type": "tool_use", "id": "toolu_1", "name": "get_time", "input": map[string]any{"timezone": "UTC"}},
		}},
		map[string]any{"role": "user", "content": []any{
			map[string]any{"type": "tool_result", "tool_use_id": "toolu_1", "content": result},
		}},
	}})
	m := getMessage(t, srv, conv)
	if want := "The tool returned: " + result[:200]; m.Text() != want || m.StopReason != api.StopEndTurn {
		t.Fatalf("reply %q stop %q", m.Text(), m.StopReason)
	}
	// Content given as blocks.
	conv["messages"].([]any)[2] = map[string]any{"role": "user", "content": []any{
		map[string]any{"type": "tool_result", "tool_use_id": "toolu_1", "content": []any{
			map[string]any{"type": "text", "text": "12:00 UTC"},
		}},
	}}
	if m := getMessage(t, srv, conv); m.Text() != "The tool returned: 12:00 UTC" {
		t.Fatalf("reply %q", m.Text())
	}
}

func TestMaxTokensCut(t *testing.T) {
	srv := newTestServer(t, Options{})
	full := getMessage(t, srv, chat("cut me short", nil)).Text()
	words := splitWords(full)
	m := getMessage(t, srv, chat("cut me short", map[string]any{"max_tokens": 5}))
	if m.StopReason != api.StopMaxTokens || m.Usage.OutputTokens != 5 || m.Text() != strings.Join(words[:5], "") {
		t.Fatalf("stop %q usage %+v text %q", m.StopReason, m.Usage, m.Text())
	}
	events := streamEvents(t, srv, chat("cut me short", map[string]any{"max_tokens": 5}))
	md := last(events, "message_delta")
	if md == nil || md.data.Delta.StopReason != api.StopMaxTokens || md.data.Usage.OutputTokens != 5 {
		t.Fatalf("message_delta %+v", md)
	}
	if deltaText(events) != m.Text() {
		t.Fatalf("streamed %q, want %q", deltaText(events), m.Text())
	}
	// Exactly enough tokens is not a cut.
	m = getMessage(t, srv, chat("cut me short", map[string]any{"max_tokens": len(words)}))
	if m.StopReason != api.StopEndTurn || m.Text() != full {
		t.Fatalf("exact budget: stop %q", m.StopReason)
	}
}

func TestStopSequences(t *testing.T) {
	srv := newTestServer(t, Options{})
	body := chat("stop please", map[string]any{"stop_sequences": []string{"```", "|"}})
	m := getMessage(t, srv, body)
	if m.StopReason != api.StopSequence || m.StopSequence != "|" || strings.Contains(m.Text(), "|") {
		t.Fatalf("stop %q seq %q text %q", m.StopReason, m.StopSequence, m.Text())
	}
	events := streamEvents(t, srv, body)
	md := last(events, "message_delta")
	if md.data.Delta.StopSequence == nil || *md.data.Delta.StopSequence != "|" || deltaText(events) != m.Text() {
		t.Fatalf("streamed stop %+v", md.data.Delta)
	}
	// Without a stop sequence the field is null on the wire.
	resp := postMessage(t, srv, chat("hi", nil))
	if raw := string(readAll(t, resp.Body)); !strings.Contains(raw, `"stop_sequence":null`) {
		t.Fatalf("stop_sequence not null: %s", raw)
	}
}

// TestContinueAfterMaxTokens sends a reply cut at max_tokens back as the last
// message: the demo continues it, and the two parts make the whole reply.
func TestContinueAfterMaxTokens(t *testing.T) {
	srv := httptest.NewServer(NewHandler(Options{}))
	defer srv.Close()
	c := api.New(srv.URL, api.WithAccessToken(DefaultToken))
	ask := func(max int, msgs ...api.MessageParam) *api.Message {
		m, err := c.CreateMessage(context.Background(), api.MessageRequest{Model: "m", MaxTokens: max, Messages: msgs})
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	user := api.TextMessage(api.RoleUser, "continue me")
	whole := ask(4096, user).Text()
	cut := ask(10, user)
	if cut.StopReason != api.StopMaxTokens {
		t.Fatalf("stop %q", cut.StopReason)
	}
	prefix := strings.TrimRight(cut.Text(), " \n")
	rest := ask(4096, user, api.TextMessage(api.RoleAssistant, prefix))
	if prefix+rest.Text() != whole {
		t.Errorf("continued reply does not complete the whole:\n%q\n+%q\n!=%q", prefix, rest.Text(), whole)
	}
}
