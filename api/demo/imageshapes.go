package demo

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"regexp"
	"slices"
	"strings"

	"muse/api"
	"muse/api/regfile"
)

// The demo serves the image shapes muse speaks (api.ImageAPIs): the
// interface's at /v1/images/generations, DashScope's synchronous
// multimodal-generation path with the same body, and OpenAI's
// {model, prompt, n, size WxH} at /v1/images/generations, which it tells
// apart by its top-level prompt. Each refuses what the real one refuses:
// OpenAI's any field it does not know, such as parameters or
// negative_prompt.

// dashSyncPath is DashScope's synchronous image path.
const dashSyncPath = "/api/v1/services/aigc/multimodal-generation/generation"

// openAIImageFields are the fields OpenAI's image endpoint takes.
var openAIImageFields = []string{"model", "prompt", "n", "size", "quality", "background", "output_format",
	"output_compression", "moderation", "response_format", "style", "user"}

var openAISize = regexp.MustCompile(`^(auto|[1-9][0-9]*x[1-9][0-9]*)$`)

// openAIImages turns an OpenAI-shaped body into the interface's, so the
// same generation answers it. It returns false when it has answered an
// error; a body that is not OpenAI's is left as it was.
func openAIImages(w http.ResponseWriter, r *http.Request) bool {
	data, err := regfile.ReadAll(r.Body, maxBody)
	r.Body = io.NopCloser(bytes.NewReader(data))
	var body map[string]json.RawMessage
	if err != nil || json.Unmarshal(data, &body) != nil {
		return true
	}
	if _, isOpenAI := body["prompt"]; !isOpenAI {
		return true
	}
	for k := range body {
		if !slices.Contains(openAIImageFields, k) {
			writeError(w, http.StatusBadRequest, errInvalidRequest, fmt.Sprintf("Unknown parameter: '%s'.", k))
			return false
		}
	}
	var req struct {
		Model  string `json:"model"`
		Prompt string `json:"prompt"`
		N      *int   `json:"n"`
		Size   string `json:"size"`
	}
	if err := json.Unmarshal(data, &req); err != nil || strings.TrimSpace(req.Prompt) == "" {
		writeError(w, http.StatusBadRequest, errInvalidRequest, "Missing required parameter: 'prompt'.")
		return false
	}
	if req.Size != "" && !openAISize.MatchString(req.Size) {
		writeError(w, http.StatusBadRequest, errInvalidRequest, fmt.Sprintf("Invalid value for 'size': %q; it must be WIDTHxHEIGHT or auto.", req.Size))
		return false
	}
	if req.N != nil && (*req.N < 1 || *req.N > 10) {
		writeError(w, http.StatusBadRequest, errInvalidRequest, "Invalid value for 'n': it must be from 1 to 10.")
		return false
	}
	var params *api.ImageParameters
	if req.Size != "" && req.Size != "auto" {
		params = &api.ImageParameters{Size: strings.Replace(req.Size, "x", "*", 1)}
	}
	conv, _ := json.Marshal(api.NewImageRequest(cmpOr(req.Model, "demo-image"), req.Prompt, params))
	r.Body = io.NopCloser(bytes.NewReader(conv))
	r.ContentLength = int64(len(conv))
	return true
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}
