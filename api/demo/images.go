package demo

import (
	"bytes"
	"encoding/base64"
	"fmt"
	"net/http"
	"strings"
	"time"

	"muse/api"
)

// Scenario keywords of the image endpoint, matched case-sensitively anywhere
// in the prompt. demo:hostile and demo:slow are shared with messages.
const (
	kwURL    = "demo:url"
	kwMixed  = "demo:mixed"
	kwTwo    = "demo:two"
	kwBadB64 = "demo:badb64"
	kwHuge   = "demo:huge"
	kw404    = "demo:404"
)

const (
	defaultImageSize = "1024*1024"
	maxImageSide     = 4096
	slowImageDelay   = 3 * time.Second
	hostileImageURL  = "javascript:alert(1)"
	badBase64        = "iVBORw0KGgo%%%this is not base64!!!"
)

// hostileRevision is appended to revised_prompt by demo:hostile: a title
// change, a screen clear and an OSC 8 hyperlink.
const hostileRevision = " \x1b]0;pwned\x07\x1b[2J with an \x1b]8;;https://evil.example/\x1b\\innocent link\x1b]8;;\x1b\\"

// generateImages serves POST /v1/images/generations.
func (h *handler) generateImages(w http.ResponseWriter, r *http.Request) {
	if !h.checkImageAuth(w, r) {
		return
	}
	if !openAIImages(w, r) {
		return
	}
	var req api.ImageRequest
	if !decodeBody(w, r, &req) {
		return
	}
	width, height, msg := validateImageRequest(&req)
	if msg != "" {
		writeError(w, http.StatusBadRequest, errInvalidRequest, msg)
		return
	}
	prompt := req.Prompt()
	has := func(kw string) bool { return strings.Contains(prompt, kw) }

	delay := h.opts.ImageDelay
	if has(kwSlow) {
		delay = max(delay, slowImageDelay)
	}
	if !h.sleep(r.Context(), delay) {
		return
	}

	params := req.Parameters
	if params == nil {
		params = &api.ImageParameters{}
	}
	spec := imageSpec{
		seed:      hashString(prompt),
		width:     width,
		height:    height,
		watermark: params.Watermark != nil && *params.Watermark,
	}
	second := spec
	second.variant = 1
	revised := prompt + ", rendered in soft light"
	if params.PromptExtend != nil && !*params.PromptExtend {
		revised = prompt
	}
	base := "http://" + r.Host
	if r.Host == "" {
		base = "http://127.0.0.1"
	}

	var data []api.ImageData
	var err error
	add := func(d api.ImageData) { data = append(data, d) }
	inline := func(s imageSpec, revised string) {
		b, e := h.imageBytes(s)
		if e != nil {
			err = e
			return
		}
		add(api.ImageData{B64JSON: base64.StdEncoding.EncodeToString(b), RevisedPrompt: revised})
	}
	linked := func(s imageSpec) {
		if _, e := h.imageBytes(s); e != nil { // generate now, so the download is quick
			err = e
			return
		}
		add(api.ImageData{URL: base + imagePrefix + s.key() + ".png", RevisedPrompt: revised})
	}
	switch {
	case has(kwHostile):
		revised += hostileRevision
		inline(spec, revised)
		add(api.ImageData{URL: hostileImageURL, RevisedPrompt: revised})
	case has(kwHuge):
		add(api.ImageData{B64JSON: base64.StdEncoding.EncodeToString(hugePNG()), RevisedPrompt: revised})
	case has(kwBadB64):
		add(api.ImageData{B64JSON: badBase64, RevisedPrompt: revised})
	case has(kw404):
		add(api.ImageData{
			URL:           fmt.Sprintf("%s%sexpired-%016x.png", base, imagePrefix, spec.seed),
			RevisedPrompt: revised,
		})
	case has(kwMixed):
		linked(spec)
		inline(second, revised)
	case has(kwTwo):
		inline(spec, revised)
		inline(second, revised)
	case has(kwMany):
		for i := range 12 {
			s := spec
			s.seed = hashString(fmt.Sprint(prompt, i))
			linked(s)
		}
	case has(kwURL), has(kwDashScope), has(kwTask), has(kwTaskFail):
		linked(spec)
	default:
		inline(spec, revised)
	}
	if err != nil {
		writeError(w, http.StatusInternalServerError, errAPI, "demo: rendering the image: "+err.Error())
		return
	}
	if h.dashScopeAnswer(w, prompt, data) {
		return
	}
	writeJSON(w, http.StatusOK, api.ImageResult{Created: time.Now().Unix(), Data: data})
}

// validateImageRequest checks req as the service would and returns the image
// size, or a message naming the offending field.
func validateImageRequest(req *api.ImageRequest) (width, height int, msg string) {
	if strings.TrimSpace(req.Model) == "" {
		return 0, 0, "model: required: send a non-empty image model name"
	}
	if strings.TrimSpace(req.Prompt()) == "" {
		return 0, 0, "input.messages: the prompt text is empty: describe the image"
	}
	size := defaultImageSize
	if req.Parameters != nil && req.Parameters.Size != "" {
		size = req.Parameters.Size
	}
	width, height, err := api.ParseSize(size)
	if err != nil {
		return 0, 0, fmt.Sprintf("parameters.size: must be <width>*<height> with positive integers, like 1024*1024, got %q", size)
	}
	if width > maxImageSide || height > maxImageSide {
		return 0, 0, fmt.Sprintf("size too large: parameters.size %q exceeds %d pixels per side", size, maxImageSide)
	}
	return width, height, ""
}

// imageBytes returns the encoded image of s, from the cache when it can.
func (h *handler) imageBytes(s imageSpec) ([]byte, error) {
	key := s.key()
	if b, ok := h.images.get(key); ok {
		return b, nil
	}
	b, err := renderPNG(s)
	if err != nil {
		return nil, err
	}
	h.images.put(key, b)
	return b, nil
}

// serveImage serves GET /demo/images/<key>.png without credentials, like a
// signed URL would.
func (h *handler) serveImage(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(r.URL.Path, imagePrefix)
	key, ok := strings.CutSuffix(name, ".png")
	spec, valid := parseKey(key)
	if !ok || !valid {
		writeError(w, http.StatusNotFound, errNotFound, "image not found or expired: "+name)
		return
	}
	b, err := h.imageBytes(spec)
	if err != nil {
		writeError(w, http.StatusInternalServerError, errAPI, "demo: rendering the image: "+err.Error())
		return
	}
	w.Header().Set("Content-Type", "image/png")
	w.Header().Set("Cache-Control", "private, max-age=3600")
	http.ServeContent(w, r, name, time.Time{}, bytes.NewReader(b))
}
