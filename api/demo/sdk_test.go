package demo

import (
	"context"
	"encoding/json"
	"errors"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"

	"muse/api"
)

// The official Go SDK drives the demo server, and what it assembles is
// compared with what muse's own client assembles for the same request: the
// demo must speak the protocol as the real service does, and muse must read
// it as the SDK does.

const sdkModel = "demo-model"

// sdkScenario is one request, built for both clients.
type sdkScenario struct {
	name     string
	prompt   string
	system   string
	tool     bool // offer a get_weather tool
	thinking int  // thinking budget; 0 is none
}

var sdkScenarios = []sdkScenario{
	{name: "text", prompt: "Compare channels and mutexes", system: "You are terse."},
	{name: "tool", prompt: "What is the weather? demo:tool", tool: true},
	{name: "default tool", prompt: "What time is it? demo:tool"},
	{name: "think keyword", prompt: "Plan a trip demo:think"},
	{name: "thinking param", prompt: "Plan a trip", thinking: 1024},
	{name: "max tokens", prompt: "Explain everything demo:long"},
}

// weatherSchema is the input schema of the get_weather tool, as both clients send it.
var weatherSchema = map[string]any{
	"city":  map[string]any{"type": "string"},
	"units": map[string]any{"type": "string", "enum": []string{"celsius", "fahrenheit"}},
}

func startSDKServer(t *testing.T) (*httptest.Server, anthropic.Client, *api.Client) {
	t.Helper()
	srv := httptest.NewServer(NewHandler(Options{})) // listens on 127.0.0.1
	t.Cleanup(srv.Close)
	sdk := anthropic.NewClient(
		option.WithoutEnvironmentDefaults(),
		option.WithBaseURL(srv.URL),
		option.WithAPIKey(DefaultAPIKey),
		option.WithHeader("provider-version", testVersion),
		option.WithHTTPClient(srv.Client()),
		option.WithMaxRetries(0),
	)
	muse := api.New(srv.URL, api.WithAPIKey(DefaultAPIKey), api.WithMaxRetries(0), api.WithHTTPClient(srv.Client()))
	t.Cleanup(muse.Close)
	return srv, sdk, muse
}

func (s sdkScenario) maxTokens() int {
	if strings.Contains(s.prompt, kwLong) {
		return 40 // cut the long reply
	}
	return 4096
}

func (s sdkScenario) sdkParams() anthropic.MessageNewParams {
	p := anthropic.MessageNewParams{
		Model:     anthropic.Model(sdkModel),
		MaxTokens: int64(s.maxTokens()),
		Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock(s.prompt))},
	}
	if s.system != "" {
		p.System = []anthropic.TextBlockParam{{Text: s.system}}
	}
	if s.tool {
		p.Tools = []anthropic.ToolUnionParam{{OfTool: &anthropic.ToolParam{
			Name:        "get_weather",
			Description: anthropic.String("Current weather of a city"),
			InputSchema: anthropic.ToolInputSchemaParam{Properties: weatherSchema, Required: []string{"city"}},
		}}}
	}
	if s.thinking > 0 {
		p.Thinking = anthropic.ThinkingConfigParamOfEnabled(int64(s.thinking))
	}
	return p
}

func (s sdkScenario) museRequest(t *testing.T) api.MessageRequest {
	req := api.MessageRequest{
		Model:     sdkModel,
		MaxTokens: s.maxTokens(),
		System:    s.system,
		// One text block, as the SDK sends it, so that the demo gives both
		// the same message id.
		Messages: []api.MessageParam{{Role: api.RoleUser, Blocks: []api.ContentBlock{{Type: api.BlockText, Text: s.prompt}}}},
	}
	if s.tool {
		schema, err := json.Marshal(map[string]any{"type": "object", "properties": weatherSchema, "required": []string{"city"}})
		if err != nil {
			t.Fatal(err)
		}
		req.Tools = []api.Tool{{Name: "get_weather", Description: "Current weather of a city", InputSchema: schema}}
	}
	if s.thinking > 0 {
		req.Thinking = &api.Thinking{Type: "enabled", BudgetTokens: s.thinking}
	}
	return req
}

// sdkStream streams with the SDK, assembling the reply with Message.Accumulate.
func sdkStream(t *testing.T, c anthropic.Client, p anthropic.MessageNewParams) (anthropic.Message, error) {
	t.Helper()
	stream := c.Messages.NewStreaming(context.Background(), p)
	defer stream.Close()
	var m anthropic.Message
	for stream.Next() {
		if err := m.Accumulate(stream.Current()); err != nil {
			t.Fatalf("accumulate: %v", err)
		}
	}
	return m, stream.Err()
}

