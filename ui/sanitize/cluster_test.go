package sanitize

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/rivo/uniseg"
)

// TestClusterCap: a letter with 40,000 combining accents keeps its first
// MaxCluster code points, in every mode, and IsClean says it changes;
// real clusters (emoji ZWJ sequences, a tag flag, Indic conjuncts, accents)
// and text around the long one come through whole.
func TestClusterCap(t *testing.T) {
	long := "hi a" + strings.Repeat("\u0301", 40000) + " end"
	want := "hi a" + strings.Repeat("\u0301", MaxCluster-1) + " end"
	for name, f := range map[string]func(string) string{"Text": Text, "Plain": Plain, "Line": Line} {
		if got := f(long); got != want {
			t.Errorf("%s: %d bytes, want %q", name, len(got), want)
		}
	}
	if IsClean(long) {
		t.Error("IsClean reports a cluster of 40,001 code points clean")
	}
	// A ZWJ chain of emoji is one cluster too; the ZWJ at the cut goes.
	chain := strings.Repeat("👨\u200d", 100) + "👨 x"
	got := Text(chain)
	first, _, _, _ := uniseg.FirstGraphemeClusterInString(got, -1)
	if n := utf8.RuneCountInString(first); n > MaxCluster || strings.HasSuffix(first, "\u200d") {
		t.Errorf("ZWJ chain: first cluster %d code points, ends %q; want at most %d, no ZWJ at its end", n, first[len(first)-3:], MaxCluster)
	}
	if !strings.HasSuffix(got, " x") {
		t.Errorf("ZWJ chain: lost the text after it: %q", got[len(got)-8:])
	}
	real := "👩🏻\u200d❤️\u200d💋\u200d👨🏼 🏴\U000E0067\U000E0062\U000E0073\U000E0063\U000E0074\U000E007F क्षत्रिय é" +
		strings.Repeat("\u0301", 20) + " " + strings.Repeat("é", 40) + " 世界"
	if got := Text(real); got != real || !IsClean(real) {
		t.Errorf("real clusters changed: %q", got)
	}
	// Many long runs, each with ASCII between.
	many := strings.Repeat("a"+strings.Repeat("\u0300", 100)+".", 50)
	wantMany := strings.Repeat("a"+strings.Repeat("\u0300", MaxCluster-1)+".", 50)
	if got := Plain(many); got != wantMany {
		t.Errorf("many runs: %d bytes, want %d", len(got), len(wantMany))
	}
}

// TestClusterCapStream: a Stream fed the long cluster in 200-byte pieces
// gives what Text gives the whole.
func TestClusterCapStream(t *testing.T) {
	long := "hi a" + strings.Repeat("\u0301", 4000) + " end"
	var s Stream
	var b strings.Builder
	for i := 0; i < len(long); i += 200 {
		b.WriteString(s.Write(long[i:min(i+200, len(long))]))
	}
	b.WriteString(s.Flush())
	if got := b.String(); got != Text(long) {
		t.Errorf("streamed %d bytes, whole %d", len(got), len(Text(long)))
	}
}
