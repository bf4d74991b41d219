package demo

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// The demo's DashScope words answer in DashScope's shapes.
func TestDemoDashScopeShapes(t *testing.T) {
	srv := newTestServer(t, Options{})
	var sync struct {
		Output struct {
			Choices []struct {
				Message struct {
					Content []struct{ Image string } `json:"content"`
				} `json:"message"`
			} `json:"choices"`
		} `json:"output"`
	}
	decodeOK(t, post(t, srv.URL+imagesPath, imageBody("a cat demo:dashscope", nil), imageHeaders()), &sync)
	if len(sync.Output.Choices) != 1 || !strings.HasSuffix(sync.Output.Choices[0].Message.Content[0].Image, ".png") {
		t.Fatalf("synchronous: %+v", sync)
	}
	type task struct {
		Output struct {
			TaskID     string                 `json:"task_id"`
			TaskStatus string                 `json:"task_status"`
			Code       string                 `json:"code"`
			Results    []struct{ URL string } `json:"results"`
		} `json:"output"`
	}
	for _, c := range []struct{ word, final string }{{"demo:task", "SUCCEEDED"}, {"demo:taskfail", "FAILED"}} {
		var start task
		decodeOK(t, post(t, srv.URL+imagesPath, imageBody("a cat "+c.word, nil), imageHeaders()), &start)
		if start.Output.TaskStatus != "PENDING" || start.Output.TaskID == "" {
			t.Fatalf("%s: %+v", c.word, start)
		}
		var statuses []string
		var last task
		for range 3 {
			req, _ := http.NewRequest(http.MethodGet, srv.URL+tasksPrefix+start.Output.TaskID, nil)
			req.Header.Set("Authorization", "Bearer "+DefaultToken)
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			last = task{}
			_ = json.NewDecoder(resp.Body).Decode(&last)
			resp.Body.Close()
			statuses = append(statuses, last.Output.TaskStatus)
		}
		if got := strings.Join(statuses, " "); got != "RUNNING RUNNING "+c.final {
			t.Errorf("%s: %s", c.word, got)
		}
		if c.final == "SUCCEEDED" && len(last.Output.Results) != 1 || c.final == "FAILED" && last.Output.Code == "" {
			t.Errorf("%s: %+v", c.word, last)
		}
	}
	resp := post(t, srv.URL+imagesPath, imageBody("demo:dserror", nil), imageHeaders())
	var e struct{ RequestID, Code, Message string }
	if resp.StatusCode != 400 || json.NewDecoder(resp.Body).Decode(&e) != nil || e.Code != "InvalidParameter" {
		t.Errorf("dserror: %d %+v", resp.StatusCode, e)
	}
}
