package session

import (
	"time"

	"muse/api"
)

// Kinds of conversation entries.
const (
	KindUser      = "user"
	KindAssistant = "assistant"
	KindError     = "error"
	KindNotice    = "notice"
	// KindImage is an image generation: its prompt, settings and results.
	KindImage = "image"
	// KindTool holds the results of the tool calls of the reply before it.
	KindTool = "tool"
)

// Statuses of an assistant entry.
const (
	StatusComplete    = ""
	StatusStreaming   = "streaming"
	StatusCancelled   = "cancelled"
	StatusInterrupted = "interrupted"
	StatusFailed      = "failed"
)

// Entry is one item of a conversation: a user prompt, an assistant reply, an
// error or a notice. It is what the UI shows and what the journal stores.
type Entry struct {
	// ID is unique within the session, such as "e12".
	ID string `json:"id"`
	// Parent is the id of the entry this one follows on its branch; empty
	// for the first entry. Entries that share a parent are alternatives
	// (branches) of each other.
	Parent string    `json:"parent,omitempty"`
	Kind   string    `json:"kind"`
	Time   time.Time `json:"time"`
	// Text is the prompt of a user entry, or the text of a notice.
	Text string `json:"text,omitempty"`
	// Attachments are the files sent with a user entry's prompt, before
	// its text. The journal holds only what they are; their bytes are
	// stored once, by hash, in the session's attachments folder.
	Attachments []Attachment `json:"attachments,omitempty"`
	// Message is the reply of an assistant entry.
	Message *api.Message `json:"message,omitempty"`
	// Truncated lists the content indices of tool_use blocks whose input never
	// finished, with the raw input that arrived (the wire format drops both).
	Truncated map[int]string `json:"truncated,omitempty"`
	// Status tells whether an assistant reply completed, was cancelled or was interrupted.
	Status string `json:"status,omitempty"`
	// Error describes a failed request (kind error).
	Error *ErrorInfo `json:"error,omitempty"`
	// RequestID is the server's request-id of the reply or error.
	RequestID string `json:"request_id,omitempty"`
	// LatencyMS is how long the reply took, in milliseconds.
	LatencyMS int64 `json:"latency_ms,omitempty"`
	// Params are the settings the request was sent with.
	Params *Params `json:"params,omitempty"`
	// ImagePrompt is the prompt of an image entry.
	ImagePrompt string `json:"image_prompt,omitempty"`
	// ImageParams are the settings an image entry was generated with.
	ImageParams *ImageParams `json:"image_params,omitempty"`
	// Images are the results of an image entry, in the order requested.
	Images []Image `json:"images,omitempty"`
	// ToolResults are the results of a tool entry, in the order of the calls.
	ToolResults []ToolResult `json:"tool_results,omitempty"`
}

// Image is one result of an image generation.
type Image struct {
	// Index is the position of the image in the response, from 0.
	Index int `json:"index"`
	// URL is where the server offered the image; such links expire.
	URL string `json:"url,omitempty"`
	// Path is the file the image was saved to.
	Path   string `json:"path,omitempty"`
	Width  int    `json:"width,omitempty"`
	Height int    `json:"height,omitempty"`
	// RevisedPrompt is the prompt the server actually used, when it rewrote it.
	RevisedPrompt string `json:"revised_prompt,omitempty"`
	// Error says why this image failed, when it did.
	Error string `json:"error,omitempty"`
	// SHA256 names the image's bytes in a JSON export's "files" (only
	// there: the journal has the file's path).
	SHA256 string `json:"sha256,omitempty"`
}

// ImageParams are the settings of an image generation.
type ImageParams struct {
	Model string `json:"model,omitempty"`
	// Size is the size of the images, such as "1024*1024".
	Size string `json:"size,omitempty"`
	// NegativePrompt says what the images should not show.
	NegativePrompt string `json:"negative_prompt,omitempty"`
	// PromptExtend lets the server rewrite the prompt; nil leaves it to the
	// server, as does a nil Watermark.
	PromptExtend *bool `json:"prompt_extend,omitempty"`
	Watermark    *bool `json:"watermark,omitempty"`
}

// ErrorInfo is a failed request as shown to the user.
type ErrorInfo struct {
	Status  int    `json:"status,omitempty"`
	Type    string `json:"type,omitempty"`
	Message string `json:"message"`
	Hint    string `json:"hint,omitempty"`
}

// Name names the failed request the way its error does on the command
// line: "<status> <type>", the type told from the status when the server
// gave none (an HTML error page).
func (info *ErrorInfo) Name() string {
	return (&api.APIError{Status: info.Status, Type: info.Type}).Error()
}

