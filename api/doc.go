// Package api is a small typed client for the message and image endpoints of
// the service muse talks to: POST /v1/messages (Anthropic's Messages API,
// streamed as server-sent events) and POST /v1/images/generations.
//
// A Client is built with functional options and an injectable *http.Client.
// Server errors are *APIError values, checked with errors.As. Requests are
// validated before they are sent; a validation error wraps ErrInvalidRequest.
//
// # Server text is returned as received
//
// Package api is the lowest layer of muse and imports no other muse package.
// It returns the server's text exactly as received: reply content, error
// types, request ids, stop sequences, and URLs named in errors may hold
// terminal escapes or other control characters, and api keeps them. Front ends
// sanitize before anything reaches a terminal. The one change api makes is to
// keep error messages readable: an APIError's Message is one line of valid
// UTF-8 (runs of white space become one space, bytes that are not UTF-8
// become U+FFFD), and an HTML error page is summarised by its title or first
// heading. Control characters stay.
//
// # Unknown fields are kept
//
// Message, Usage and ContentBlock keep the JSON fields they have no Go field
// for, and known fields sent as null, in Extra, and write them back on
// Marshal, so a message printed as JSON shows every field the server sent
// (usage.cache_creation, usage.service_tier, container, stop_sequence: null).
// Fields of a stream's message_start and message_delta events that have no Go
// field end up in the assembled Message the same way, message_delta's
// overwriting message_start's.
//
// # Why not the official SDK
//
// A review suggested moving onto github.com/anthropics/anthropic-sdk-go.
// This package stays, for three measured reasons. It builds in a fraction
// of the SDK's time (the SDK alone costs about 93 CPU-seconds per build
// mode, and CI builds three: plain, -race and fuzzing). It keeps blocks it
// does not know byte for byte (ContentBlock.Raw), where the SDK decodes
// into its union types and writes back what it understood. And it is
// small: one request type, one Stream with Next, Current, Err and Close,
// and errors that front ends test with errors.As. The SDK is still used,
// in tests only: package api/sdkwire decodes muse's request bodies with
// the SDK's types, so the wire format cannot drift from Anthropic's.
package api
