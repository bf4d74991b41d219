package api

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// APIError is an error answered by the server, either as an HTTP status with
// Anthropic's error body or as an `error` event in the middle of a stream.
type APIError struct {
	// Status is the HTTP status: 200 for an error event inside a stream,
	// whatever its type (the status that usually goes with the type is never
	// invented).
	Status int
	// Type is the error type, such as "rate_limit_error". It is empty when the
	// body was not Anthropic's error shape.
	Type string
	// Message is the server's message, or the start of a body that was not JSON.
	Message string
	// RequestID is the request-id header of the response, if any.
	RequestID string
	// URL is the address that was tried, credentials and query left out;
	// set for a 404, whose usual cause is a wrong base URL.
	URL string
}

// Error formats the error as "<status> <type>: <message>", or, for an error
// inside a stream, "<type>: <message> (in the stream, after HTTP 200)".
func (e *APIError) Error() string {
	var b strings.Builder
	inStream := e.Status == http.StatusOK
	if e.Status != 0 && !inStream {
		fmt.Fprintf(&b, "%d", e.Status)
	}
	typ := e.Type
	if typ == "" && e.Status != 0 {
		typ = strings.ToLower(strings.ReplaceAll(http.StatusText(e.Status), " ", "_"))
	}
	if typ != "" {
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(typ)
	}
	if e.Message != "" {
		if b.Len() > 0 {
			b.WriteString(": ")
		}
		b.WriteString(e.Message)
	}
	if inStream {
		b.WriteString(" (in the stream, after HTTP 200)")
	}
	if e.URL != "" {
		b.WriteString(" (at " + e.URL + ")")
	}
	return b.String()
}

// Hint suggests what the user can do about the error on the chat screen,
// where the slash commands it names (/retry, /thinking) are typed.
func (e *APIError) Hint() string { return e.hint(chatHints) }

// ShellHint suggests what the user can do about the error in a shell, after
// a command such as muse -p: what it names (a flag, running the command
// again) works when pasted there, where no slash command does.
func (e *APIError) ShellHint() string { return e.hint(shellHints) }

// hintForms are a hint's words where its fix is typed: the chat screen's
// slash commands, or a shell's flags.
type hintForms struct {
	retry, rateLimited, overloaded, serverError string
	refused                                     func(r refusal) string
}

var (
	chatHints = hintForms{
		retry:       "/retry",
		rateLimited: "rate limited: wait a moment, then /retry",
		overloaded:  "the service is overloaded: /retry in a moment",
		serverError: "server error: /retry",
		refused:     func(r refusal) string { return r.chat },
	}
	shellHints = hintForms{
		retry:       "run the same command again",
		rateLimited: "rate limited: wait a moment, then run the same command again",
		overloaded:  "the service is overloaded: run the same command again in a moment",
		serverError: "server error: run the same command again",
		refused:     func(r refusal) string { return r.shell },
	}
)

func (e *APIError) hint(f hintForms) string {
	switch {
	case e.Status == http.StatusUnauthorized || e.Type == "authentication_error":
		return "check the credential muse sends (MUSE_ACCESS_TOKEN, MUSE_API_KEY, ANTHROPIC_API_KEY or the profile's access_token_env; muse doctor names it)"
	case e.Status == http.StatusForbidden || e.Type == "permission_error":
		return "this credential may not use that model or endpoint"
	case e.Status == http.StatusNotFound && e.URL != "" && e.Type != "not_found_error":
		return "nothing answers at " + e.URL + ": set the base URL (MUSE_BASE_URL, ANTHROPIC_BASE_URL or base_url) to the address before /v1/messages, as the provider's docs give it"
	case e.Status == http.StatusNotFound || e.Type == "not_found_error":
		return "check the base URL and the model name (muse models lists the models)"
	case e.Status == http.StatusTooManyRequests || e.Type == "rate_limit_error":
		return f.rateLimited
	case e.Status == 529 || e.Type == "overloaded_error":
		return f.overloaded
	case e.Status >= 500:
		return f.serverError
	case e.Status == http.StatusBadRequest || e.Type == "invalid_request_error":
		if r, ok := refusedSetting(e.Message); ok {
			return f.refused(r)
		}
		return "the request was refused: check the settings it names"
	}
	return f.retry
}

// refusal is what a 400 refuses, when its message names a setting muse
// knows, and its fix on the chat screen and in a shell.
type refusal struct {
	words       []string
	chat, shell string
}

