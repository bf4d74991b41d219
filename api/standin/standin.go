// Package standin serves stand-ins for the providers muse's README has
// recipes for (Anthropic, Ollama, llama.cpp, vLLM, LM Studio, OpenRouter,
// DeepSeek, Kimi, GLM, DashScope), each enforcing that provider's
// documented rules for its Anthropic-shaped endpoint: the base path, the
// auth scheme, the version header, the thinking form, the sampling
// parameters it refuses and the shape of its models list. Tests run muse
// against them, so a recipe that would fail at the real provider fails
// here first. It also serves an OpenAI-shaped image endpoint (images.go).
//
// The rules come from the providers' public docs, cited in providers.go;
// none is a recorded body.
package standin

import (
	"crypto/subtle"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// Auth schemes a provider accepts.
const (
	AuthAPIKey = "x-api-key" // x-api-key: KEY
	AuthBearer = "bearer"    // Authorization: Bearer KEY
	AuthEither = "either"    // one or the other
	AuthNone   = "none"      // a local server: whatever is sent is ignored
)

// Thinking forms a provider's model accepts.
const (
	ThinkAdaptive = "adaptive" // {type: adaptive} + output_config.effort; a budget is refused
	ThinkBudget   = "enabled"  // {type: enabled, budget_tokens}; adaptive and output_config refused
	ThinkEither   = "either"   // both
)

// Models list shapes.
const (
	ModelsAnthropic = "anthropic" // data[].id, display_name, created_at; has_more, first_id, last_id
	ModelsOpenAI    = "openai"    // {"object":"list","data":[{"id","object":"model",...}]}
	ModelsNone      = ""          // no endpoint: 404
)

// Rules are one provider's documented rules.
type Rules struct {
	// Name is the recipe's name, as muse config init --service takes it.
	Name string
	// BasePath is the path before /v1/messages, such as "/anthropic".
	BasePath string
	// Auth is the scheme the key must come in.
	Auth string
	// Version is the version header required, such as
	// "anthropic-version"; "" requires none.
	Version string
	// Thinking is the thinking form the model takes.
	Thinking string
	// Refuse lists the sampling parameters refused.
	Refuse []string
	// Models is the models list's shape.
	Models string
	// ModelIDs are the models served; another name is a 404.
	ModelIDs []string
}

// Request is one request the stand-in got.
type Request struct {
	Method, Path string
	Header       http.Header
	Body         map[string]any
}

// Server is a running stand-in.
type Server struct {
	*httptest.Server
	rules Rules
	key   string

	mu   sync.Mutex
	reqs []Request
}

// Start serves r's rules on a loopback address, accepting key (any
// credential, or none, with AuthNone). Close it when done.
func Start(r Rules, key string) *Server {
	s := &Server{rules: r, key: key}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// BaseURL is the address a recipe sets: the server and the base path.
func (s *Server) BaseURL() string { return s.URL + s.rules.BasePath }

// Requests returns the requests so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return slices.Clone(s.reqs)
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	req := Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone()}
	if r.Method == http.MethodPost {
		data, _ := io.ReadAll(io.LimitReader(r.Body, 8<<20))
		if err := json.Unmarshal(data, &req.Body); err != nil {
			s.record(req)
			fail(w, 400, "invalid_request_error", "the body is not JSON: "+err.Error())
			return
		}
	}
	s.record(req)
	switch {
	case r.URL.Path == s.rules.BasePath+"/v1/messages" && r.Method == http.MethodPost:
		if s.checkAuth(w, r) && s.checkVersion(w, r) {
			s.messages(w, req.Body)
		}
	case r.URL.Path == s.rules.BasePath+"/v1/models" && r.Method == http.MethodGet && s.rules.Models != ModelsNone:
		if s.checkAuth(w, r) {
			s.models(w, r)
		}
	default:
		http.NotFound(w, r)
	}
}

func (s *Server) record(r Request) {
	s.mu.Lock()
	s.reqs = append(s.reqs, r)
	s.mu.Unlock()
}

// fail answers Anthropic's error shape.
func fail(w http.ResponseWriter, status int, typ, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(map[string]any{"type": "error", "error": map[string]string{"type": typ, "message": msg}})
}

func same(a, b string) bool { return subtle.ConstantTimeCompare([]byte(a), []byte(b)) == 1 }

// checkAuth enforces the auth scheme; it has answered 401 when it fails.
func (s *Server) checkAuth(w http.ResponseWriter, r *http.Request) bool {
	key, bearer := r.Header.Get("x-api-key"), strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
	ok := false
	switch s.rules.Auth {
	case AuthNone:
		ok = true
	case AuthAPIKey:
		ok = same(key, s.key)
	case AuthBearer:
		ok = same(bearer, s.key) && r.Header.Get("Authorization") != ""
	case AuthEither:
		ok = same(key, s.key) || r.Header.Get("Authorization") != "" && same(bearer, s.key)
	}
	if !ok {
		fail(w, 401, "authentication_error", s.rules.Name+" wants the key as "+s.rules.Auth)
	}
	return ok
}

// checkVersion enforces the version header; it has answered 400 when it
// fails.
func (s *Server) checkVersion(w http.ResponseWriter, r *http.Request) bool {
	if s.rules.Version == "" {
		return true
	}
	v := r.Header.Get(s.rules.Version)
	if _, err := time.Parse(time.DateOnly, v); err != nil {
		fail(w, 400, "invalid_request_error", s.rules.Version+": header is required")
		return false
	}
	return true
}

