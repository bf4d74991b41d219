package demo

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"muse/api"
)

func TestStartAndClose(t *testing.T) {
	s, err := Start(Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if !strings.HasPrefix(s.URL, "http://127.0.0.1:") {
		t.Fatalf("URL %q", s.URL)
	}
	var m api.Message
	decodeOK(t, post(t, s.URL+messagesPath, chat("hi", nil), messageHeaders()), &m)

	var res api.ImageResult
	decodeOK(t, post(t, s.URL+imagesPath, imageBody("demo:url", map[string]any{"size": "8*8"}), imageHeaders()), &res)
	if !strings.HasPrefix(res.Data[0].URL, s.URL+imagePrefix) {
		t.Fatalf("image url %q does not point at %s", res.Data[0].URL, s.URL)
	}
	resp := download(t, res.Data[0].URL)
	decodePNG(t, readAll(t, resp.Body))

	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatalf("second Close: %v", err)
	}
	client := &http.Client{Transport: &http.Transport{}}
	if resp, err := client.Get(s.URL + messagesPath); err == nil {
		resp.Body.Close()
		t.Fatal("server still answering after Close")
	}
}

// TimeTool is the tool demo:tool calls, with a valid definition and a
// command that runs nothing harmful.
func TestTimeTool(t *testing.T) {
	def, argv := TimeTool()
	if def.Name != defaultTool || def.Description == "" {
		t.Errorf("tool %+v", def)
	}
	var schema struct {
		Type       string                     `json:"type"`
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if err := json.Unmarshal(def.InputSchema, &schema); err != nil || schema.Type != "object" || len(schema.Properties) == 0 {
		t.Errorf("input_schema %s: %v", def.InputSchema, err)
	}
	if len(argv) == 0 || argv[0] != "date" {
		t.Errorf("command %q", argv)
	}
	req := &api.MessageRequest{Tools: []api.Tool{def}}
	if name, _ := pickTool(req); name != def.Name {
		t.Errorf("demo:tool calls %q, not the demo tool", name)
	}
}

// Every keyword offered is one the demo acts on.
func TestKeywords(t *testing.T) {
	msgs, imgs := Keywords()
	if len(msgs) != 10 || len(imgs) != 8 {
		t.Errorf("keywords %q %q", msgs, imgs)
	}
	for _, k := range append(msgs, imgs...) {
		if !strings.HasPrefix(k, "demo:") {
			t.Errorf("keyword %q", k)
		}
	}
}
