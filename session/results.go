package session

import (
	"errors"

	"muse/api"
)

// ToolResult is the result of one tool call, as shown and as sent back.
type ToolResult struct {
	ToolUseID string `json:"tool_use_id"`
	Name      string `json:"name"`
	// Server names the MCP server of the tool, "" for a command.
	Server string `json:"server,omitempty"`
	// Output is what the tool printed (capped), or what the user typed.
	Output  string `json:"output"`
	IsError bool   `json:"is_error,omitempty"`
	// Approval says how the call was allowed: "yes", "always", "typed"
	// (a tool without a command), or "no" (declined: not run).
	Approval string `json:"approval,omitempty"`
	ExitCode int    `json:"exit_code,omitempty"`
	// DurationMS is how long the command ran.
	DurationMS int64 `json:"duration_ms,omitempty"`
	// Images are the images of an MCP tool's result, sent after Output.
	// Their bytes are stored as a prompt's attachments are, once per
	// session (Writer.SaveAttachment), and not in the journal.
	Images []Attachment `json:"images,omitempty"`
	// Content holds image blocks sent after Output, with their bytes in
	// base64, as journals written before Images kept them; muse reads it
	// and no longer writes it.
	Content []api.ContentBlock `json:"content,omitempty"`
}

// Files returns the attachments of e whose bytes the session stores: a
// prompt's files, and the images of tool results.
func (e *Entry) Files() []Attachment {
	n := len(e.Attachments)
	for _, r := range e.ToolResults {
		n += len(r.Images)
	}
	if n == len(e.Attachments) {
		return e.Attachments
	}
	files := make([]Attachment, 0, n)
	files = append(files, e.Attachments...)
	for _, r := range e.ToolResults {
		files = append(files, r.Images...)
	}
	return files
}

// ErrorEntry describes a failed request as an error entry: the server's
// error with its request id, or a timeout, a cut stream or a connection
// failure, each with a hint of what to do.
func ErrorEntry(err error) Entry {
	e := Entry{Kind: KindError}
	var apiErr *api.APIError
	switch {
	case errors.As(err, &apiErr):
		e.Error = &ErrorInfo{Status: apiErr.Status, Type: apiErr.Type, Message: apiErr.Message, Hint: apiErr.Hint()}
		e.RequestID = apiErr.RequestID
	case errors.Is(err, api.ErrIdleTimeout), errors.Is(err, api.ErrHeaderTimeout), errors.Is(err, api.ErrStalled), errors.Is(err, api.ErrRequestTimeout):
		e.Error = &ErrorInfo{Type: "timeout", Message: err.Error(), Hint: "/retry, or check the server"}
	case errors.Is(err, api.ErrMalformedEvent):
		e.Error = &ErrorInfo{Type: "malformed_event", Message: err.Error(), Hint: "check the server and the base URL (base_url in the profile), then /retry"}
	case errors.Is(err, api.ErrStreamCut):
		e.Error = &ErrorInfo{Type: "stream_cut", Message: err.Error(), Hint: "/retry"}
	default:
		e.Error = &ErrorInfo{Type: "connection", Message: err.Error(), Hint: "check the service address (MUSE_BASE_URL, ANTHROPIC_BASE_URL or the profile's base_url) and the network, then /retry"}
	}
	return e
}
