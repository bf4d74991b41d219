//go:build !race

// These tests run one goroutine over large inputs, so the race detector
// can find nothing in them and only makes them slow (about 100 s of the
// race pass): they are built without -race only, and the README's test
// command runs them in its second, plain pass.

package conversation

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"muse/theme"
	"muse/ui/internal/streamtest"
)

// TestMdstreamGoldens streams fences, lists, a table, a quote and a mix a
// word at a time and checks that the final render is byte for byte a whole
// render, in colour and without, and compares it with
// testdata/mdstream/<name>.golden (go test ./ui/conversation -update
// rewrites them).
func TestMdstreamGoldens(t *testing.T) {
	defer func(step int) { innerStep = step }(innerStep)
	innerStep = 96 // split the small documents often
	th, err := theme.New("dark", true)
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range mdstreamDocs() {
		t.Run(name, func(t *testing.T) {
			for _, tc := range []struct {
				profile termenv.Profile
				width   int
			}{{termenv.Ascii, 60}, {termenv.TrueColor, 37}} {
				md := newMarkdown(th.Markdown, tc.profile)
				inner := 0
				got := streamed(md, text, tc.width, func(_ []string, in bool) {
					if in {
						inner++
					}
				})
				want := indent(md.render(text, tc.width))
				if got != want {
					t.Errorf("profile %v, width %d: the streamed render differs from a whole render:\n%s", tc.profile, tc.width, firstDiff(got, want))
				}
				if inner == 0 && name != "table" {
					t.Errorf("profile %v, width %d: never split inside an open block", tc.profile, tc.width)
				}
				if tc.profile == termenv.Ascii {
					requireMdstreamGolden(t, name, got)
				}
			}
		})
	}
}

// TestMdstreamFramesOnlySGR checks that no frame of a stream holds a control
// byte other than the escape of an SGR sequence, whatever the text holds.
func TestMdstreamFramesOnlySGR(t *testing.T) {
	defer func(step int) { innerStep = step }(innerStep)
	innerStep = 64
	th, _ := theme.New("dark", true)
	nasty := "bell\a title\x1b]0;x\a clear\x1b[2J c1\u009b31m del\x7f entity&#27;[31m nul\x00 cr\r end"
	var b strings.Builder
	b.WriteString("Intro " + nasty + "\n\n```go\n")
	for i := 0; i < 12; i++ {
		fmt.Fprintf(&b, "x := %q // %s\n", nasty, nasty)
	}
	b.WriteString("```\n\n")
	for i := 0; i < 12; i++ {
		fmt.Fprintf(&b, "- item %d %s\n", i, nasty)
	}
	b.WriteString("\n")
	for i := 0; i < 8; i++ {
		fmt.Fprintf(&b, "> para %d %s\n>\n", i, nasty)
	}
	b.WriteString("\n| a | b |\n|---|---|\n| " + nasty + " | 1 |\n")
	text := b.String()
	for _, profile := range []termenv.Profile{termenv.Ascii, termenv.TrueColor} {
		md := newMarkdown(th.Markdown, profile)
		frames := 0
		streamed(md, text, 50, func(lines []string, _ bool) {
			frames++
			for i, l := range lines {
				if err := onlySGRLine(l); err != nil {
					t.Fatalf("profile %v, frame %d, line %d: %v: %q", profile, frames, i, err, l)
				}
			}
		})
	}
}

// TestMdstreamIncremental checks that streaming one long fence or one long
// list renders each part a bounded number of times, not the open block
// again with every word.
func TestMdstreamIncremental(t *testing.T) {
	th, _ := theme.New("dark", true)
	for name, text := range map[string]string{"fence": streamFenceDoc(6000), "list": streamListDoc(6000)} {
		md := newMarkdown(th.Markdown, termenv.TrueColor)
		var s mdStream
		n, frames := 0, 0
		for k, p := range streamtest.Deltas(text) {
			n += len(p)
			if k%8 == 0 {
				s.lines(md, text[:n], 80)
				frames++
			}
		}
		got := s.render(md, text, 80)
		if want := indent(md.render(text, 80)); got != want {
			t.Fatalf("%s: the streamed render differs from a whole render:\n%s", name, firstDiff(got, want))
		}
		// Each frame renders the tail, under innerStep and a line or an item
		// past it, and each chunk is rendered once; the fence is rendered
		// whole once more when it closes. Rendering the open block with
		// every frame would take frames/2 times the text.
		if ratio := float64(md.rendered) / float64(len(text)); ratio > 30 {
			t.Errorf("%s: %d frames rendered %.1f times the text", name, frames, ratio)
		}
	}
}

// TestMdstreamRandom streams random documents in random pieces, rendering
// after some of them, and checks the final render against a whole render.
func TestMdstreamRandom(t *testing.T) {
	defer func(step int) { innerStep = step }(innerStep)
	th, _ := theme.New("dark", true)
	rng := rand.New(rand.NewSource(7))
	for k := 0; k < 24; k++ {
		text := randomMarkdown(rng)
		innerStep = 16 + rng.Intn(200)
		profile := []termenv.Profile{termenv.Ascii, termenv.TrueColor}[k%2]
		width := 20 + rng.Intn(70)
		md := newMarkdown(th.Markdown, profile)
		var s mdStream
		for n := 0; n < len(text); {
			n = min(len(text), n+1+rng.Intn(12))
			if rng.Intn(3) > 0 {
				s.lines(md, text[:n], width)
			}
		}
		got := strings.Join(s.settle(md, text, width), "\n")
		if want := indent(md.render(text, width)); got != want {
			t.Errorf("document %d (profile %v, width %d, step %d) streamed differs from whole:\n%s\n--- document\n%s", k, profile, width, innerStep, firstDiff(got, want), text)
		}
		if s.flat {
			t.Errorf("document %d (profile %v, width %d, step %d): a split did not render as calibrated\n--- document\n%s", k, profile, width, innerStep, text)
		}
	}
}

// TestMegabyteWordShowsWhole renders a reply holding one word of 1 MB on
// the chat screen: it is cut into lines no wider than the screen, and
// nothing of it is lost.
func TestMegabyteWordShowsWhole(t *testing.T) {
	th, err := theme.New("dark", true)
	if err != nil {
		t.Fatal(err)
	}
	word := streamtest.Blob(1 << 20)
	const width = 100
	lines := resumeLines(NewRenderer(th, termenv.TrueColor), "Here: "+word+" end", width)
	var got strings.Builder
	full := 0
	for _, l := range lines {
		v := ansi.Strip(l)
		if w := ansi.StringWidth(v); w > width {
			t.Fatalf("a line of %d columns on a screen of %d", w, width)
		} else if w == width {
			full++
		}
		got.WriteString(strings.Join(strings.Fields(v), ""))
	}
	if want := "assistantHere:" + word + "end"; got.String() != want {
		t.Fatalf("the word shows changed: %d bytes of text, want %d", got.Len(), len(want))
	}
	if want := len(word)/(width-BodyIndent) - 1; full < want {
		t.Errorf("%d lines fill the screen's width, want %d: the word is not cut at the width", full, want)
	}
}
