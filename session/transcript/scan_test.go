package transcript

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
)

// scanned scans the entry in, as the parser of an export holding it does.
func scanned(t *testing.T, in string) extent {
	t.Helper()
	p := &parser{in: &window{r: strings.NewReader(in)}}
	x, ok := p.scan(0)
	if !ok || x.tooLarge {
		t.Fatalf("scan of %s: ok %v, too large %v", in, ok, x.tooLarge)
	}
	return x
}

// scan sizes an entry as a journal writes its JSON, compacted, escapes as
// encoding/json writes them (without HTML escaping): what it counts is
// what re-encoding the decoded value takes, whatever the white space and
// escapes of the input, so that an entry is refused for what its record
// would take. It ends at the entry's end, and finds its long strings, not
// its long keys.
func TestScanSizesAnEntryAsAJournalWritesIt(t *testing.T) {
	long := strings.Repeat("x", bigString)
	for _, in := range []string{
		`{"id": "e1", "kind": "user", "text": "hi"}`,
		"{\n  \"id\" : \"e1\",\n\t\"kind\": \"user\", \"text\": \"a\\nb\\tc\\\"d\\\\e\\/f\"\n}",
		`{"id": "e1", "text": "\u00e9\u20ac\ud83d\ude00 é€😀 <&> \u003c \u0001 \b\f\r"}`,
		`{"id": "e1", "kind": "assistant", "message": {"role": "assistant", "content": [{"type": "text", "text": "[{}]"}], "n": [1, 2.5, true, null]}}`,
		`{"id": "e1", "text": "` + long + `", "` + long + `": 1}`,
	} {
		x := scanned(t, in+` ,{"id": "next"}`)
		var v any
		if err := json.Unmarshal([]byte(in), &v); err != nil {
			t.Fatal(err)
		}
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
		if want := int64(b.Len() - 1); x.size != want || x.end != int64(len(in)) {
			t.Errorf("scan of %.60q: size %d, end %d; want %d, %d", in, x.size, x.end, want, len(in))
		}
	}
	in := `{"id": "e1", "text": "` + long + `", "` + long + `": "` + long + `"}`
	x := scanned(t, in)
	if len(x.big) != 2 || string(shrunk([]byte(in), x)) != `{"id": "e1", "text": "", "`+long+`": ""}` {
		t.Errorf("long strings %v: shrunk %.80q", x.big, shrunk([]byte(in), x))
	}
}
