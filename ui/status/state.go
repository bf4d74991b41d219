// Package status draws the chat screen's header and status line: the
// notice, what is in flight, the selection, the usage and the settings
// that change what is sent. It is a child of the chat screen made of pure
// functions: the root describes the screen in a State, and the functions
// here compose the lines from it, without I/O.
package status

import (
	"time"

	"muse/session"
	"muse/ui/meter"
	"muse/ui/syncrun"
)

// State is what the status line shows, as the root sees it at a frame.
type State struct {
	// Width is the line's width; Now the clock's time, for what is timed.
	Width int
	Now   time.Time
	// Spinner is the spinner's frame; Progress draws a bar of a fraction
	// (an image's download).
	Spinner  string
	Progress func(float64) string
	// Notice is the status bar's line, "" for none.
	Notice string
	// FormKeys: an MCP server's form has the keys, so esc declines it
	// rather than cancel the reply.
	FormKeys bool
	// Ask is the tool call that waits for the user, if any (the zero Ask
	// for none).
	Ask Ask
	// Turn and Image are the reply and the image turn in flight, nil for
	// none.
	Turn  *Turn
	Image *Image
	// Selected is the message of selection mode, nil outside it.
	Selected *Selected
	// SaveErr says why the session is not saved; LastErr names the last
	// failed request; LastStop why the last reply stopped.
	SaveErr, LastErr, LastStop string
	// Usage is what the session's replies spent.
	Usage session.Usage
	// Meter measures the context window's use and the cost, set to the
	// session's model.
	Meter meter.Model
	// Branches says how many branches the session holds ("3 branches"),
	// "" for one.
	Branches string
	// Sync is the last background sync's status.
	Sync syncrun.Status
	// Params are the session's settings, ImageParams those of /image; Approve is
	// the approval mode's setting, empty while it is off.
	Params      session.Params
	ImageParams session.ImageParams
	Approve     Setting
}

// Ask is a tool call that waits for the user.
type Ask struct {
	// Name is the tool's name.
	Name string
	// Result says the user types the result (a tool without a command), or
	// why the call should not run; Approval that it waits for y, n or a.
	Result, HasCommand, Approval bool
	// PasteRefused says an answer came right behind a paste.
	PasteRefused bool
}

// Turn is the reply in flight.
type Turn struct {
	Started time.Time
	// Running names the tool whose command runs, Progress how far it is.
	Running, Progress string
	// Retry is why the request waits to be retried, at RetryAt, as attempt
	// RetryAttempt.
	Retry        string
	RetryAt      time.Time
	RetryAttempt int
	// Tokens counts the reply's tokens so far; Streaming says it started.
	Tokens    int
	Streaming bool
	Cancelled bool
}

// Image is the image turn in flight.
type Image struct {
	Phase       string
	Started     time.Time
	Done, Total int64
}

// Selected is the message selection mode is on.
type Selected struct {
	Entry session.Entry
	// Name names its kind ("prompt", "reply"…); Index is its place among
	// Count, from 0; Of is its branch ("2/3"), "" for none.
	Name         string
	Index, Count int
	Of           string
}
