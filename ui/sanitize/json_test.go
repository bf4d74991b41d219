package sanitize

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestJSONEscapes(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"empty", ``, ``},
		{"clean", `{"a":"héllo 👋 世界","b":[1,2.5e3,true,null]}`, `{"a":"héllo 👋 世界","b":[1,2.5e3,true,null]}`},
		{"escapes kept", `"\u001b]52;c;x\u0007 \n \\ \""`, `"\u001b]52;c;x\u0007 \n \\ \""`},
		{"C1 CSI", "\"a\u009b2Jb\"", `"a\u009b2Jb"`},
		{"C1 range ends", "\"\u0080\u009f\u00a0\"", "\"\\u0080\\u009f\u00a0\""},
		{"DEL", "\"a\x7fb\"", `"a\u007fb"`},
		{"line separators", "\"a\u2028b\u2029c\"", `"a\u2028b\u2029c"`},
		{"bidi controls", "\"\u202ax\u202e\u2066y\u2069\"", `"\u202ax\u202e\u2066y\u2069"`},
		{"LRM", "\"a\u200eb\"", `"a\u200eb"`},
		{"invisible", "\"a\u200bb\u00ad\ufeff👨\u200d👩\"", `"a\u200bb\u00ad\ufeff👨\u200d👩"`},
		{"tag characters", "\"hi\U000E0069\U000E007F\"", `"hi\udb40\udc69\udb40\udc7f"`},
		{"invalid UTF-8", "\"a\x9bb\xc2\"", `"a\ufffdb\ufffd"`},
		{"literal U+FFFD kept", "\"\ufffd\"", "\"\ufffd\""},
		{"at the ends", "\u009b\"x\"\u2028", `\u009b"x"\u2028`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := string(JSON([]byte(tc.in))); got != tc.want {
				t.Errorf("JSON(%q) = %q, want %q", tc.in, got, tc.want)
			}
		})
	}
}

// TestJSONSameValue checks that what encoding/json writes decodes to the
// same value after JSON, and holds no raw C1, separator or bidi rune.
func TestJSONSameValue(t *testing.T) {
	v := map[string]any{
		"csi":   "x\u009b2J\u0085y",
		"osc":   "\x1b]52;c;aGk=\x07\x1b]0;pwned\x07",
		"seps":  "a\u2028b\u2029c",
		"bidi":  "\u202eevil\u202c \u2067x\u2069",
		"tags":  "title\U000E0069\U000E0067\u200b👨\u200d👩",
		"list":  []any{"\u009d0;t\u009c", 1.5, true, nil},
		"plain": "héllo 世界 👋 <&>",
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(buf.String(), "\u009b") {
		t.Fatal("encoding/json escaped U+009B itself: the test no longer tests anything")
	}
	out := JSON(buf.Bytes())
	if !bytes.Contains(out, []byte(`\u009b`)) || !bytes.Contains(out, []byte(`\u2028`)) || !bytes.Contains(out, []byte(`\u202e`)) {
		t.Errorf("escapes missing:\n%s", out)
	}
	for s := string(out); s != ""; {
		r, n := utf8.DecodeRuneInString(s)
		if r == utf8.RuneError && n == 1 || r >= 0x7f && r <= 0x9f || r == 0x2028 || r == 0x2029 || isInvisible(r) {
			t.Fatalf("raw %U left in\n%s", r, out)
		}
		s = s[n:]
	}
	if Text(string(out)) != string(out) {
		t.Errorf("the result is not clean for a terminal:\n%q", out)
	}
	var got any
	if err := json.Unmarshal(out, &got); err != nil {
		t.Fatalf("result does not parse: %v\n%s", err, out)
	}
	var want any
	if err := json.Unmarshal(buf.Bytes(), &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("value changed:\n got %#v\nwant %#v", got, want)
	}
}

func TestJSONNoAllocWhenClean(t *testing.T) {
	in := []byte(`{"title":"héllo 世界 👋","text":"a\u001bb\n"}`)
	var out []byte
	if n := testing.AllocsPerRun(100, func() { out = JSON(in) }); n != 0 {
		t.Errorf("JSON allocated %v times on clean input", n)
	}
	if &out[0] != &in[0] {
		t.Error("JSON did not return its argument on clean input")
	}
	dirty := []byte("\"a\u009bb\"")
	orig := string(dirty)
	JSON(dirty)
	if string(dirty) != orig {
		t.Error("JSON modified its argument")
	}
}

func FuzzJSON(f *testing.F) {
	f.Add([]byte(`{"a":"x\u009by"}`))
	f.Add([]byte("\"\u2028\x9b\x7f\""))
	f.Fuzz(func(t *testing.T, b []byte) {
		out := JSON(b)
		if !json.Valid(b) {
			return
		}
		if !json.Valid(out) {
			t.Fatalf("JSON(%q) = %q is not valid", b, out)
		}
		// Numbers stay as written (1E700 is valid JSON but no float64).
		decode := func(data []byte) (any, error) {
			d := json.NewDecoder(bytes.NewReader(data))
			d.UseNumber()
			var v any
			return v, d.Decode(&v)
		}
		want, err1 := decode(b)
		got, err2 := decode(out)
		if err1 != nil || err2 != nil {
			t.Fatalf("cannot decode %q or %q: %v, %v", b, out, err1, err2)
		}
		if !reflect.DeepEqual(want, got) {
			t.Fatalf("JSON(%q) = %q decodes to %#v, want %#v", b, out, got, want)
		}
	})
}
