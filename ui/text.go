package ui

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"

	"github.com/charmbracelet/lipgloss"
)

// wrap soft-wraps plain text to width, keeping its own line breaks.
func wrap(s string, width int) string {
	lines := strings.Split(lipgloss.NewStyle().Width(width).Render(s), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n")
}

func prettyJSON(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "{}"
	}
	var b bytes.Buffer
	if json.Indent(&b, raw, "", "  ") != nil {
		return string(raw)
	}
	return b.String()
}

func truncateRunes(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

// shortPath shows a path under the home directory as ~/….
func shortPath(p string) string {
	if home, err := os.UserHomeDir(); err == nil && home != "" && strings.HasPrefix(p, home+string(os.PathSeparator)) {
		return "~" + p[len(home):]
	}
	return p
}
