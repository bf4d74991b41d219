package api

import (
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"time"
)

// The interface fixes the image request (DashScope's synchronous shape) and
// an OpenAI-style result (data[]). A real DashScope server answers in its
// own shapes, which this file reads into the same ImageResult: the
// synchronous output.choices[].message.content[].image, and an asynchronous
// task (output.task_id) polled at GET /api/v1/tasks/{task_id} under the same
// base URL until it succeeds or fails. Its error body {request_id, code,
// message} is read in errors.go.

// Task states of a DashScope asynchronous task.
const (
	TaskPending   = "PENDING"
	TaskRunning   = "RUNNING"
	TaskSucceeded = "SUCCEEDED"
	TaskFailed    = "FAILED"
	TaskCanceled  = "CANCELED"
	TaskUnknown   = "UNKNOWN"
)

// DefaultTaskTimeout is how long GenerateImage polls an asynchronous image
// task before it gives up (WithTaskTimeout).
const DefaultTaskTimeout = 5 * time.Minute

// ImageTask is the progress of an asynchronous image task, for a UI to
// show ("task RUNNING · 12 s").
type ImageTask struct {
	ID      string
	Status  string
	Elapsed time.Duration
}

// imageWire is every shape of image answer muse reads.
type imageWire struct {
	Created int64       `json:"created"`
	Data    []ImageData `json:"data"`
	Output  *dashOutput `json:"output"`
}

// dashOutput is DashScope's output object, synchronous or a task.
type dashOutput struct {
	TaskID     string `json:"task_id"`
	TaskStatus string `json:"task_status"`
	Code       string `json:"code"`
	Message    string `json:"message"`
	Choices    []struct {
		Message struct {
			Content []struct {
				Image string `json:"image"`
			} `json:"content"`
		} `json:"message"`
	} `json:"choices"`
	Results []struct {
		URL          string `json:"url"`
		ActualPrompt string `json:"actual_prompt"`
		Code         string `json:"code"`
		Message      string `json:"message"`
	} `json:"results"`
}

// result turns w into an ImageResult; task is the task still to poll, "".
func (w *imageWire) result() (r *ImageResult, task string, status string) {
	r = &ImageResult{Created: w.Created, Data: w.Data}
	o := w.Output
	if len(r.Data) > 0 || o == nil {
		return r, "", ""
	}
	for _, c := range o.Choices {
		for _, part := range c.Message.Content {
			if part.Image != "" {
				r.Data = append(r.Data, ImageData{URL: part.Image})
			}
		}
	}
	for _, res := range o.Results {
		switch {
		case res.URL != "":
			r.Data = append(r.Data, ImageData{URL: res.URL, RevisedPrompt: res.ActualPrompt})
		case res.Code != "" || res.Message != "":
			// One image of several failed: it keeps its place, with why.
			r.Data = append(r.Data, ImageData{Error: strings.TrimPrefix(res.Code+": "+res.Message, ": ")})
		}
	}
	if len(r.Data) == 0 && o.TaskID != "" {
		return r, o.TaskID, o.TaskStatus
	}
	return r, "", o.TaskStatus
}

// pollTask polls the task id until it ends, the task time limit passes or
// ctx is done, telling onTask of each state. Each poll is a request of its
// own, retried as any other.
func (c *Client) pollTask(ctx context.Context, id, status string, onTask func(ImageTask), opts []RequestOption) (*ImageResult, error) {
	// elapsed counts the pauses between polls, not the clock: what the
	// time limit bounds is how long muse keeps asking.
	var elapsed time.Duration
	limit := c.taskTimeout
	for poll := 0; ; poll++ {
		if onTask != nil {
			onTask(ImageTask{ID: id, Status: status, Elapsed: elapsed})
		}
		if elapsed >= limit {
			return nil, fmt.Errorf("the image task %s was still %s after %s: muse stopped waiting (raise it with the image task timeout)", id, strings.ToLower(status), limit)
		}
		if err := c.sleep(ctx, pollWait(poll)); err != nil {
			return nil, err
		}
		elapsed += pollWait(poll)
		resp, cancel, err := c.send(ctx, call{method: "GET", path: "/api/v1/tasks/" + url.PathEscape(id), image: true, wait: c.responseTimeout}, opts)
		if err != nil {
			return nil, fmt.Errorf("poll the image task %s: %w", id, err)
		}
		var w struct {
			RequestID string `json:"request_id"`
			imageWire
		}
		err = c.decodeJSON(resp, cancel, &w, maxResponseSize)
		resp.Body.Close()
		cancel(nil)
		if err != nil {
			return nil, fmt.Errorf("read the image task %s: %w", id, err)
		}
		r, _, st := w.result()
		if st != "" {
			status = st
		}
		switch status {
		case TaskSucceeded:
			if onTask != nil {
				onTask(ImageTask{ID: id, Status: status, Elapsed: elapsed})
			}
			return r, nil
		case TaskFailed, TaskCanceled, TaskUnknown:
			// The poll itself succeeded (HTTP 200): the task failed, so
			// the error has no status of its own.
			e := &APIError{Type: "task_" + strings.ToLower(status), Message: "the image task " + strings.ToLower(status), RequestID: w.RequestID}
			if o := w.Output; o != nil && (o.Code != "" || o.Message != "") {
				e.Type, e.Message = cmpOr(o.Code, e.Type), cmpOr(oneLine(o.Message), e.Message)
			}
			return nil, e
		}
		if len(r.Data) > 0 { // images without a state: take them
			return r, nil
		}
	}
}

// pollWait is the pause before poll number n: 1 s, then 2 s, then 5 s.
func pollWait(n int) time.Duration {
	switch {
	case n == 0:
		return time.Second
	case n < 5:
		return 2 * time.Second
	}
	return 5 * time.Second
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// decodeImageWire parses an image answer of any shape muse reads.
func decodeImageWire(body []byte) (*imageWire, error) {
	var w imageWire
	if err := json.Unmarshal(body, &w); err != nil {
		return nil, err
	}
	return &w, nil
}

// MaxImages is the most images muse keeps of one generation: the interface
// has no count to ask for, and a hostile server that sends 500 would have
// 500 files written, each up to the download limit.
const MaxImages = 4

// keepAtMost keeps the first n images of r and counts the rest in Dropped.
func (r *ImageResult) keepAtMost(n int) {
	if len(r.Data) > n {
		r.Dropped = len(r.Data) - n
		r.Data = r.Data[:n:n]
	}
}
