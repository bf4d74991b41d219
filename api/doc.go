// Package api is a small typed client for the message and image endpoints of
// the service muse talks to: POST /v1/messages (Anthropic's Messages API,
// streamed as server-sent events) and POST /v1/images/generations.
//
// A Client is built with functional options and an injectable *http.Client.
// Server errors are *APIError values, checked with errors.As. Requests are
// validated before they are sent; a validation error wraps ErrInvalidRequest.
package api
