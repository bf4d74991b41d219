package status

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/rivo/uniseg"

	"muse/session"
	"muse/theme/themetest"
	"muse/ui/textfmt"
)

const clipboardNotice = "no display to reach a clipboard on (neither WAYLAND_DISPLAY nor DISPLAY is set): save the image to a file and attach that (no program to read an image from the clipboard)"

// noticeState is the demo's idle screen with a notice: the chat model and
// the image model set, as `muse --demo` starts.
func noticeState(width int, notice string) State {
	return State{Width: width, Notice: notice, Params: session.Params{Model: "demo-chat"},
		ImageParams: session.ImageParams{Model: "demo-image"}}
}

// A notice has the line before the settings: one that fits the width is
// on one line (at 80 columns the scaled photo's note took two), the
// settings beside it only in the room it leaves; a longer one takes two,
// the second leaving the model its room and cut after a word, never
// inside one ("save the ima…").
func TestNoticeHasTheLine(t *testing.T) {
	st := themetest.Styles(t)
	photo := "photo.png: scaled from 3000×2000 to 1568×1045, sent as PNG"
	for _, c := range []struct {
		width       int
		notice      string
		lines       int
		right, last string
	}{
		{60, photo, 1, "", photo},
		{80, photo, 1, "demo-chat", photo},
		{120, photo, 1, "demo-chat · img demo-image", photo},
		{60, clipboardNotice, 2, "demo-chat", "nor DISPLAY is set): save the image to a file…"},
		{80, clipboardNotice, 2, "demo-chat", "save the image to a file and attach that (no program to read an…"},
		{120, clipboardNotice, 2, "demo-chat · img demo-image", "that (no program to read an image from the clipboard)"},
	} {
		s := noticeState(c.width, c.notice)
		lines := New().NoticeLines(s)
		line := ansi.Strip(New().View(st, s))
		if len(lines) != c.lines || New().NoticeHeight(s) != c.lines-1 || lines[len(lines)-1] != c.last {
			t.Errorf("width %d: lines %q, want %d ending %q", c.width, lines, c.lines, c.last)
		}
		if got := strings.TrimSpace(strings.TrimPrefix(line, c.last)); got != c.right || ansi.StringWidth(line) != c.width {
			t.Errorf("width %d: the line is %q, settings %q, want %q", c.width, line, got, c.right)
		}
	}
}

// However wide the line, the model is on it whole or not at all: never
// cut to a stub like "demo-ch…", beside a notice, a selection or the
// tokens.
func TestModelNeverCut(t *testing.T) {
	st := themetest.Styles(t)
	for w := 12; w <= 160; w++ {
		for name, s := range map[string]State{
			"notice":   noticeState(w, clipboardNotice),
			"short":    noticeState(w, "saved"),
			"idle":     noticeState(w, ""),
			"unsaved":  func() State { s := noticeState(w, ""); s.SaveErr = "no space left"; return s }(),
			"selected": func() State { s := noticeState(w, ""); s.Selected = &Selected{Name: "prompt", Count: 3}; return s }(),
		} {
			line := ansi.Strip(New().View(st, s))
			if n := ansi.StringWidth(line); n > w {
				t.Fatalf("%s, width %d: %d wide: %q", name, w, n, line)
			}
			for i := 1; i < len("demo-chat"); i++ {
				if stub := " " + "demo-chat"[:i] + "…"; strings.Contains(" "+line, stub) {
					t.Fatalf("%s, width %d: the model is cut to %q: %q", name, w, stub, line)
				}
			}
		}
	}
}

// A notice is wrapped and cut by grapheme cluster, at the widths the
// terminal draws: a family emoji (one cluster of five code points), a
// wide CJK character or a letter with its combining marks is never split,
// and no line is wider than the status line.
func TestNoticeByCluster(t *testing.T) {
	for _, word := range []string{"👨‍👩‍👧👨‍👩‍👧", "漢字かな", "ñ̃ñ̃ñ̃"} {
		notice := strings.TrimSpace(strings.Repeat(word+" ", 40))
		for w := 10; w <= 90; w++ {
			busy := noticeState(w, notice)
			busy.Turn = &Turn{}
			for _, s := range []State{noticeState(w, notice), busy} {
				for _, l := range New().NoticeLines(s) {
					if textfmt.Width(l) > w {
						t.Fatalf("width %d: %q is %d wide", w, l, textfmt.Width(l))
					}
					for _, f := range strings.Fields(strings.TrimSuffix(l, "…")) {
						if !wholeClusters(word, f) {
							t.Fatalf("width %d: %q splits a cluster of %q", w, l, word)
						}
					}
				}
			}
		}
	}
}

// wholeClusters says part is word or a part of it that begins and ends
// between grapheme clusters.
func wholeClusters(word, part string) bool {
	for i := 0; i < len(word); {
		if strings.HasPrefix(word[i:], part) {
			end, rest := i, word[i:]
			for end < i+len(part) {
				c, r, _, _ := uniseg.FirstGraphemeClusterInString(rest, -1)
				end, rest = end+len(c), r
			}
			if end == i+len(part) {
				return true
			}
		}
		c, _, _, _ := uniseg.FirstGraphemeClusterInString(word[i:], -1)
		i += len(c)
	}
	return false
}
