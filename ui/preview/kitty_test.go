package preview

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/png"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/charmbracelet/x/ansi/kitty"
)

// noisePNG returns a w×h PNG of random pixels, which does not compress.
func noisePNG(t *testing.T, w, h int) []byte {
	t.Helper()
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	rng := rand.New(rand.NewPCG(1, 2))
	for i := range img.Pix {
		img.Pix[i] = byte(rng.Uint32())
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, img); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// kittyCommands splits a transmission into its commands' keys and joins
// their payloads.
func kittyCommands(t *testing.T, out string) (keys []string, payload string) {
	t.Helper()
	cmds := strings.SplitAfter(out, "\x1b\\")
	if cmds[len(cmds)-1] != "" {
		t.Fatalf("output does not end with ST: %q", cmds[len(cmds)-1])
	}
	var b strings.Builder
	for i, c := range cmds[:len(cmds)-1] {
		if !strings.HasPrefix(c, "\x1b_G") {
			t.Fatalf("command %d: %q", i, c[:min(20, len(c))])
		}
		k, data, ok := strings.Cut(strings.TrimSuffix(strings.TrimPrefix(c, "\x1b_G"), "\x1b\\"), ";")
		if !ok {
			t.Fatalf("command %d has no payload", i)
		}
		if len(data) > 4096 {
			t.Errorf("command %d carries %d bytes", i, len(data))
		}
		keys = append(keys, k)
		b.WriteString(data)
	}
	return keys, b.String()
}

func TestKittyTransmitChunks(t *testing.T) {
	src := noisePNG(t, 48, 48) // about 7 KB, 9 KB in base64: three commands
	out := KittyTransmit(7, src, 30, 12)
	keys, payload := kittyCommands(t, out)
	if len(keys) < 3 {
		t.Fatalf("%d commands, want at least 3", len(keys))
	}
	for i, k := range keys {
		wantM := "m=1"
		if i == len(keys)-1 {
			wantM = "m=0"
		}
		if !hasKey(k, wantM) || !hasKey(k, "q=2") {
			t.Errorf("command %d keys %q, want %s and q=2", i, k, wantM)
		}
		if i == 0 {
			for _, kv := range []string{"a=T", "f=100", "i=7", "U=1", "c=30", "r=12"} {
				if !hasKey(k, kv) {
					t.Errorf("first command keys %q lack %s", k, kv)
				}
			}
		} else if strings.Contains(k, "i=") || strings.Contains(k, "a=") {
			t.Errorf("command %d repeats keys: %q", i, k)
		}
	}
	data, err := base64.StdEncoding.DecodeString(payload)
	if err != nil {
		t.Fatal(err)
	}
	got, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("payload is not a PNG: %v", err)
	}
	// 48×48 fits in 30×12 cells of 16×32 pixels: sent at its own size.
	want, _ := png.Decode(bytes.NewReader(src))
	if got.Bounds() != want.Bounds() {
		t.Fatalf("sent %v, want %v", got.Bounds(), want.Bounds())
	}
	for _, p := range []image.Point{{0, 0}, {17, 30}, {47, 47}} {
		if gr, gg, gb, _ := got.At(p.X, p.Y).RGBA(); true {
			wr, wg, wb, _ := want.At(p.X, p.Y).RGBA()
			if gr != wr || gg != wg || gb != wb {
				t.Errorf("pixel %v changed", p)
			}
		}
	}
}

// TestKittyTransmitDownscales checks that an image larger than its cells
// need is sent at most kittyCellWidth×kittyCellHeight pixels a cell, its
// aspect kept.
func TestKittyTransmitDownscales(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 4000, 3000))
	for i := range img.Pix {
		img.Pix[i] = 0x80
	}
	out := kittyTransmitImage(9, img, 40, 15)
	keys, payload := kittyCommands(t, out)
	if !hasKey(keys[0], "c=40") || !hasKey(keys[0], "r=15") {
		t.Errorf("keys %q", keys[0])
	}
	data, _ := base64.StdEncoding.DecodeString(payload)
	cfg, err := png.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if cfg.Width != 40*kittyCellWidth || cfg.Height != 480 {
		t.Errorf("sent %d×%d, want 640×480", cfg.Width, cfg.Height)
	}
	if len(out) > 64<<10 {
		t.Errorf("%d bytes sent for a flat grey preview", len(out))
	}
	// A tall image is bounded by its rows.
	d := downscale(image.NewGray(image.Rect(0, 0, 100, 10000)), 640, 320)
	if b := d.Bounds(); b.Dy() != 320 || b.Dx() != 3 {
		t.Errorf("tall image scaled to %v", b)
	}
	if small := image.NewGray(image.Rect(0, 0, 10, 10)); downscale(small, 640, 320) != image.Image(small) {
		t.Error("a small image was scaled")
	}
}

func hasKey(keys, kv string) bool {
	for _, k := range strings.Split(keys, ",") {
		if k == kv {
			return true
		}
	}
	return false
}

