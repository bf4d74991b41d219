package engine

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"muse/api"
	"muse/session"
	"muse/ui/sanitize"
)

// ToolCaller runs a tool in muse's process, such as by calling a Model
// Context Protocol server, with the call's input (a JSON object).
type ToolCaller func(ctx context.Context, input json.RawMessage) ToolOutput

// ToolOutput is what a ToolCaller gives back: Text for the tool_result,
// and Images sent after it; Audio is saved beside the session and linked
// in the text, not sent (the API takes no audio); IsError marks a failed
// call.
type ToolOutput struct {
	Text    string
	Images  []ToolImage
	Audio   []ToolFile
	IsError bool
}

// ToolFile is a file of a tool's result that muse keeps but does not
// send: bytes of MediaType.
type ToolFile struct {
	MediaType string
	Data      []byte
}

// ToolImage is an image of a tool's result: bytes of MediaType (one of
// api.ImageMediaTypes, checked against them), and its size in pixels when
// known. The engine stores it in the session as an attachment.
type ToolImage struct {
	MediaType     string
	Data          []byte
	Width, Height int
}

// ToolSource gives the tools offered besides Config.Tools at the start of
// a turn, starting what serves them when needed, and notes worth a line in
// the status bar (a server that failed). It may block for as long as the
// servers take to start, bounded by their own time limit, or until ctx
// ends.
type ToolSource func(ctx context.Context) (tools []Tool, notes []string)

// moreTools returns Config.Tools and those of Config.MoreTools, reporting
// its notes. A tool of MoreTools named like one of Tools is left out, and
// so is one whose name the service refuses, with a note, before anything
// is sent.
func (r *runner) moreTools(ctx context.Context) []Tool {
	more, notes := r.cfg.MoreTools(ctx)
	for _, n := range notes {
		r.emit(Event{Kind: Notice, Text: n})
	}
	tools := slices.Clip(r.cfg.Tools)
	for _, t := range more {
		switch {
		case !api.ValidToolName(t.Def.Name):
			// The request check would refuse the whole turn for it.
			r.emit(Event{Kind: Notice, Text: fmt.Sprintf("tool %q is not offered: a tool's name must be %s", sanitize.Line(t.Def.Name), api.ToolNameRule)})
		case !slices.ContainsFunc(tools, func(o Tool) bool { return o.Def.Name == t.Def.Name }):
			tools = append(tools, t)
		}
	}
	return tools
}

// callTool runs a call of a tool with Call; res holds what is known of
// the result already.
func (r *runner) callTool(ctx context.Context, tool *Tool, call api.ContentBlock, res session.ToolResult) session.ToolResult {
	r.emit(Event{Kind: ToolRunning, Call: call})
	input := call.Input
	if len(input) == 0 {
		input = json.RawMessage("{}")
	}
	start := r.cfg.Now()
	report, stop := r.progress(call)
	out := tool.Call(WithProgress(ctx, report), input)
	stop()
	res.Output, res.IsError, res.Server = out.Text+r.saveAudio(out.Audio), out.IsError, tool.Server
	res.DurationMS = r.cfg.Now().Sub(start).Milliseconds()
	for i, img := range out.Images {
		// Stored once by hash beside the journal, which names it; one that
		// cannot be stored is kept in memory for this run, and reported.
		a, err := r.w.SaveAttachment(session.Attachment{
			Name: fmt.Sprintf("%s image %d", call.Name, i+1), Kind: session.AttachImage,
			MediaType: img.MediaType, Width: img.Width, Height: img.Height,
		}, img.Data)
		r.saved(err)
		res.Images = append(res.Images, a)
	}
	return res
}

// Progress is how far a running tool is, as its server says: Progress of
// Total (0 when unknown), and a message (the server's text).
type Progress struct {
	Progress, Total float64
	Message         string
}

// String writes p as the status line shows it: "3/5 · message".
func (p Progress) String() string {
	s := strconv.FormatFloat(p.Progress, 'f', -1, 64)
	if p.Total > 0 {
		s += "/" + strconv.FormatFloat(p.Total, 'f', -1, 64)
	}
	if p.Message != "" {
		s += " · " + p.Message
	}
	return sanitize.Line(s)
}

type progressKey struct{}

// WithProgress returns ctx carrying report, which a ToolCaller calls
// (ProgressOf) as its tool reports progress.
func WithProgress(ctx context.Context, report func(Progress)) context.Context {
	return context.WithValue(ctx, progressKey{}, report)
}

// ProgressOf returns the progress reporter of ctx, or nil.
func ProgressOf(ctx context.Context) func(Progress) {
	f, _ := ctx.Value(progressKey{}).(func(Progress))
	return f
}

// progress returns the reporter of a call's progress, which emits a
// ToolProgress event, and stop, after which it reports nothing: a late
// report never follows the call's result.
func (r *runner) progress(call api.ContentBlock) (report func(Progress), stop func()) {
	var mu sync.Mutex
	done := false
	report = func(p Progress) {
		mu.Lock()
		defer mu.Unlock()
		if !done {
			r.emit(Event{Kind: ToolProgress, Call: call, Text: p.String()})
		}
	}
	stop = func() {
		mu.Lock()
		done = true
		mu.Unlock()
	}
	return report, stop
}

// system returns the system prompt with the MCP servers' instructions.
func (r *runner) system(system string) string {
	switch {
	case r.instructions == "":
		return system
	case system == "":
		return r.instructions
	}
	return system + "\n\n" + r.instructions
}

// saveAudio saves the audio of a tool's result in the session's
// attachments folder, each file named by its hash, and returns the lines
// that link them, for the result's text.
func (r *runner) saveAudio(files []ToolFile) string {
	var b strings.Builder
	for i, f := range files {
		path, err := r.saveFile(f)
		if err != nil {
			fmt.Fprintf(&b, "\naudio %d (%s) not saved: %v", i+1, sanitize.Line(f.MediaType), err)
			continue
		}
		fmt.Fprintf(&b, "\naudio %d (%s) saved as %s", i+1, sanitize.Line(f.MediaType), (&url.URL{Scheme: "file", Path: filepath.ToSlash(path)}).String())
	}
	return b.String()
}

// saveFile writes f in the session's attachments folder (0700; the file
// 0600), once by its hash, and returns its path.
func (r *runner) saveFile(f ToolFile) (string, error) {
	dir, err := r.w.Files().MakeAttachmentDir(r.w.ID()) // never through a link
	if errors.Is(err, session.ErrNotFound) {
		return "", errors.New("this session is not saved")
	}
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(f.Data)
	path := filepath.Join(dir, hex.EncodeToString(sum[:])+audioExt(f.MediaType))
	if _, err := os.Stat(path); err == nil {
		return path, nil
	}
	tmp, err := os.CreateTemp(dir, ".audio-*")
	if err != nil {
		return "", err
	}
	_, err = tmp.Write(f.Data)
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), path)
	}
	if err != nil {
		os.Remove(tmp.Name())
		return "", err
	}
	return path, nil
}

// audioExt is the extension of a file of audio of mediaType.
func audioExt(mediaType string) string {
	switch strings.ToLower(mediaType) {
	case "audio/wav", "audio/x-wav", "audio/wave":
		return ".wav"
	case "audio/mpeg", "audio/mp3":
		return ".mp3"
	case "audio/ogg":
		return ".ogg"
	case "audio/flac":
		return ".flac"
	case "audio/webm":
		return ".webm"
	case "audio/mp4", "audio/aac":
		return ".m4a"
	}
	return ".audio"
}
