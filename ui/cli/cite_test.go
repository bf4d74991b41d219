package cli

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"muse/api/demo"
)

// -p --cite asks for citations from a text file sent as a document: the
// request's document block (source.type "text", titled by the file's
// name) has citations enabled, and the citation the service sends back
// prints after the reply (on stderr, so stdout stays the reply). Without
// --cite the document asks for none, and none prints.
func TestPrintCite(t *testing.T) {
	var mu sync.Mutex
	var seen []map[string]any
	inner := demo.NewHandler(demo.Options{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		data, _ := io.ReadAll(r.Body)
		var body struct {
			Messages []struct {
				Content json.RawMessage `json:"content"`
			} `json:"messages"`
		}
		json.Unmarshal(data, &body)
		for _, m := range body.Messages {
			var blocks []map[string]any
			json.Unmarshal(m.Content, &blocks)
			for _, b := range blocks {
				if b["type"] == "document" {
					mu.Lock()
					seen = append(seen, b)
					mu.Unlock()
				}
			}
		}
		r.Body = io.NopCloser(strings.NewReader(string(data)))
		inner.ServeHTTP(w, r)
	}))
	defer srv.Close()
	notes := filepath.Join(t.TempDir(), "notes.md")
	if err := os.WriteFile(notes, []byte("# Plan\nship it\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	sent := func() []map[string]any {
		mu.Lock()
		defer mu.Unlock()
		out := seen
		seen = nil
		return out
	}
	env := map[string]string{"MUSE_BASE_URL": srv.URL, "MUSE_MODEL": "demo-chat", "MUSE_ACCESS_TOKEN": demo.DefaultToken}

	r := runMain(t, env, "", "--no-save", "-p", "what does it say?", "--cite", "-a", notes)
	if r.code != 0 {
		t.Fatalf("code %d, stderr %q", r.code, r.stderr)
	}
	docs := sent()
	if len(docs) != 1 {
		t.Fatalf("documents sent: %v", docs)
	}
	src, _ := docs[0]["source"].(map[string]any)
	cit, _ := docs[0]["citations"].(map[string]any)
	if src["type"] != "text" || src["data"] != "# Plan\nship it\n" || docs[0]["title"] != "notes.md" || cit["enabled"] != true {
		t.Errorf("the document block: %v", docs[0])
	}
	if !strings.HasPrefix(r.stdout, "It begins “# Plan”.") {
		t.Errorf("stdout %q", r.stdout)
	}
	if want := "muse: 1 citation\nmuse: · “# Plan” — notes.md\n"; !strings.Contains(r.stderr, want) {
		t.Errorf("stderr %q, want the citation %q", r.stderr, want)
	}

	r = runMain(t, env, "", "--no-save", "-p", "what does it say?", "-a", notes)
	if docs = sent(); r.code != 0 || len(docs) != 1 {
		t.Fatalf("code %d, stderr %q, documents %v", r.code, r.stderr, docs)
	}
	if _, asked := docs[0]["citations"]; asked || strings.Contains(r.stderr, "citation") || strings.Contains(r.stdout, "It begins") {
		t.Errorf("citations without --cite: %v, stderr %q", docs[0], r.stderr)
	}
}
