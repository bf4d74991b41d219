package conversation

import "muse/theme"

// SetTheme makes r draw in th from now on: its markdown renderers, one per
// width, are made again with th's markdown style. Every Model made with r
// must then Rerender, which drops the renders cached by entry and width.
func (r *Renderer) SetTheme(th *theme.Theme) {
	r.th = th
	r.md = newMarkdown(th.Markdown, r.md.profile)
}
