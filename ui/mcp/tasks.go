package mcp

import (
	"bytes"
	"encoding/json"
	"io"
	"sync"
)

// maxScanLine is the longest line taskScan reads for task-only tools: a
// tool list's page, not a result's images.
const maxScanLine = 4 << 20

// taskOnly collects the names of the tools a server lists as requiring
// task execution ("execution": {"taskSupport": "required"}): muse does not
// run tasks, so every call of one would fail, and it is left out with a
// note. The SDK drops the field when it reads a tool, so it is read here,
// from the messages as they arrive (taskScan).
type taskOnly struct {
	mu    sync.Mutex
	names map[string]bool
}

func (t *taskOnly) has(name string) bool {
	if t == nil {
		return false
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.names[name]
}

// see reads one line of a message (a stdio line, or an event's data line)
// for task-only tools.
func (t *taskOnly) see(line []byte) {
	if !bytes.Contains(line, []byte(`"taskSupport"`)) {
		return
	}
	line = bytes.TrimPrefix(bytes.TrimSpace(line), []byte("data:"))
	var msg struct {
		Result struct {
			Tools []struct {
				Name      string `json:"name"`
				Execution struct {
					TaskSupport string `json:"taskSupport"`
				} `json:"execution"`
			} `json:"tools"`
		} `json:"result"`
	}
	if json.Unmarshal(line, &msg) != nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, tl := range msg.Result.Tools {
		if tl.Execution.TaskSupport == "required" {
			if t.names == nil {
				t.names = map[string]bool{}
			}
			t.names[tl.Name] = true
		}
	}
}

// scanned is a body read through a taskScan, closed as it was.
type scanned struct {
	io.Reader
	io.Closer
}

// taskScan passes r through, showing each line (up to maxScanLine bytes)
// to t.
type taskScan struct {
	r    io.Reader
	t    *taskOnly
	line []byte
	long bool // the line under way passed maxScanLine: not kept
}

func (s *taskScan) Read(p []byte) (int, error) {
	n, err := s.r.Read(p)
	for rest := p[:n]; len(rest) > 0; {
		i := bytes.IndexByte(rest, '\n')
		part := rest
		if i >= 0 {
			part = rest[:i]
		}
		if !s.long {
			if len(s.line)+len(part) > maxScanLine {
				s.long, s.line = true, s.line[:0]
			} else {
				s.line = append(s.line, part...)
			}
		}
		if i < 0 {
			break
		}
		if !s.long {
			s.t.see(s.line)
		}
		s.line, s.long = s.line[:0], false
		rest = rest[i+1:]
	}
	return n, err
}