// ErrorOf is what failed in an error entry: its Error, or, for an entry that
// holds only a message, that message.
func (e *Entry) ErrorOf() *ErrorInfo {
	if e.Error != nil {
		return e.Error
	}
	return &ErrorInfo{Message: e.Text}
}

// Params are the message settings of a session, saved with it and used for
// each request.
type Params struct {
	Model         string   `json:"model,omitempty"`
	MaxTokens     int      `json:"max_tokens,omitempty"`
	System        string   `json:"system,omitempty"`
	Temperature   *float64 `json:"temperature,omitempty"`
	TopP          *float64 `json:"top_p,omitempty"`
	TopK          *int     `json:"top_k,omitempty"`
	StopSequences []string `json:"stop_sequences,omitempty"`
	// ThinkingBudget enables extended thinking with this many tokens; 0 is off.
	ThinkingBudget int `json:"thinking_budget,omitempty"`
	// Thinking is "adaptive" for adaptive thinking, which current models
	// require instead of a budget; "" is off (or the budget form).
	Thinking string `json:"thinking,omitempty"`
	// Effort is sent as output_config.effort: one of api.Efforts, or ""
	// for the server's default.
	Effort string `json:"effort,omitempty"`
	// UserID is sent as metadata.user_id.
	UserID string `json:"user_id,omitempty"`
	// ToolChoice is "auto", "any", "none" or a tool's name; "" sends none.
	ToolChoice string `json:"tool_choice,omitempty"`
	// Cite asks for citations from every document sent (text files and
	// PDFs): citations: {enabled: true} on each document block. The
	// service takes them on all of a request's documents or none.
	Cite bool `json:"cite,omitempty"`
	// Image holds the settings of image generations, when any were chosen.
	Image *ImageParams `json:"image,omitempty"`
}

// Session is a conversation with its settings.
type Session struct {
	ID      string    `json:"id"`
	Title   string    `json:"title,omitempty"`
	Created time.Time `json:"created"`
	Updated time.Time `json:"updated"`
	Params  Params    `json:"params"`
	// Entries is the active branch: the path from the first entry to Head.
	Entries []Entry `json:"entries,omitempty"`
	// Head is the id of the last entry of the active branch.
	Head string `json:"-"`
	// All holds every entry of every branch, in the order they were first
	// written; Entries is a path through it.
	All []Entry `json:"-"`
	// ForkedFrom says which session this one was forked from, if any.
	ForkedFrom *Fork `json:"forked_from,omitempty"`
	// Warnings lists what was skipped while loading a damaged journal.
	Warnings []string `json:"-"`
	// Queue holds the prompts queued on the chat screen and not yet sent,
	// as the session's writer found them when it opened it (see queue.go).
	Queue []QueuedPrompt `json:"-"`
}

// Info is what a session list shows of a session.
type Info struct {
	ID string `json:"id"`
	// Title is the session's title, "untitled" when it has none, or
	// "(damaged: reason)" when its journal cannot be loaded.
	Title   string    `json:"title"`
	Created time.Time `json:"created"`
	Updated time.Time `json:"updated"`
	// Messages counts the user, assistant and image entries of the active branch.
	Messages int    `json:"messages"`
	Model    string `json:"model"`
	// Damaged is why the journal cannot be loaded; empty when it can.
	Damaged string `json:"damaged,omitempty"`
	// Ahead is set when Updated is more than a day after the clock of the
	// list (see SortInfos): a date not believed, which the front ends
	// show as in the future.
	Ahead bool `json:"ahead,omitempty"`
}

// UpdatedText is when the session was last updated, in local time and
// layout, followed by " (in the future)" when the date is Ahead.
func (i Info) UpdatedText(layout string) string {
	s := i.Updated.Local().Format(layout)
	if i.Ahead {
		s += " (in the future)"
	}
	return s
}

// ModelOf returns the model of the entry e: the reply's, or the one it was
// sent to, or for an image turn its image model, else the session's.
func (s *Session) ModelOf(e *Entry) string {
	switch {
	case e.Message != nil && e.Message.Model != "":
		return e.Message.Model
	case e.Params != nil && e.Params.Model != "":
		return e.Params.Model
	case e.ImageParams != nil && e.ImageParams.Model != "":
		return e.ImageParams.Model
	case e.Kind == KindImage && s.Params.Image != nil && s.Params.Image.Model != "":
		return s.Params.Image.Model
	}
	return s.Params.Model
}
