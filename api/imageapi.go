package api

import "strings"

// The image APIs GenerateImage speaks (WithImageAPI).
const (
	// ImageAPIService is the interface's: POST /v1/images/generations with
	// {model, input.messages, parameters}.
	ImageAPIService = "service"
	// ImageAPIDashScope is DashScope's own: the synchronous
	// multimodal-generation endpoint, or, for its wan text-to-image models,
	// the asynchronous image-synthesis endpoint with X-DashScope-Async:
	// enable, whose task is polled.
	ImageAPIDashScope = "dashscope"
	// ImageAPIOpenAI is OpenAI's, which LocalAI, LiteLLM and most gateways
	// serve: POST /v1/images/generations with {model, prompt, n, size WxH}.
	// It has no negative prompt, prompt extension or watermark: they are
	// never sent.
	ImageAPIOpenAI = "openai"
)

// ImageAPIs are the image APIs, the default first.
var ImageAPIs = []string{ImageAPIService, ImageAPIDashScope, ImageAPIOpenAI}

// DashScope's image paths.
const (
	dashSyncPath  = "/api/v1/services/aigc/multimodal-generation/generation"
	dashAsyncPath = "/api/v1/services/aigc/text2image/image-synthesis"
)

// WithImageAPI sets the image API GenerateImage speaks: one of ImageAPIs
// (default ImageAPIService).
func WithImageAPI(name string) Option { return func(c *Client) { c.imageAPI = name } }

// WithImageService sends image requests to baseURL, with token as their
// bearer credential ("" sends none), instead of the chat service's address
// and credential, which never reach it.
func WithImageService(baseURL, token string) Option {
	return func(c *Client) { c.imageRaw, c.imageToken, c.imageOwn = baseURL, token, true }
}

// OpenAIImageOptions are OpenAI's image settings that the interface has
// no parameter for; each is sent to OpenAI's API only, and only when set.
type OpenAIImageOptions struct {
	Quality      string // low, medium, high, auto (or standard, hd)
	Background   string // transparent, opaque, auto
	OutputFormat string // png, jpeg, webp
}

// WithOpenAIImageOptions sets the OpenAI image settings (see
// OpenAIImageOptions), sent when the image API is ImageAPIOpenAI.
func WithOpenAIImageOptions(o OpenAIImageOptions) Option {
	return func(c *Client) { c.openAIImage = o }
}

// ImageAPI returns the image API the client speaks.
func (c *Client) ImageAPI() string {
	if c.imageAPI == "" {
		return ImageAPIService
	}
	return c.imageAPI
}

// imageCall builds the call of an image request in the chosen API.
func (c *Client) imageCall(req ImageRequest) call {
	cl := call{path: "/v1/images/generations", body: req, image: true, wait: c.responseTimeout}
	switch c.ImageAPI() {
	case ImageAPIDashScope:
		cl.path = dashSyncPath
		if isDashAsyncModel(req.Model) {
			cl.path, cl.body, cl.async = dashAsyncPath, dashAsyncBody(req), true
		}
	case ImageAPIOpenAI:
		cl.body = openAIImageBody(req, c.openAIImage)
	}
	return cl
}

// isDashAsyncModel reports whether a DashScope model is served by the
// asynchronous text-to-image endpoint: the wan (wanx) models.
func isDashAsyncModel(model string) bool {
	m := strings.ToLower(model)
	return strings.HasPrefix(m, "wanx") || strings.HasPrefix(m, "wan2")
}

// dashAsyncBody is DashScope's image-synthesis body: the prompt and the
// negative prompt in input, the rest in parameters.
func dashAsyncBody(req ImageRequest) any {
	type input struct {
		Prompt         string  `json:"prompt"`
		NegativePrompt *string `json:"negative_prompt,omitempty"`
	}
	type params struct {
		Size         string `json:"size,omitempty"`
		N            int    `json:"n"`
		PromptExtend *bool  `json:"prompt_extend,omitempty"`
		Watermark    *bool  `json:"watermark,omitempty"`
	}
	body := struct {
		Model      string `json:"model"`
		Input      input  `json:"input"`
		Parameters params `json:"parameters"`
	}{Model: req.Model, Input: input{Prompt: req.Prompt()}, Parameters: params{N: 1}}
	if p := req.Parameters; p != nil {
		body.Input.NegativePrompt = p.NegativePrompt
		body.Parameters.Size, body.Parameters.PromptExtend, body.Parameters.Watermark = p.Size, p.PromptExtend, p.Watermark
	}
	return body
}

// openAIImageBody is OpenAI's image body: the prompt, one image, the size
// as WxH and o's settings when they are set; nothing OpenAI would refuse.
func openAIImageBody(req ImageRequest, o OpenAIImageOptions) any {
	body := struct {
		Model        string `json:"model,omitempty"`
		Prompt       string `json:"prompt"`
		N            int    `json:"n"`
		Size         string `json:"size,omitempty"`
		Quality      string `json:"quality,omitempty"`
		Background   string `json:"background,omitempty"`
		OutputFormat string `json:"output_format,omitempty"`
	}{Model: req.Model, Prompt: req.Prompt(), N: 1, Quality: o.Quality, Background: o.Background, OutputFormat: o.OutputFormat}
	if p := req.Parameters; p != nil && p.Size != "" {
		body.Size = strings.Replace(p.Size, "*", "x", 1)
	}
	return body
}

// checkImageConfig checks the image settings once, in New.
func (c *Client) checkImageConfig() error {
	switch c.ImageAPI() {
	case ImageAPIService, ImageAPIDashScope, ImageAPIOpenAI:
	default:
		return configErrorf("image API %q is not one of %s: fix image_api (MUSE_IMAGE_API)", c.imageAPI, strings.Join(ImageAPIs, ", "))
	}
	if !c.imageOwn {
		return nil
	}
	u, _, err := parseBaseURL(c.imageRaw)
	if err != nil {
		return configErrorf("image base URL: %v: fix image_base_url (MUSE_IMAGE_BASE_URL)", err)
	}
	c.imageBase = u
	switch {
	case hasControl(c.imageToken):
		return configErrorf("the image credential contains a control character")
	case c.imageToken != "" && u.Scheme == "http" && !IsLoopback(u.Hostname()) && !c.insecureHTTP:
		return configErrorf("muse will not send the image credential over plain http:// to %s, where anyone on the way can read it: use https://, or allow it on purpose with MUSE_ALLOW_INSECURE_HTTP=1 or allow_insecure_http = true in the profile", u.Host)
	}
	return nil
}
