package pending

import (
	"fmt"
	"strings"

	"muse/ui/attach"
	"muse/ui/textfmt"
)

// Height is how many rows the chips take.
func (m Model) Height() int { return textfmt.Height(m.View()) }

// View shows the attachments waiting, numbered for /detach, as many a row
// as fit; "" when none waits.
func (m Model) View() string {
	if len(m.files) == 0 {
		return ""
	}
	return m.memo.Get(textfmt.Key(m.width, len(m.files), m.key()), func() string {
		chips := make([]string, len(m.files))
		for i, f := range m.files {
			chips[i] = fmt.Sprintf("[%d] %s", i+1, attach.LabelTo(f, m.Target(i)))
		}
		lines := textfmt.WrapWords(chips, max(m.width-1, 10), 2)
		for i, l := range lines {
			lines[i] = m.st.Accent.Render(l)
		}
		return strings.Join(lines, "\n")
	})
}

// key names the attachments waiting, for the chips' memo.
func (m Model) key() string {
	var b strings.Builder
	for i, f := range m.files {
		fmt.Fprintf(&b, "%s|%d|%s|", f.Name, f.Bytes, m.Target(i))
	}
	return b.String()
}
