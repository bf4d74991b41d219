package slash

import (
	"fmt"

	"muse/api"
)

// Env is what the commands are told of the chat screen around them, passed
// to [Run] with each command: the package keeps no state of its own.
type Env struct {
	// Tools are the names of the tools configured, which /tool-choice may
	// name.
	Tools []string
	// ImageAPI is the image API the client speaks (api.ImageAPIs), which
	// says which image settings there are: OpenAI's has no negative
	// prompt, prompt_extend or watermark. "" is the interface's.
	ImageAPI string
}

// lacksImageParam returns the error of the command c, which sets an image
// setting the image API in use has no parameter for (never sent), or nil.
func (e Env) lacksImageParam(c *slashCommand) error {
	if c.imageParam != "" && e.ImageAPI == api.ImageAPIOpenAI {
		return fmt.Errorf("/%s: the openai image API (image_api) has no %s; muse never sends it there", c.name, c.imageParam)
	}
	return nil
}