// refusals map what a 400's message names to muse's setting and its fix,
// in order: the first whose every word is in the message wins.
var refusals = []refusal{
	{[]string{"adaptive", "effort"},
		"this model wants adaptive thinking, not a budget: /thinking adaptive (--thinking adaptive, or thinking = \"adaptive\" in the profile)",
		"this model wants adaptive thinking, not a budget: --thinking adaptive (or thinking = \"adaptive\" in the profile)"},
	{[]string{"adaptive"},
		"this model does not take adaptive thinking: /thinking off, or a budget such as /thinking 2048 (thinking_budget in the profile)",
		"this model does not take adaptive thinking: --thinking off, or a budget such as --thinking-budget 2048 (thinking_budget in the profile)"},
	{[]string{"budget_tokens"},
		"this model refuses a thinking budget: /thinking adaptive, or /thinking off",
		"this model refuses a thinking budget: --thinking adaptive, or --thinking off"},
	{[]string{"effort"},
		"this model refuses an effort: /thinking adaptive with no effort, or /thinking off (effort in the profile, --effort)",
		"this model refuses an effort: leave out --effort (and effort in the profile), or --thinking off"},
	{[]string{"output_config"},
		"this model refuses output_config: /thinking adaptive with no effort, or /thinking off",
		"this model refuses output_config: leave out --effort (and effort in the profile), or --thinking off"},
	{[]string{"thinking"},
		"this model refuses that thinking: /thinking off, or the other form (/thinking adaptive or /thinking 2048)",
		"this model refuses that thinking: --thinking off, or the other form (--thinking adaptive or --thinking-budget 2048)"},
	{[]string{"temperature"},
		"this model refuses temperature: /temperature off (and drop temperature from the profile or --temperature)",
		"this model refuses temperature: leave out --temperature (and drop temperature from the profile)"},
	{[]string{"top_p"},
		"this model refuses top_p: /top-p off (and drop top_p from the profile or --top-p)",
		"this model refuses top_p: leave out --top-p (and drop top_p from the profile)"},
	{[]string{"top_k"},
		"this model refuses top_k: /top-k off (and drop top_k from the profile or --top-k)",
		"this model refuses top_k: leave out --top-k (and drop top_k from the profile)"},
	{[]string{"max_tokens"},
		"max_tokens is more than this model allows: a lower /max-tokens N (max_tokens in the profile, --max-tokens)",
		"max_tokens is more than this model allows: a lower --max-tokens N (and max_tokens in the profile)"},
}

// refusedSetting finds the setting a 400 refuses; ok is false when its
// message names none muse knows.
func refusedSetting(msg string) (refusal, bool) {
	msg = strings.ToLower(msg)
	for _, r := range refusals {
		all := true
		for _, w := range r.words {
			all = all && strings.Contains(msg, w)
		}
		if all {
			return r, true
		}
	}
	return refusal{}, false
}

// errorBody is Anthropic's error body, {"type":"error","error":{type,
// message}}, or DashScope's, {request_id, code, message}.
type errorBody struct {
	Type  string `json:"type"`
	Error *struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
	RequestID string `json:"request_id"`
	Code      string `json:"code"`
	Message   string `json:"message"`
}

// newAPIError builds an APIError from a response status, body and request id.
// Anthropic's {"type":"error","error":{...}} is read field by field; an HTML
// page is summarised by its title or first heading; any other body gives its
// first 200 bytes. The message is made one line (see oneLine) and is
// otherwise the server's text: the front end sanitizes it for a terminal.
func newAPIError(status int, body []byte, requestID string) *APIError {
	e := &APIError{Status: status, RequestID: requestID}
	var eb errorBody
	err := json.Unmarshal(body, &eb)
	if err == nil && eb.Error != nil && (eb.Error.Type != "" || eb.Error.Message != "") {
		e.Type = eb.Error.Type
		e.Message = oneLine(eb.Error.Message)
		return e
	}
	if err == nil && eb.Error == nil && eb.Code != "" {
		e.Type, e.Message = eb.Code, oneLine(eb.Message)
		if e.RequestID == "" {
			e.RequestID = eb.RequestID
		}
		return e
	}
	if s, ok := htmlSummary(body, status); ok {
		e.Message = s
		return e
	}
	e.Message = snippet(body)
	if e.Message == "" {
		e.Message = "empty response body"
	}
	return e
}

// Errors of the transport that are not answered by the server.
var (
	// ErrHeaderTimeout is returned when the server sends no response headers in time.
	ErrHeaderTimeout = errors.New("no response from the server in time")
	// ErrIdleTimeout is returned when a stream sends nothing for the idle timeout.
	ErrIdleTimeout = errors.New("the stream stopped sending")
	// ErrStalled is returned when a stream sends no content (only pings,
	// comments or keep-alives) for the stall timeout, or more of them than
	// its stall size allows (see WithStallSize).
	ErrStalled = errors.New("the stream sent no content")
	// ErrRequestTimeout is returned when a call, its retries and its reply
	// included, takes longer than the request timeout.
	ErrRequestTimeout = errors.New("the request took too long")
	// ErrMalformedEvent is returned when a stream sends an event that is
	// not JSON, or, past the size limit, not a delta of text: a server at
	// fault, or an address that is no such server.
	ErrMalformedEvent = errors.New("the server sent a malformed event")
	// ErrStreamCut is returned when a stream ends before message_stop.
	ErrStreamCut = errors.New("the stream ended before the reply was complete; the partial reply is kept")

	// errNoProgress ends the events of a stream that sent more than its
	// stall size allows of what adds nothing to the reply.
	errNoProgress = errors.New("no progress")
	// errTooLarge is a body larger than what was read of it.
	errTooLarge = errors.New("the response is too large")
)

// scrub masks the client's own credentials in text a server sent back (an
// error that quotes the token it was given), so that no credential reaches
// the screen, a log or a session file through an error.
func (c *Client) scrub(text string) string {
	for _, secret := range []string{c.token, c.apiKey, c.imageToken} {
		if len(secret) >= 8 {
			text = strings.ReplaceAll(text, secret, "[credential hidden]")
		}
	}
	return text
}
