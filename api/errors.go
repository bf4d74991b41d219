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
	// Status is the HTTP status. For an error event inside a 200 stream it is
	// the status that usually goes with Type (529 for overloaded_error), or 0.
	Status int
	// Type is the error type, such as "rate_limit_error". It is empty when the
	// body was not Anthropic's error shape.
	Type string
	// Message is the server's message, or the start of a body that was not JSON.
	Message string
	// RequestID is the request-id header of the response, if any.
	RequestID string
}

// Error formats the error as "<status> <type>: <message>".
func (e *APIError) Error() string {
	var b strings.Builder
	if e.Status != 0 {
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
	return b.String()
}

// Hint suggests what the user can do about the error.
func (e *APIError) Hint() string {
	switch {
	case e.Status == http.StatusUnauthorized || e.Type == "authentication_error":
		return "check MUSE_ACCESS_TOKEN or MUSE_API_KEY"
	case e.Status == http.StatusForbidden || e.Type == "permission_error":
		return "this credential may not use that model or endpoint"
	case e.Status == http.StatusNotFound || e.Type == "not_found_error":
		return "check the base URL and the model name"
	case e.Status == http.StatusTooManyRequests || e.Type == "rate_limit_error":
		return "rate limited: wait a moment, then /retry"
	case e.Status == 529 || e.Type == "overloaded_error":
		return "the service is overloaded: /retry in a moment"
	case e.Status >= 500:
		return "server error: /retry"
	case e.Status == http.StatusBadRequest || e.Type == "invalid_request_error":
		return "the request was refused: check the settings it names"
	}
	return "/retry"
}

// statusForType maps Anthropic's error types to the status that usually carries them.
var statusForType = map[string]int{
	"invalid_request_error": 400,
	"authentication_error":  401,
	"billing_error":         402,
	"permission_error":      403,
	"not_found_error":       404,
	"request_too_large":     413,
	"rate_limit_error":      429,
	"api_error":             500,
	"timeout_error":         504,
	"overloaded_error":      529,
}

type errorBody struct {
	Type  string `json:"type"`
	Error *struct {
		Type    string `json:"type"`
		Message string `json:"message"`
	} `json:"error"`
}

// newAPIError builds an APIError from a response status, body and request id.
// Anthropic's {"type":"error","error":{...}} is read field by field; an HTML
// page is summarised by its title or first heading; any other body gives its
// first 200 bytes. The message is made one line (see oneLine) and is
// otherwise the server's text: the front end sanitizes it for a terminal.
func newAPIError(status int, body []byte, requestID string) *APIError {
	e := &APIError{Status: status, RequestID: requestID}
	var eb errorBody
	if json.Unmarshal(body, &eb) == nil && eb.Error != nil && (eb.Error.Type != "" || eb.Error.Message != "") {
		e.Type = eb.Error.Type
		e.Message = oneLine(eb.Error.Message)
		if e.Status == 0 {
			e.Status = statusForType[eb.Error.Type]
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
	// ErrStreamCut is returned when a stream ends before message_stop.
	ErrStreamCut = errors.New("the stream ended before the reply was complete; the partial reply is kept")
)