// museStream streams with muse's client.
func museStream(t *testing.T, c *api.Client, req api.MessageRequest) (api.Message, error) {
	t.Helper()
	s, err := c.StreamMessage(context.Background(), req)
	if err != nil {
		return api.Message{}, err
	}
	defer s.Close()
	for s.Next() {
	}
	return s.Message(), s.Err()
}

// normalJSON decodes a message's JSON with the ids of tool calls blanked:
// the demo numbers them per request.
func normalJSON(t *testing.T, data []byte) map[string]any {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("decode %s: %v", data, err)
	}
	content, _ := m["content"].([]any)
	for _, b := range content {
		if b, ok := b.(map[string]any); ok && b["type"] == api.BlockToolUse {
			if id, _ := b["id"].(string); !strings.HasPrefix(id, "toolu_demo_") {
				t.Errorf("tool id %q", id)
			}
			b["id"] = "toolu_demo_N"
		}
	}
	return m
}

// compareMessages checks that muse assembled what the SDK did: field by
// field, and as a whole on the wire.
func compareMessages(t *testing.T, sdk anthropic.Message, muse api.Message) {
	t.Helper()
	if sdk.ID != muse.ID || string(sdk.Model) != muse.Model || string(sdk.Role) != muse.Role {
		t.Errorf("header: sdk %s/%s/%s, muse %s/%s/%s", sdk.ID, sdk.Model, sdk.Role, muse.ID, muse.Model, muse.Role)
	}
	if string(sdk.StopReason) != muse.StopReason || sdk.StopSequence != muse.StopSequence {
		t.Errorf("stop: sdk %q %q, muse %q %q", sdk.StopReason, sdk.StopSequence, muse.StopReason, muse.StopSequence)
	}
	su := sdk.Usage
	want := api.Usage{InputTokens: int(su.InputTokens), OutputTokens: int(su.OutputTokens),
		CacheCreationInputTokens: int(su.CacheCreationInputTokens), CacheReadInputTokens: int(su.CacheReadInputTokens)}
	if got := muse.Usage; got.InputTokens != want.InputTokens || got.OutputTokens != want.OutputTokens ||
		got.CacheCreationInputTokens != want.CacheCreationInputTokens || got.CacheReadInputTokens != want.CacheReadInputTokens {
		t.Errorf("usage: sdk %+v, muse %+v", want, got)
	}
	if len(sdk.Content) != len(muse.Content) {
		t.Fatalf("blocks: sdk %d, muse %d", len(sdk.Content), len(muse.Content))
	}
	for i, s := range sdk.Content {
		m := muse.Content[i]
		if s.Type != m.Type || s.Text != m.Text || s.Thinking != m.Thinking || s.Signature != m.Signature || s.Name != m.Name {
			t.Errorf("block %d: sdk %s %q %q %q %q, muse %s %q %q %q %q", i,
				s.Type, s.Text, s.Thinking, s.Signature, s.Name, m.Type, m.Text, m.Thinking, m.Signature, m.Name)
		}
		if s.Type == api.BlockToolUse && !reflect.DeepEqual(decodeAny(t, s.Input), decodeAny(t, m.Input)) {
			t.Errorf("block %d input: sdk %s, muse %s", i, s.Input, m.Input)
		}
	}
	out, err := json.Marshal(muse)
	if err != nil {
		t.Fatal(err)
	}
	if g, w := normalJSON(t, out), normalJSON(t, []byte(sdk.RawJSON())); !reflect.DeepEqual(g, w) {
		t.Errorf("wire form:\n muse %s\n sdk  %s", out, sdk.RawJSON())
	}
}

func decodeAny(t *testing.T, raw json.RawMessage) any {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("decode %s: %v", raw, err)
	}
	return v
}

