package api

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// conformanceDir holds real recorded streams, beside the project's checkout.
const conformanceDir = "../../shared/conformance/sse"

func conformanceFiles(t testing.TB) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(conformanceDir, "*.txt"))
	if len(files) == 0 {
		missingData(t, "no conformance data in %s", conformanceDir)
	}
	return files
}

// missingData skips a test whose data is absent, as on a checkout without
// shared/ beside it, but fails it under CI (CI set and not empty), where the
// data must be there.
func missingData(t testing.TB, format string, args ...any) {
	t.Helper()
	if os.Getenv("CI") != "" {
		t.Fatalf(format+" (required when CI is set)", args...)
		return
	}
	t.Skipf(format, args...)
}

// drain reads a stream to its end and returns the message and the error.
func drain(s *Stream) (Message, []string, error) {
	var types []string
	for s.Next() {
		types = append(types, s.Current().Type)
	}
	return s.Message(), types, s.Err()
}

func loadExpected(t *testing.T, txt string) Message {
	t.Helper()
	data, err := os.ReadFile(strings.TrimSuffix(txt, ".txt") + ".expected.json")
	if err != nil {
		t.Fatal(err)
	}
	var m Message
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func jsonEqual(a, b json.RawMessage) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return false
	}
	return reflect.DeepEqual(x, y)
}

func assertSameMessage(t *testing.T, got, want Message) {
	t.Helper()
	if got.ID != want.ID || got.Model != want.Model || got.Role != want.Role || got.Type != want.Type {
		t.Errorf("header: got %s/%s/%s/%s, want %s/%s/%s/%s", got.ID, got.Model, got.Role, got.Type, want.ID, want.Model, want.Role, want.Type)
	}
	if got.StopReason != want.StopReason {
		t.Errorf("stop_reason: got %q, want %q", got.StopReason, want.StopReason)
	}
	if !sameCounters(got.Usage, want.Usage) {
		t.Errorf("usage: got %+v, want %+v", got.Usage, want.Usage)
	}
	if len(got.Content) != len(want.Content) {
		t.Fatalf("content: got %d blocks, want %d", len(got.Content), len(want.Content))
	}
	for i := range want.Content {
		g, w := got.Content[i], want.Content[i]
		if g.Type != w.Type || g.Text != w.Text || g.ID != w.ID || g.Name != w.Name {
			t.Errorf("block %d: got %+v, want %+v", i, g, w)
		}
		if w.Type == BlockToolUse && !jsonEqual(g.Input, w.Input) {
			t.Errorf("block %d input: got %s, want %s", i, g.Input, w.Input)
		}
	}
}

// sameCounters reports whether two usages have the same token counts.
func sameCounters(a, b Usage) bool {
	a.Extra, b.Extra = nil, nil
	return reflect.DeepEqual(a, b)
}

// assertSameWire compares got, marshalled, with the expected JSON file: every
// field the server sent must be there, unknown ones and nulls included, and
// none it did not send (such as a usage counter).
func assertSameWire(t *testing.T, got Message, txt string) {
	t.Helper()
	want, err := os.ReadFile(strings.TrimSuffix(txt, ".txt") + ".expected.json")
	if err != nil {
		t.Fatal(err)
	}
	out, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	var g, w map[string]any
	if err := json.Unmarshal(out, &g); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g, w) {
		var compact bytes.Buffer
		_ = json.Compact(&compact, want)
		t.Errorf("wire form differs:\n got %s\nwant %s", out, compact.Bytes())
	}
}

// TestConformance parses each recorded stream, with its own line ends and
// with CRLF and CR ones, and compares the result with the expected Message.
func TestConformance(t *testing.T) {
	for _, f := range conformanceFiles(t) {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		want := loadExpected(t, f)
		lf := strings.ReplaceAll(string(raw), "\r\n", "\n")
		variants := map[string]string{
			"lf":   lf,
			"crlf": strings.ReplaceAll(lf, "\n", "\r\n"),
			"cr":   strings.ReplaceAll(lf, "\n", "\r"),
		}
		for name, body := range variants {
			t.Run(filepath.Base(f)+"/"+name, func(t *testing.T) {
				got, types, err := drain(NewStreamFromReader(strings.NewReader(body)))
				if err != nil {
					t.Fatalf("stream error: %v", err)
				}
				if types[0] != EventMessageStart || types[len(types)-1] != EventMessageStop {
					t.Errorf("events: %v", types)
				}
				assertSameMessage(t, got, want)
				assertSameWire(t, got, f)
				for _, b := range got.Content {
					truncated := strings.Contains(f, "truncated")
					if b.Type == BlockToolUse && b.Truncated != truncated {
						t.Errorf("tool_use Truncated = %v, want %v", b.Truncated, truncated)
					}
					if b.Truncated && !strings.Contains(b.PartialInput, "Filing taxes") {
						t.Errorf("partial input not kept: %q", b.PartialInput)
					}
				}
			})
		}
	}
}

// TestConformanceOverHTTP replays a recorded response, with its headers,
// through the client.
func TestConformanceOverHTTP(t *testing.T) {
	conformanceFiles(t)
	for _, name := range []string{"sse-text-ping-recorded", "sse-tool-use-recorded"} {
		t.Run(name, func(t *testing.T) {
			body, err := os.ReadFile(filepath.Join(conformanceDir, name+".txt"))
			if err != nil {
				t.Fatal(err)
			}
			meta, err := os.ReadFile(filepath.Join(conformanceDir, name+".http.json"))
			if err != nil {
				t.Fatal(err)
			}
			var rec struct {
				Status  int                 `json:"status"`
				Headers map[string][]string `json:"response_headers"`
			}
			if err := json.Unmarshal(meta, &rec); err != nil {
				t.Fatal(err)
			}
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				for k, v := range rec.Headers {
					w.Header()[k] = v
				}
				w.WriteHeader(rec.Status)
				w.Write(body)
			}))
			defer srv.Close()
			c := New(srv.URL, WithAPIKey("k"))
			s, err := c.StreamMessage(context.Background(), testRequest())
			if err != nil {
				t.Fatal(err)
			}
			got, _, err := drain(s)
			if err != nil {
				t.Fatal(err)
			}
			assertSameMessage(t, got, loadExpected(t, filepath.Join(conformanceDir, name+".txt")))
			if want := rec.Headers["Request-Id"][0]; s.RequestID() != want {
				t.Errorf("request id %q, want %q", s.RequestID(), want)
			}
		})
	}
}

// recordingTB records how a helper ended a test, without ending this one.
type recordingTB struct {
	testing.TB
	fatal, skip string
}

func (r *recordingTB) Helper()                           {}
func (r *recordingTB) Fatalf(format string, args ...any) { r.fatal = fmt.Sprintf(format, args...) }
func (r *recordingTB) Skipf(format string, args ...any)  { r.skip = fmt.Sprintf(format, args...) }

// TestMissingDataFailsUnderCI checks that absent conformance data fails the
// tests under CI and only skips them elsewhere.
func TestMissingDataFailsUnderCI(t *testing.T) {
	t.Setenv("CI", "true")
	r := &recordingTB{TB: t}
	missingData(r, "no data in %s", "x")
	if !strings.Contains(r.fatal, "no data in x") || r.skip != "" {
		t.Errorf("under CI: fatal %q, skip %q", r.fatal, r.skip)
	}
	t.Setenv("CI", "")
	r = &recordingTB{TB: t}
	missingData(r, "no data in %s", "x")
	if r.fatal != "" || r.skip != "no data in x" {
		t.Errorf("outside CI: fatal %q, skip %q", r.fatal, r.skip)
	}
}
