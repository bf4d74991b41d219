package preview

import (
	"bytes"
	"encoding/base64"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestKittyTransmitChunks(t *testing.T) {
	png := bytes.Repeat([]byte{0x89, 'P', 'N', 'G', 1, 2, 3, 4, 5}, 1000) // 9000 bytes, 12000 in base64
	out := KittyTransmit(7, png, 30, 12)
	cmds := strings.SplitAfter(out, "\x1b\\")
	if cmds[len(cmds)-1] != "" {
		t.Fatalf("output does not end with ST: %q", cmds[len(cmds)-1])
	}
	cmds = cmds[:len(cmds)-1]
	if len(cmds) != 3 {
		t.Fatalf("%d commands, want 3", len(cmds))
	}
	var payload strings.Builder
	for i, c := range cmds {
		if !strings.HasPrefix(c, "\x1b_G") {
			t.Fatalf("command %d: %q", i, c[:min(20, len(c))])
		}
		keys, data, ok := strings.Cut(strings.TrimSuffix(strings.TrimPrefix(c, "\x1b_G"), "\x1b\\"), ";")
		if !ok {
			t.Fatalf("command %d has no payload", i)
		}
		if len(data) > 4096 || (i < len(cmds)-1 && len(data) != 4096) {
			t.Errorf("command %d carries %d bytes", i, len(data))
		}
		wantM := "m=1"
		if i == len(cmds)-1 {
			wantM = "m=0"
		}
		if !hasKey(keys, wantM) || !hasKey(keys, "q=2") {
			t.Errorf("command %d keys %q, want %s and q=2", i, keys, wantM)
		}
		if i == 0 {
			for _, k := range []string{"a=T", "f=100", "i=7", "U=1", "c=30", "r=12"} {
				if !hasKey(keys, k) {
					t.Errorf("first command keys %q lack %s", keys, k)
				}
			}
		} else if strings.Contains(keys, "i=") || strings.Contains(keys, "a=") {
			t.Errorf("command %d repeats keys: %q", i, keys)
		}
		payload.WriteString(data)
	}
	got, err := base64.StdEncoding.DecodeString(payload.String())
	if err != nil || !bytes.Equal(got, png) {
		t.Errorf("payload does not decode to the PNG (err %v)", err)
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
	out := KittyTransmit(1, []byte("tiny"), 2, 1)
	want := "\x1b_Ga=T,f=100,i=1,U=1,c=2,r=1,q=2,m=0;dGlueQ==\x1b\\"
	if out != want {
		t.Errorf("got %q, want %q", out, want)
	}
	for _, s := range []string{KittyTransmit(0, []byte("x"), 1, 1), KittyTransmit(1, nil, 1, 1), KittyTransmit(1, []byte("x"), 0, 1)} {
		if s != "" {
			t.Errorf("invalid call gave %q", s)
		}
	}
	if got := KittyDelete(9); got != "\x1b_Ga=d,d=I,i=9,q=2\x1b\\" {
		t.Errorf("delete: %q", got)
	}
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
	if len(big) != MaxKittyCells || strings.Count(big[0], "\U0010EEEE") != MaxKittyCells {
		t.Errorf("not capped: %d lines", len(big))
	}
}

func TestDiacriticsTable(t *testing.T) {
	if len(diacritics) != 297 {
		t.Errorf("%d diacritics, want 297", len(diacritics))
	}
	seen := map[rune]bool{}
	for i, d := range diacritics {
		if seen[d] {
			t.Errorf("%U repeated", d)
		}
		seen[d] = true
		if i > 0 && d <= diacritics[i-1] {
			t.Errorf("not ascending at %d", i)
		}
	}
	if diacritics[296] != 0x1D244 {
		t.Errorf("last is %U", diacritics[296])
	}
}
