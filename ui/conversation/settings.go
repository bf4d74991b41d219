package conversation

import "muse/theme"

// The display settings of a conversation: thinking expanded, image
// previews shown, the theme. Changing one gives the conversation a
// renderer of its own, so a copy of the Model made before is drawn as it
// was, and draws the entries again. The previews, derived from the files,
// stay shared by every copy.

// ExpandThinking reports whether thinking blocks show in full.
func (c Model) ExpandThinking() bool { return c.r.ExpandThinking }

// SetExpandThinking shows thinking blocks in full, or as one line.
func (c Model) SetExpandThinking(on bool) Model {
	r := *c.r
	r.ExpandThinking = on
	c.r = &r
	return c.Rerender()
}

// ShowPreviews reports whether image previews show under their images.
func (c Model) ShowPreviews() bool { return c.r.ShowPreviews }

// SetShowPreviews shows image previews under their images, or hides them.
func (c Model) SetShowPreviews(on bool) Model {
	r := *c.r
	r.ShowPreviews = on
	c.r = &r
	return c.Rerender()
}

// SetTheme draws the conversation in th.
func (c Model) SetTheme(th *theme.Theme) Model {
	r := *c.r
	r.SetTheme(th)
	c.r = &r
	return c.Rerender()
}

// SetPreview keeps pv, the preview of the image key (a path, or see
// AttachmentPreviewKey), for the entries drawn from now on.
func (c Model) SetPreview(key, pv string) Model {
	c.r.Previews[key] = pv
	return c
}
