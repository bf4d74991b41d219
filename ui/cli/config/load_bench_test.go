package config

import (
	"fmt"
	"strings"
	"testing"
)

// bigInputs are files of about MaxConfigSize bytes built to be expensive:
// wide, deep, long-keyed, or full of mistakes. Loading any of them must
// stay within 50 MB and 100 ms; BenchmarkLoadBig reports the time and the
// bytes allocated per load.
func bigInputs() map[string]string {
	const size = MaxConfigSize - 64
	fill := func(head, unit, sep, tail string) string {
		n := (size - len(head) - len(tail)) / (len(unit) + len(sep))
		return head + strings.Repeat(unit+sep, n) + tail
	}
	lines := func(head string, line func(i int) string) string {
		var b strings.Builder
		b.WriteString(head)
		for i := 0; ; i++ {
			l := line(i)
			if b.Len()+len(l) > size {
				return b.String()
			}
			b.WriteString(l)
		}
	}
	counted := func(head string, line func(i int) string) string {
		var b strings.Builder
		b.WriteString(head)
		for i := range MaxKeys - 1 {
			b.WriteString(line(i))
		}
		return b.String()
	}
	nest := func(open, leaf, close string, d int) string {
		return strings.Repeat(open, d) + leaf + strings.Repeat(close, d)
	}
	deep := MaxDepth - 2
	return map[string]string{
		"integers":       fill("a = [", "1", ",", "]\n"),
		"strings":        fill("a = [", `"x"`, ",", "]\n"),
		"empty tables":   fill("a = [", "{}", ",", "]\n"),
		"nested arrays":  fill("a = [", nest("[", "1", "]", deep), ",", "]\n"),
		"nested tables":  fill("a = [", nest("{a=", "1", "}", deep), ",", "]\n"),
		"keys":           lines("", func(i int) string { return fmt.Sprintf("k%d = 1\n", i) }),
		"short keys":     lines("", func(i int) string { return fmt.Sprintf("%x=1\n", i) }),
		"inline keys":    lines("a = {", func(i int) string { return fmt.Sprintf("k%d=1,", i) }) + "}\n",
		"unknown keys":   lines("[profiles.w]\n", func(i int) string { return fmt.Sprintf("k%d = 1\n", i) }),
		"dotted keys":    lines("", func(i int) string { return strings.Repeat("a.", deep) + fmt.Sprintf("k%d = 1\n", i) }),
		"headers":        lines("", func(i int) string { return "[" + strings.Repeat("a.", deep) + fmt.Sprintf("k%d]\n", i) }),
		"array headers":  lines("", func(i int) string { return "[[" + strings.Repeat("a.", deep) + "k]]\n" }),
		"long table key": lines(`["`+strings.Repeat("x", size/2)+`"]`+"\n", func(i int) string { return fmt.Sprintf("k%d=1\n", i) }),
		"long string":    `a = "` + strings.Repeat("x", size-10) + "\"\n",
		"comments":       strings.Repeat("#\n", size/2),
		"profiles":       lines("", func(i int) string { return fmt.Sprintf("[profiles.p%d]\nmodel = \"m\"\n", i) }),
		"stop sequences": fill("[profiles.w]\nstop_sequences = [", `"x"`, ",", "]\n"),
		"key bindings":   lines("[profiles.w.keys]\nsend = [", func(i int) string { return fmt.Sprintf("%q,", fmt.Sprint(i)) }) + "]\n",
		"tools": lines("", func(i int) string {
			return fmt.Sprintf("[[profiles.w.tools]]\nname = \"t%d\"\ninput_schema = { type = \"object\" }\n", i)
		}),
		"deep arrays": "a = " + strings.Repeat("[", 30_000) + strings.Repeat("]", 30_000) + "\n",
		// As many keys as MaxKeys allows, which the library looks up in a
		// list: the slowest files that load.
		"most keys":          counted("", func(i int) string { return fmt.Sprintf("%x=1\n", i) }),
		"most headers":       counted("", func(i int) string { return fmt.Sprintf("[%x]\n", i) }),
		"most profile keys":  counted("[profiles.w]\n", func(i int) string { return fmt.Sprintf("%x=1\n", i) }),
		"most inline tables": counted("a = [", func(i int) string { return fmt.Sprintf("{%x=1},", i) }) + "]\n",
		"same tools": lines("", func(i int) string {
			return "[[profiles.w.tools]]\nname = \"t\"\ninput_schema = { type = \"object\" }\n"
		}),
	}
}

func BenchmarkLoadBig(b *testing.B) {
	for name, text := range bigInputs() {
		b.Run(strings.ReplaceAll(name, " ", "_"), func(b *testing.B) {
			data := []byte(text)
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				parse("big.toml", data)
			}
		})
	}
}
