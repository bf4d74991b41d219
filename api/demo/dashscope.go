package demo

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"

	"muse/api"
)

// Image keywords that answer in DashScope's own shapes, as a real DashScope
// server does, and one that sends more images than any client asks for.
const (
	kwDashScope = "demo:dashscope" // synchronous output.choices[].message.content[].image
	kwTask      = "demo:task"      // an asynchronous task, polled until it succeeds
	kwTaskFail  = "demo:taskfail"  // an asynchronous task that fails
	kwDSError   = "demo:dserror"   // DashScope's error body {request_id, code, message}
	kwMany      = "demo:many"      // 12 images
)

// tasksPrefix is where DashScope's tasks are polled.
const tasksPrefix = "/api/v1/tasks/"

// taskPolls is how many polls a demo task stays RUNNING before it ends.
const taskPolls = 2

// demoTask is an asynchronous image task of the demo.
type demoTask struct {
	polls int
	fail  bool
	data  []api.ImageData
}

// tasks holds the demo's asynchronous image tasks.
type tasks struct {
	mu   sync.Mutex
	next int
	byID map[string]*demoTask
}

// add starts a task that ends with data, or fails; it returns its id.
func (ts *tasks) add(data []api.ImageData, fail bool) string {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	if ts.byID == nil || len(ts.byID) >= 1024 {
		ts.byID = map[string]*demoTask{}
	}
	ts.next++
	id := fmt.Sprintf("task-demo-%d", ts.next)
	ts.byID[id] = &demoTask{data: data, fail: fail}
	return id
}

// dashScopeAnswer writes the image answer for a DashScope keyword of prompt;
// false when prompt holds none.
func (h *handler) dashScopeAnswer(w http.ResponseWriter, prompt string, data []api.ImageData) bool {
	has := func(kw string) bool { return strings.Contains(prompt, kw) }
	requestID := w.Header().Get("request-id")
	switch {
	case has(kwDSError):
		writeJSON(w, http.StatusBadRequest, map[string]any{"request_id": requestID, "code": "InvalidParameter", "message": "demo: the prompt holds demo:dserror"})
	case has(kwTaskFail), has(kwTask):
		id := h.tasks.add(data, has(kwTaskFail))
		writeJSON(w, http.StatusOK, map[string]any{"request_id": requestID, "output": map[string]any{"task_id": id, "task_status": api.TaskPending}})
	case has(kwDashScope):
		var content []any
		for _, d := range data {
			if d.URL != "" {
				content = append(content, map[string]any{"image": d.URL})
			}
		}
		writeJSON(w, http.StatusOK, map[string]any{"request_id": requestID, "output": map[string]any{"choices": []any{
			map[string]any{"finish_reason": "stop", "message": map[string]any{"role": "assistant", "content": content}},
		}}, "usage": map[string]any{"image_count": len(content)}})
	default:
		return false
	}
	return true
}

// serveTask answers GET /api/v1/tasks/{id}: RUNNING for taskPolls polls,
// then SUCCEEDED with the images, or FAILED.
func (h *handler) serveTask(w http.ResponseWriter, r *http.Request) {
	if !h.checkImageAuth(w, r) {
		return
	}
	id := strings.TrimPrefix(r.URL.Path, tasksPrefix)
	h.tasks.mu.Lock()
	t := h.tasks.byID[id]
	var status string
	var results []any
	if t != nil {
		t.polls++
		switch {
		case t.polls <= taskPolls:
			status = api.TaskRunning
		case t.fail:
			status = api.TaskFailed
		default:
			status = api.TaskSucceeded
			for _, d := range t.data {
				results = append(results, map[string]any{"url": d.URL, "actual_prompt": d.RevisedPrompt})
			}
		}
	}
	h.tasks.mu.Unlock()
	requestID := w.Header().Get("request-id")
	if t == nil {
		writeJSON(w, http.StatusNotFound, map[string]any{"request_id": requestID, "code": "NotFound", "message": "demo: no task " + id})
		return
	}
	out := map[string]any{"task_id": id, "task_status": status}
	if results != nil {
		out["results"] = results
	}
	if status == api.TaskFailed {
		out["code"], out["message"] = "DataInspectionFailed", "demo: the task was made to fail by demo:taskfail"
	}
	b, _ := json.Marshal(map[string]any{"request_id": requestID, "output": out})
	w.Header().Set("Content-Type", "application/json")
	_, _ = w.Write(b)
}
