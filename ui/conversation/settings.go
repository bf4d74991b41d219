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
	return c.withRenderer(func(r *Renderer) { r.ExpandThinking = on })
}

// ShowPreviews reports whether image previews show under their images.
func (c Model) ShowPreviews() bool { return c.r.ShowPreviews }

// SetShowPreviews shows image previews under their images, or hides them.
func (c Model) SetShowPreviews(on bool) Model {
	return c.withRenderer(func(r *Renderer) { r.ShowPreviews = on })
}

// SetTheme draws the conversation in th.
func (c Model) SetTheme(th *theme.Theme) Model {
	return c.withRenderer(func(r *Renderer) { r.SetTheme(th) })
}

// SetPreview keeps pv, the preview of the image key (a path, or see
// AttachmentPreviewKey), for the entries drawn from now on.
func (c Model) SetPreview(key, pv string) Model {
	c.r.Previews[key] = pv
	return c
}

// withRenderer gives c a copy of its renderer, changed by set, and draws the
// entries again with it.
func (c Model) withRenderer(set func(*Renderer)) Model {
	r := *c.r
	set(&r)
	c.r = &r
	return c.Rerender()
}