func TestKittyTransmitSmallAndInvalid(t *testing.T) {
	src := noisePNG(t, 2, 1)
	out := KittyTransmit(1, src, 2, 1)
	keys, payload := kittyCommands(t, out)
	if len(keys) != 1 {
		t.Fatalf("%d commands for a tiny image", len(keys))
	}
	if got := strings.Split(keys[0], ","); !sameKeys(got, []string{"a=T", "f=100", "i=1", "U=1", "c=2", "r=1", "q=2"}) {
		t.Errorf("keys %q", keys[0])
	}
	if data, err := base64.StdEncoding.DecodeString(payload); err != nil || !bytes.HasPrefix(data, []byte("\x89PNG")) {
		t.Errorf("payload is not a PNG: %v", err)
	}
	for _, s := range []string{KittyTransmit(0, src, 1, 1), KittyTransmit(1, nil, 1, 1), KittyTransmit(1, src, 0, 1), KittyTransmit(1, []byte("not a png"), 1, 1),
		kittyTransmitImage(1, image.NewRGBA(image.Rectangle{}), 1, 1)} {
		if s != "" {
			t.Errorf("invalid call gave %q", s)
		}
	}
	del := KittyDelete(9)
	if !strings.HasPrefix(del, "\x1b_G") || !strings.HasSuffix(del, "\x1b\\") || strings.Contains(del, ";") ||
		!sameKeys(strings.Split(strings.TrimSuffix(strings.TrimPrefix(del, "\x1b_G"), "\x1b\\"), ","), []string{"a=d", "d=I", "i=9", "q=2"}) {
		t.Errorf("delete: %q", del)
	}
}

// sameKeys reports whether got and want hold the same keys, in any order.
func sameKeys(got, want []string) bool {
	g, w := slices.Clone(got), slices.Clone(want)
	slices.Sort(g)
	slices.Sort(w)
	return slices.Equal(g, w)
}

func TestKittyPlaceholderGrid(t *testing.T) {
	out := KittyPlaceholder(42, 3, 3)
	lines := strings.Split(out, "\n")
	if len(lines) != 3 {
		t.Fatalf("%d lines", len(lines))
	}
	want := []rune{0x0305, 0x030D, 0x030E} // 0, 1, 2
	for r, line := range lines {
		if !strings.HasPrefix(line, "\x1b[38;5;42m") || !strings.HasSuffix(line, reset) {
			t.Errorf("line %d: %q", r, line)
		}
		cells := []rune(strings.TrimSuffix(strings.TrimPrefix(line, "\x1b[38;5;42m"), reset))
		if len(cells) != 9 {
			t.Fatalf("line %d has %d runes, want 9", r, len(cells))
		}
		for c := range 3 {
			cell := cells[3*c : 3*c+3]
			if cell[0] != 0x10EEEE || cell[1] != want[r] || cell[2] != want[c] {
				t.Errorf("cell (%d, %d) = %U", r, c, cell)
			}
		}
	}
	if !utf8.ValidString(out) {
		t.Error("not valid UTF-8")
	}
}

func TestKittyPlaceholderIDColours(t *testing.T) {
	if got := KittyPlaceholder(0x123456, 1, 1); got != "\x1b[38;2;18;52;86m\U0010EEEE\u0305\u0305\x1b[0m" {
		t.Errorf("24-bit id: %q", got)
	}
	// The high byte, 2, goes in a third diacritic.
	if got := KittyPlaceholder(42+2<<24, 1, 1); got != "\x1b[38;2;0;0;42m\U0010EEEE\u0305\u0305\u030E\x1b[0m" {
		t.Errorf("32-bit id: %q", got)
	}
	if KittyPlaceholder(0, 1, 1) != "" || KittyPlaceholder(1, 0, 1) != "" {
		t.Error("invalid call drew something")
	}
	big := strings.Split(KittyPlaceholder(5, 1000, 1000), "\n")
	if len(big) != maxKittyCells || strings.Count(big[0], "\U0010EEEE") != maxKittyCells {
		t.Errorf("not capped: %d lines", len(big))
	}
}

// TestDiacriticsTable checks that kitty's table numbers maxKittyCells
// rows and columns: 297 distinct, ascending diacritics, the last U+1D244.
func TestDiacriticsTable(t *testing.T) {
	seen := map[rune]bool{}
	for i := range maxKittyCells {
		d := kitty.Diacritic(i)
		if seen[d] {
			t.Errorf("%U repeated", d)
		}
		seen[d] = true
		if i > 0 && d <= kitty.Diacritic(i-1) {
			t.Errorf("not ascending at %d", i)
		}
	}
	if kitty.Diacritic(0) != 0x0305 || kitty.Diacritic(maxKittyCells-1) != 0x1D244 {
		t.Errorf("first %U, last %U", kitty.Diacritic(0), kitty.Diacritic(maxKittyCells-1))
	}
	// Past the table, the library falls back to the first: no more cells.
	if kitty.Diacritic(maxKittyCells) != kitty.Diacritic(0) {
		t.Errorf("the table has more than %d diacritics", maxKittyCells)
	}
}
