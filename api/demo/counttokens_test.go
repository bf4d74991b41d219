package demo

import (
	"context"
	"net/http"
	"testing"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"
)

// The official SDK counts a request's tokens with the demo's
// /v1/messages/count_tokens, which counts them as a reply's usage does;
// the demo refuses max_tokens there, and checks the messages as
// /v1/messages does.
func TestCountTokens(t *testing.T) {
	srv := newTestServer(t, Options{})
	sdk := anthropic.NewClient(option.WithoutEnvironmentDefaults(), option.WithBaseURL(srv.URL), option.WithAPIKey(DefaultAPIKey),
		option.WithHeader("provider-version", testVersion), option.WithHTTPClient(srv.Client()), option.WithMaxRetries(0))
	got, err := sdk.Messages.CountTokens(context.Background(), anthropic.MessageCountTokensParams{
		Model:    "demo-chat",
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("how many words are here"))},
	})
	if err != nil {
		t.Fatal(err)
	}
	m := getMessage(t, srv, chat("how many words are here", nil))
	if got.InputTokens != int64(m.Usage.InputTokens) || got.InputTokens == 0 {
		t.Errorf("counted %d, a reply's usage says %d", got.InputTokens, m.Usage.InputTokens)
	}

	count := func(body map[string]any) *http.Response {
		return post(t, srv.URL+countTokensPath, body, messageHeaders())
	}
	if msg := expectError(t, count(chat("hi", nil)), http.StatusBadRequest, errInvalidRequest); msg != "max_tokens: Extra inputs are not permitted" {
		t.Errorf("with max_tokens: %q", msg)
	}
	body := chat("hi", nil)
	delete(body, "max_tokens")
	body["messages"] = []any{}
	if msg := expectError(t, count(body), http.StatusBadRequest, errInvalidRequest); msg != "messages: at least one message is required" {
		t.Errorf("no messages: %q", msg)
	}
}
