package standin

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"image"
	"image/color"
	"image/png"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
)

// openAIImageFields are the fields OpenAI's POST /v1/images/generations
// takes; any other is refused as an unknown parameter.
var openAIImageFields = []string{"model", "prompt", "n", "size", "quality", "background", "output_format",
	"output_compression", "moderation", "response_format", "style", "user"}

var openAISize = regexp.MustCompile(`^(auto|[1-9][0-9]*x[1-9][0-9]*)$`)

// StartOpenAIImages serves OpenAI's image endpoint on a loopback address,
// as its API reference describes it: a bearer key, a JSON body of the
// known fields only (a prompt required, size WxH or auto), and data[] with
// b64_json and revised_prompt. Close it when done.
func StartOpenAIImages(key string) *Server {
	s := &Server{rules: Rules{Name: "openai-images", Auth: AuthBearer}, key: key}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		req := Request{Method: r.Method, Path: r.URL.Path, Header: r.Header.Clone()}
		data, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		json.Unmarshal(data, &req.Body)
		s.record(req)
		if r.URL.Path != "/v1/images/generations" || r.Method != http.MethodPost {
			openAIFail(w, 404, "invalid_request_error", "", "Invalid URL ("+r.Method+" "+r.URL.Path+")")
			return
		}
		if r.Header.Get("Authorization") != "Bearer "+key {
			openAIFail(w, 401, "invalid_request_error", "", "Incorrect API key provided.")
			return
		}
		if req.Body == nil {
			openAIFail(w, 400, "invalid_request_error", "", "We could not parse the JSON body of your request.")
			return
		}
		for k := range req.Body {
			if !slices.Contains(openAIImageFields, k) {
				openAIFail(w, 400, "invalid_request_error", k, "Unknown parameter: '"+k+"'.")
				return
			}
		}
		prompt, _ := req.Body["prompt"].(string)
		if strings.TrimSpace(prompt) == "" {
			openAIFail(w, 400, "invalid_request_error", "prompt", "Missing required parameter: 'prompt'.")
			return
		}
		if size, ok := req.Body["size"]; ok {
			if s, _ := size.(string); !openAISize.MatchString(s) {
				openAIFail(w, 400, "invalid_request_error", "size", "Invalid value for 'size'.")
				return
			}
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"created": 1700000000, "data": []map[string]string{
			{"b64_json": tinyPNG(), "revised_prompt": "A revised " + prompt},
		}})
	}))
	return s
}

// openAIFail answers OpenAI's error shape.
func openAIFail(w http.ResponseWriter, status int, typ, param, msg string) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	e := map[string]any{"message": msg, "type": typ, "param": nil, "code": nil}
	if param != "" {
		e["param"] = param
	}
	json.NewEncoder(w).Encode(map[string]any{"error": e})
}

// tinyPNG is a 2x2 PNG, base64.
func tinyPNG() string {
	img := image.NewRGBA(image.Rect(0, 0, 2, 2))
	for i := range 4 {
		img.Set(i%2, i/2, color.RGBA{200, 100, 50, 255})
	}
	var b bytes.Buffer
	png.Encode(&b, img)
	return base64.StdEncoding.EncodeToString(b.Bytes())
}
