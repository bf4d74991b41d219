package slash

import (
	"fmt"
	"sync/atomic"

	"muse/api"
)

// imageAPI is the image API the client speaks (api.ImageAPIs), which says
// which image settings there are; "" is the interface's.
var imageAPI atomic.Value

// SetImageAPI tells /negative, /extend and /watermark which image API is
// in use: OpenAI's has none of them. Safe from any goroutine.
func SetImageAPI(name string) { imageAPI.Store(name) }

// lacksImageParam returns the error of a setting the image API in use has
// no such parameter for (never sent), or nil.
func lacksImageParam(cmd, param string) error {
	if name, _ := imageAPI.Load().(string); name == api.ImageAPIOpenAI {
		return fmt.Errorf("/%s: the openai image API (image_api) has no %s; muse never sends it there", cmd, param)
	}
	return nil
}
