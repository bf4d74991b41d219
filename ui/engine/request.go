package engine

import (
	"errors"
	"slices"

	"muse/api"
	"muse/session"
)

// The checks of what is sent, each made once: validate checks a whole
// message request (each of its blocks once, the attachments of the new
// prompt and the stored ones of the history alike), checkBlock an image of
// a tool's result, which the request's check does not look inside, and
// validateImage an image request. Tests count them through these
// variables.
var (
	validate      = (*api.MessageRequest).Validate
	checkBlock    = func(b *api.ContentBlock) error { return b.Validate(api.RoleUser) }
	validateImage = (*api.ImageRequest).Validate
)

// check validates req, whose blocks listed in stored send attachments read
// back from the session. A stored attachment the check refuses (an
// imported record that lies about its bytes, a file saved before a limit
// was) is left out, replaced by a line saying why, and the request checked
// again, so that it cannot make every later turn fail; any other refusal
// is returned. req is sent as it is, and the client is told not to check
// it again (api.Checked).
func check(req *api.MessageRequest, stored storedFiles) error {
	for {
		err := validate(req)
		var be *api.BlockError
		if !errors.As(err, &be) {
			return err
		}
		ref := blockRef{be.Message, be.Block}
		a, ok := stored[ref]
		if !ok {
			return err
		}
		delete(stored, ref)
		msgs := slices.Clone(req.Messages)
		msgs[ref.msg].Blocks = slices.Clone(msgs[ref.msg].Blocks)
		msgs[ref.msg].Blocks[ref.block] = leftOut(a.Name, a.Kind, be.Err.Error())
		req.Messages = msgs
	}
}

// Request builds a message request with the settings p, offering tools.
func Request(p session.Params, msgs []api.MessageParam, tools []api.Tool) api.MessageRequest {
	req := api.MessageRequest{
		Model: p.Model, Messages: msgs, MaxTokens: p.MaxTokens, System: p.System,
		Temperature: p.Temperature, TopP: p.TopP, TopK: p.TopK, StopSequences: p.StopSequences,
	}
	if p.Cite {
		req.Messages = citing(msgs)
	}
	switch {
	case p.Thinking == api.ThinkingAdaptive:
		req.Thinking = &api.Thinking{Type: api.ThinkingAdaptive}
	case p.ThinkingBudget > 0:
		req.Thinking = &api.Thinking{Type: api.ThinkingEnabled, BudgetTokens: p.ThinkingBudget}
	}
	if p.Effort != "" {
		req.OutputConfig = &api.OutputConfig{Effort: p.Effort}
	}
	if p.UserID != "" {
		req.Metadata = &api.Metadata{UserID: p.UserID}
	}
	if len(tools) > 0 {
		req.Tools = tools
		switch p.ToolChoice {
		case "":
		case "auto", "any", "none":
			req.ToolChoice = &api.ToolChoice{Type: p.ToolChoice}
		default:
			req.ToolChoice = &api.ToolChoice{Type: "tool", Name: p.ToolChoice}
		}
	}
	return req
}

// citing returns msgs with every document block asking for citations; the
// messages and blocks of msgs are not changed.
func citing(msgs []api.MessageParam) []api.MessageParam {
	out := slices.Clone(msgs)
	for i, m := range out {
		if !slices.ContainsFunc(m.Blocks, func(b api.ContentBlock) bool { return b.Type == api.BlockDocument }) {
			continue
		}
		blocks := make([]api.ContentBlock, len(m.Blocks))
		for j, b := range m.Blocks {
			blocks[j] = api.WithCitations(b)
		}
		out[i].Blocks = blocks
	}
	return out
}

// imageRequest builds an image request for prompt with the settings ip;
// only the parameters that are set are sent.
func imageRequest(ip session.ImageParams, prompt string) api.ImageRequest {
	var params *api.ImageParameters
	if ip.Size != "" || ip.NegativePrompt != "" || ip.PromptExtend != nil || ip.Watermark != nil {
		params = &api.ImageParameters{Size: ip.Size, PromptExtend: ip.PromptExtend, Watermark: ip.Watermark}
		if ip.NegativePrompt != "" {
			params.NegativePrompt = api.String(ip.NegativePrompt)
		}
	}
	return api.NewImageRequest(ip.Model, prompt, params)
}
