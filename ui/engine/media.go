package engine

import (
	"encoding/base64"
	"fmt"
	"slices"

	"muse/api"
	"muse/ui/textfmt"
)

// droppedImageText is what is sent in place of an earlier image left out
// to keep a request within the service's api.MaxMedia.
const droppedImageText = "[an earlier image, left out: a request carries at most 100 images and PDF pages]"

// fitMedia makes msgs, a request's messages, fit the service's limits on
// media where muse can, and returns them with notes saying what it did:
// over api.MaxMedia images and PDF pages, the oldest images of the
// history (never those of the last message, the prompt being sent) are
// left out, each replaced by a line saying so; with more than
// api.ManyImages images, each over api.MaxManyImageSide px a side is
// scaled down to it with fit (none is, with fit nil). msgs is not changed. What cannot be fixed so (a
// prompt over the limits by itself) is left for api.MessageRequest.Validate
// to refuse.
func fitMedia(msgs []api.MessageParam, fit ImageFitter) ([]api.MessageParam, []string) {
	m := api.CountMedia(msgs)
	if m.Total() <= api.MaxMedia && (m.Images <= api.ManyImages || m.Large == 0) {
		return msgs, nil
	}
	out := make([]api.MessageParam, len(msgs))
	copy(out, msgs)
	var notes []string
	copied := make(map[int]bool) // the messages whose blocks out has its own copy of
	set := func(i, j int, b api.ContentBlock) {
		if !copied[i] {
			out[i].Blocks, copied[i] = slices.Clone(out[i].Blocks), true
		}
		out[i].Blocks[j] = b
	}
	if over := m.Total() - api.MaxMedia; over > 0 {
		dropped := 0
		for i := 0; i < len(out)-1 && dropped < over; i++ {
			if out[i].Role != api.RoleUser {
				continue
			}
			for j, b := range out[i].Blocks {
				if dropped == over {
					break
				}
				if b.Type == api.BlockImage {
					set(i, j, api.ContentBlock{Type: api.BlockText, Text: droppedImageText})
					dropped++
				}
			}
		}
		if dropped > 0 {
			notes = append(notes, fmt.Sprintf("left out the %s of this conversation: a request carries at most %d images and PDF pages",
				textfmt.Plural(dropped, "oldest image"), api.MaxMedia))
		}
		m = api.CountMedia(out)
	}
	if m.Images > api.ManyImages && m.Large > 0 {
		scaled := 0
		for i := range out {
			for j, b := range out[i].Blocks {
				if fitted, ok := scaleDown(b, fit); ok {
					set(i, j, fitted)
					scaled++
				}
			}
		}
		if scaled > 0 {
			notes = append(notes, fmt.Sprintf("scaled %s to %d px a side: a request of more than %d images takes none larger",
				textfmt.Plural(scaled, "image"), api.MaxManyImageSide, api.ManyImages))
		}
	}
	return out, notes
}

// scaleDown returns b, an image block over api.MaxManyImageSide px a side,
// scaled down to it with fit; ok is false for any other block, or an
// image that cannot be scaled (the request's check then refuses it).
func scaleDown(b api.ContentBlock, fit ImageFitter) (api.ContentBlock, bool) {
	if fit == nil || b.Type != api.BlockImage || b.Source == nil || b.Source.Type != api.SourceBase64 {
		return b, false
	}
	w, h, err := api.ImageSize(b.Source)
	if err != nil || max(w, h) <= api.MaxManyImageSide {
		return b, false
	}
	data, err := base64.StdEncoding.DecodeString(b.Source.Data)
	if err != nil {
		return b, false
	}
	f, err := fit("image", data, api.MaxManyImageSide)
	if err != nil {
		return b, false
	}
	return api.ImageBlock(f.MediaType, f.Data), true
}
