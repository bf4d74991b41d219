package api

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// FuzzSSE feeds arbitrary bodies to the stream parser: it must never panic,
// must end, and must keep the assembled message consistent.
func FuzzSSE(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join(conformanceDir, "*.txt"))
	for _, name := range files {
		if data, err := os.ReadFile(name); err == nil {
			f.Add(data)
		}
	}
	f.Add([]byte(sse("message_start", evStart,
		"content_block_start", `{"type":"content_block_start","index":0,"content_block":{"type":"tool_use","id":"t","name":"n","input":{}}}`,
		"content_block_delta", `{"type":"content_block_delta","index":0,"delta":{"type":"input_json_delta","partial_json":"{\"a\": [1, \"b"}}`,
		"message_stop", evStop)))
	f.Add([]byte("data:{\"type\":\"error\",\"error\":{\"type\":\"x\",\"message\":\"\\u001b]0;t\\u0007\"}}\r\r"))
	f.Add([]byte(": c\r\nevent: ping\r\ndata: {}\r\n\r\n"))
	f.Fuzz(func(t *testing.T, body []byte) {
		s := NewStreamFromReader(strings.NewReader(string(body)))
		n := 0
		for s.Next() {
			n++
			if n > len(body)+1 {
				t.Fatalf("more events (%d) than bytes", n)
			}
		}
		m := s.Message()
		if s.Err() == nil && n > 0 && s.Current().Type != EventMessageStop {
			t.Fatalf("clean end without message_stop, last %q", s.Current().Type)
		}
		for _, b := range m.Content {
			if b.Type == BlockToolUse && b.Truncated && len(b.Input) > 0 && !json.Valid(b.Input) {
				t.Fatalf("repaired input not valid: %q", b.Input)
			}
		}
		if _, err := json.Marshal(m.Content); err != nil {
			t.Fatalf("content does not marshal: %v", err)
		}
		if s.Next() {
			t.Fatal("Next true after the end")
		}
	})
}
