package api

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestRepairJSONNested repairs deeply nested and very wide inputs of 1 MiB.
// The old repair copied its stack at every safe point, so these took
// minutes; linear, they take milliseconds (the test timeout guards it).
func TestRepairJSONNested(t *testing.T) {
	const mib = 1 << 20
	for _, in := range []string{
		strings.Repeat("[", mib),
		strings.Repeat(`{"a":`, mib/5),
		"[" + strings.Repeat("1,", mib/8),
		`{"a":` + strings.Repeat(`"xyz",`, mib/24),
	} {
		if out := RepairJSON(in); !json.Valid(out) {
			t.Errorf("RepairJSON(%.20q…) = %.40q…, not valid", in, out)
		}
	}
	// Within encoding/json's nesting limit, every bracket is closed.
	if got, want := string(RepairJSON(strings.Repeat("[", 5000))), strings.Repeat("[", 5000)+strings.Repeat("]", 5000); got != want {
		t.Errorf("5000 [: got %.20q…", got)
	}
	if got, want := string(RepairJSON(strings.Repeat(`{"a":`, 1000))), strings.Repeat(`{"a":`, 999)+"{"+strings.Repeat("}", 1000); got != want {
		t.Errorf(`1000 {"a":: got %.40q…`, got)
	}
}

func TestRepairJSONMore(t *testing.T) {
	cases := map[string]string{
		`[1, 2`:                 `[1]`,
		`{"a": {"b": "c"}, "d`:  `{"a": {"b": "c"}}`,
		`[{"a"`:                 `[{}]`,
		`{"a": 12 `:             `{"a": 12}`,
		`{"a":1} {"b":`:         `{"a":1}`,
		`{"a": "\u00e9`:         `{}`,
		`{"a": [1, 2], "b": -`:  `{"a": [1, 2]}`,
		`{"a": "x\\"`:           `{"a": "x\\"}`,
		`{"a": ["]", "}"], "b"`: `{"a": ["]", "}"]}`,
		`]`:                     `{}`,
		`{"a": [1}`:             `{}`,
	}
	for in, want := range cases {
		if got := string(RepairJSON(in)); got != want {
			t.Errorf("RepairJSON(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestHugeTruncatedToolInputNotRepaired(t *testing.T) {
	defer func(n int) { maxRepairSize = n }(maxRepairSize)
	maxRepairSize = 64
	var a Accumulator
	a.Add(Event{Type: EventMessageStart, Message: &Message{}})
	a.Add(Event{Type: EventContentBlockStart, Block: &ContentBlock{Type: BlockToolUse, ID: "t", Name: "n"}})
	partial := `{"a": [` + strings.Repeat(`"x", `, 20)
	a.Add(Event{Type: EventContentBlockDelta, Delta: Delta{Type: DeltaInputJSON, PartialJSON: partial}})
	a.Add(Event{Type: EventContentBlockStop})
	b := a.Message().Content[0]
	if !b.Truncated || string(b.Input) != "{}" || b.PartialInput != partial {
		t.Errorf("block %+v", b)
	}
}

func BenchmarkRepairJSONNested(b *testing.B) {
	for name, in := range map[string]string{
		"brackets": strings.Repeat("[", 1<<20),
		"objects":  strings.Repeat(`{"a":`, 1<<20/5),
	} {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				RepairJSON(in)
			}
		})
	}
}

// FuzzRepairJSON checks that RepairJSON always returns valid JSON, and that
// for every prefix of a valid JSON object it needs no fallback: what it keeps
// of the prefix, closed, is itself valid.
func FuzzRepairJSON(f *testing.F) {
	for _, s := range []string{`{"a": [1, {"b": "c"}], "d": true}`, `{"k": "q\"uo\\", "n": -1.5e3, "z": null}`,
		`{"a": {"b": {"c": []}}, "e": ["]", "}", "\u00e9"]}`, `[{"a"`, `{"a":1} {"b":`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if out := RepairJSON(s); !json.Valid(out) {
			t.Fatalf("RepairJSON(%q) = %q, not valid", s, out)
		}
		if !json.Valid([]byte(s)) || !strings.HasPrefix(strings.TrimLeft(s, " \t\r\n"), "{") {
			return
		}
		if out := RepairJSON(s); !jsonEqual(out, json.RawMessage(s)) {
			t.Fatalf("RepairJSON(%q) = %q changed a complete value", s, out)
		}
		for i := 0; i <= len(s); i++ {
			p := s[:i]
			end := safeEnd(p)
			if end < 0 {
				continue
			}
			if out := p[:end] + closers(p[:end]); !json.Valid([]byte(out)) {
				t.Fatalf("prefix %q closed as %q: not valid", p, out)
			}
		}
	})
}