func TestSDKConformance(t *testing.T) {
	_, sdk, muse := startSDKServer(t)
	for _, sc := range sdkScenarios {
		t.Run(sc.name+"/stream", func(t *testing.T) {
			s, err := sdkStream(t, sdk, sc.sdkParams())
			if err != nil {
				t.Fatalf("sdk: %v", err)
			}
			m, err := museStream(t, muse, sc.museRequest(t))
			if err != nil {
				t.Fatalf("muse: %v", err)
			}
			compareMessages(t, s, m)
			checkScenario(t, sc, m)
		})
		t.Run(sc.name+"/create", func(t *testing.T) {
			s, err := sdk.Messages.New(context.Background(), sc.sdkParams())
			if err != nil {
				t.Fatalf("sdk: %v", err)
			}
			m, err := muse.CreateMessage(context.Background(), sc.museRequest(t))
			if err != nil {
				t.Fatalf("muse: %v", err)
			}
			compareMessages(t, *s, *m)
			checkScenario(t, sc, *m)
		})
	}
}

// checkScenario checks that the reply is the one the scenario asks for, so
// the comparison is not between two empty replies.
func checkScenario(t *testing.T, sc sdkScenario, m api.Message) {
	t.Helper()
	var types []string
	for _, b := range m.Content {
		types = append(types, b.Type)
	}
	want, stop := "text", api.StopEndTurn
	switch {
	case strings.Contains(sc.prompt, kwTool):
		want, stop = "text,tool_use", api.StopToolUse
	case strings.Contains(sc.prompt, kwThink) || sc.thinking > 0:
		want = "thinking,text"
	case strings.Contains(sc.prompt, kwLong):
		stop = api.StopMaxTokens
	}
	if got := strings.Join(types, ","); got != want || m.StopReason != stop || m.Text() == "" {
		t.Errorf("reply: blocks %s, stop %q, text %q; want blocks %s, stop %q", got, m.StopReason, m.Text(), want, stop)
	}
	if sc.tool {
		if in := decodeAny(t, m.Content[1].Input).(map[string]any); in["city"] != "Paris" || in["units"] != "celsius" {
			t.Errorf("tool input %s", m.Content[1].Input)
		}
	}
}

// TestSDKConformanceErrors checks that both clients see the demo's errors
// alike: a stream that fails after some text, a refused request, and an
// unknown field, which only the SDK can send.
func TestSDKConformanceErrors(t *testing.T) {
	_, sdk, muse := startSDKServer(t)
	sc := sdkScenario{prompt: "Tell me something demo:error"}

	t.Run("stream", func(t *testing.T) {
		s, sdkErr := sdkStream(t, sdk, sc.sdkParams())
		m, museErr := museStream(t, muse, sc.museRequest(t))
		var se *anthropic.Error
		if !errors.As(sdkErr, &se) || se.Type() != anthropic.ErrorTypeOverloadedError || !strings.HasPrefix(se.RequestID, "req_demo_") {
			t.Fatalf("sdk error %v", sdkErr)
		}
		var me *api.APIError
		if !errors.As(museErr, &me) || me.Type != string(se.Type()) || me.Message != "Overloaded" || !strings.HasPrefix(me.RequestID, "req_demo_") {
			t.Fatalf("muse error %v", museErr)
		}
		// The text that arrived before the error is kept alike.
		var sdkText string
		for _, b := range s.Content {
			sdkText += b.Text
		}
		if sdkText == "" || sdkText != m.Text() {
			t.Errorf("partial text: sdk %q, muse %q", sdkText, m.Text())
		}
	})

	t.Run("create", func(t *testing.T) {
		_, sdkErr := sdk.Messages.New(context.Background(), sc.sdkParams())
		_, museErr := muse.CreateMessage(context.Background(), sc.museRequest(t))
		var se *anthropic.Error
		if !errors.As(sdkErr, &se) || se.StatusCode != statusOverloaded || se.Type() != anthropic.ErrorTypeOverloadedError {
			t.Fatalf("sdk error %v", sdkErr)
		}
		var me *api.APIError
		if !errors.As(museErr, &me) || me.Status != se.StatusCode || me.Type != string(se.Type()) {
			t.Fatalf("muse error %v", museErr)
		}
	})

	t.Run("unknown field", func(t *testing.T) {
		p := sdkScenario{prompt: "hi"}.sdkParams()
		_, err := sdk.Messages.New(context.Background(), p, option.WithJSONSet("not_a_field", true))
		var se *anthropic.Error
		if !errors.As(err, &se) || se.StatusCode != 400 || se.Type() != anthropic.ErrorTypeInvalidRequestError ||
			!strings.Contains(se.RawJSON(), "not_a_field: Extra inputs are not permitted") {
			t.Fatalf("sdk error %v", err)
		}
	})
}
