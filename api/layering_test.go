package api

import (
	"context"
	"go/parser"
	"go/token"
	"io"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestImportsNoMusePackage keeps api the lowest layer: none of its files,
// tests included, imports another muse package.
func TestImportsNoMusePackage(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil || len(files) == 0 {
		t.Fatalf("no Go files: %v", err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		f, err := parser.ParseFile(fset, name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path, _ := strconv.Unquote(imp.Path.Value)
			if path == "muse" || strings.HasPrefix(path, "muse/") {
				t.Errorf("%s imports %s: api must not depend on another muse package", name, path)
			}
		}
	}
}

// TestStreamRequestIDAsReceived checks that a stream's request id is the
// header's value as the server sent it.
func TestStreamRequestIDAsReceived(t *testing.T) {
	const id = "req_\u009b2J_7"
	rec := newRecorder(t, func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("request-id", id)
		io.WriteString(w, sse("message_start", evStart, "message_stop", evStop))
	})
	c := New(rec.URL, WithAccessToken("t"))
	defer c.Close()
	s, err := c.StreamMessage(context.Background(), testRequest())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, _, err := drain(s); err != nil {
		t.Fatal(err)
	}
	if s.RequestID() != id {
		t.Errorf("request id %q, want %q", s.RequestID(), id)
	}
}
