package elicitform

import (
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"muse/theme"
	"muse/ui/mcp"
	"muse/ui/textfmt"
)

// everything is the form of the reference "everything" server's
// trigger-elicitation-request: 13 fields, one with a long default.
func everything() *mcp.Elicitation {
	f := func(name, typ, def string) mcp.Field {
		return mcp.Field{Name: name, Type: typ, Default: def, Description: "the " + name}
	}
	return &mcp.Elicitation{Server: "everything", Message: "Please provide inputs for the following fields:", Fields: []mcp.Field{
		f("name", "string", ""), f("check", "boolean", ""), f("firstLine", "string", "It was a dark and stormy night."),
		f("email", "string", ""), f("homepage", "string", ""), f("birthdate", "string", ""),
		f("integer", "integer", "42"), f("number", "number", "3.14"), f("untitledSingleSelect", "string", ""),
		f("titledSingleSelect", "string", ""), f("untitledMultipleSelect", "array", ""), f("titledMultipleSelect", "array", ""),
		f("legacyTitledEnum", "string", ""),
	}}
}

// At 60x20 the 13-field form fits the rows it is given whichever field has
// the focus: its top border, the server's question and the focused field
// stay on screen, "↓ N more"/"↑ N more" says what is not, no line is wider
// than the screen, and no value wraps to the box's left edge.
func TestFormFitsSmallScreen(t *testing.T) {
	th, err := theme.New("", true, theme.WithProfile(termenv.Ascii))
	if err != nil {
		t.Fatal(err)
	}
	const w, h = 60, 20
	m := New(everything(), th, DefaultKeyMap()).SetSize(w, h-6).SetFocused(true)
	for i := range m.e.Fields {
		v := ansi.Strip(m.View())
		lines := strings.Split(v, "\n")
		if len(lines) > h-6 {
			t.Fatalf("focus %d: %d rows, given %d:\n%s", i, len(lines), h-6, v)
		}
		if !strings.HasPrefix(lines[0], "╭") || !strings.Contains(lines[1], "MCP server everything asks") {
			t.Fatalf("focus %d: the top or the question is not shown:\n%s", i, v)
		}
		if !strings.Contains(v, "› "+m.e.Fields[i].Name[:min(len(m.e.Fields[i].Name), 12)]) {
			t.Fatalf("focus %d: the focused field %s is not shown:\n%s", i, m.e.Fields[i].Name, v)
		}
		if i > 0 && i < len(m.e.Fields)-1 && !strings.Contains(v, "more") {
			t.Fatalf("focus %d: no line says fields are hidden:\n%s", i, v)
		}
		for _, l := range lines {
			if textfmt.Width(l) > w {
				t.Fatalf("focus %d: a line of %d columns:\n%s", i, textfmt.Width(l), v)
			}
			if in, ok := strings.CutPrefix(l, "│ "); ok && !strings.HasPrefix(in, " ") && !strings.HasPrefix(in, "›") &&
				!strings.Contains(l, "MCP server") && !strings.Contains(l, "enter sends") {
				t.Fatalf("focus %d: text at the box's left edge: %q\n%s", i, l, v)
			}
		}
		m, _ = m.Update(tea.KeyMsg{Type: tea.KeyTab})
	}
	m = New(everything(), th, DefaultKeyMap()).SetSize(w, h-6)
	if v := ansi.Strip(m.View()); !strings.Contains(v, "It was a dark and stormy") || !strings.Contains(v, "↓") {
		t.Errorf("the form without the keys:\n%s", v)
	}
}