// messages checks a message request against the rules and answers it,
// streamed when it asks.
func (s *Server) messages(w http.ResponseWriter, body map[string]any) {
	model, _ := body["model"].(string)
	if len(s.rules.ModelIDs) > 0 && !slices.Contains(s.rules.ModelIDs, model) {
		fail(w, 404, "not_found_error", "model: "+model)
		return
	}
	if _, ok := body["max_tokens"].(float64); !ok {
		fail(w, 400, "invalid_request_error", "max_tokens: Field required")
		return
	}
	for _, p := range s.rules.Refuse {
		if _, ok := body[p]; ok {
			fail(w, 400, "invalid_request_error", "`"+p+"` is not supported for this model.")
			return
		}
	}
	thinking, _ := body["thinking"].(map[string]any)
	typ, _ := thinking["type"].(string)
	_, outputConfig := body["output_config"]
	switch {
	case typ == ThinkBudget && s.rules.Thinking == ThinkAdaptive:
		fail(w, 400, "invalid_request_error", "thinking.type.enabled is not supported for this model. Use thinking.type.adaptive and output_config.effort to control thinking behavior.")
		return
	case typ == ThinkAdaptive && s.rules.Thinking == ThinkBudget:
		fail(w, 400, "invalid_request_error", "thinking.type: Input tag 'adaptive' found using 'type' does not match any of the expected tags: 'disabled', 'enabled'")
		return
	case outputConfig && s.rules.Thinking == ThinkBudget:
		fail(w, 400, "invalid_request_error", "output_config: Extra inputs are not permitted")
		return
	case typ != "" && typ != ThinkBudget && typ != ThinkAdaptive && typ != "disabled":
		fail(w, 400, "invalid_request_error", "thinking.type: unknown type "+strconv.Quote(typ))
		return
	}
	text := "Hello from " + s.rules.Name + "."
	var thought string
	if typ != "" && typ != "disabled" {
		thought = "Thinking as " + typ + "."
	}
	if stream, _ := body["stream"].(bool); stream {
		writeStream(w, model, thought, text)
		return
	}
	content := []map[string]any{}
	if thought != "" {
		content = append(content, map[string]any{"type": "thinking", "thinking": thought, "signature": "sig"})
	}
	content = append(content, map[string]any{"type": "text", "text": text})
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"id": "msg_standin", "type": "message", "role": "assistant", "model": model,
		"content": content, "stop_reason": "end_turn", "usage": map[string]int{"input_tokens": 5, "output_tokens": 5}})
}

// writeStream answers a reply as server-sent events.
func writeStream(w http.ResponseWriter, model, thought, text string) {
	w.Header().Set("Content-Type", "text/event-stream")
	ev := func(name string, v any) {
		data, _ := json.Marshal(v)
		fmt.Fprintf(w, "event: %s\ndata: %s\n\n", name, data)
	}
	ev("message_start", map[string]any{"type": "message_start", "message": map[string]any{"id": "msg_standin", "type": "message", "role": "assistant",
		"model": model, "content": []any{}, "usage": map[string]int{"input_tokens": 5, "output_tokens": 1}}})
	i := 0
	if thought != "" {
		ev("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{"type": "thinking", "thinking": ""}})
		ev("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "thinking_delta", "thinking": thought}})
		ev("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "signature_delta", "signature": "sig"}})
		ev("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
		i++
	}
	ev("content_block_start", map[string]any{"type": "content_block_start", "index": i, "content_block": map[string]any{"type": "text", "text": ""}})
	ev("content_block_delta", map[string]any{"type": "content_block_delta", "index": i, "delta": map[string]any{"type": "text_delta", "text": text}})
	ev("content_block_stop", map[string]any{"type": "content_block_stop", "index": i})
	ev("message_delta", map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": "end_turn"}, "usage": map[string]int{"output_tokens": 5}})
	ev("message_stop", map[string]any{"type": "message_stop"})
}

// models lists the models in the provider's shape; Anthropic's pages by
// limit and after_id.
func (s *Server) models(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	ids := s.rules.ModelIDs
	if s.rules.Models == ModelsOpenAI {
		data := []map[string]any{}
		for _, id := range ids {
			data = append(data, map[string]any{"id": id, "object": "model", "created": 1700000000, "owned_by": s.rules.Name})
		}
		json.NewEncoder(w).Encode(map[string]any{"object": "list", "data": data})
		return
	}
	limit, err := strconv.Atoi(r.URL.Query().Get("limit"))
	if err != nil || limit < 1 || limit > 1000 {
		limit = 20
	}
	start := 0
	if after := r.URL.Query().Get("after_id"); after != "" {
		start = slices.Index(ids, after) + 1
	}
	end := min(start+limit, len(ids))
	data := []map[string]any{}
	for _, id := range ids[start:end] {
		data = append(data, map[string]any{"type": "model", "id": id, "display_name": strings.ToUpper(id[:1]) + id[1:], "created_at": "2025-05-14T00:00:00Z"})
	}
	page := map[string]any{"data": data, "has_more": end < len(ids), "first_id": nil, "last_id": nil}
	if len(data) > 0 {
		page["first_id"], page["last_id"] = ids[start], ids[end-1]
	}
	json.NewEncoder(w).Encode(page)
}
