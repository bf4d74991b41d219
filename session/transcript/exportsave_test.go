package transcript

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"muse/session"
)

// escapeLS is a cleaning function of the kind the sanitizer's is: rune by
// rune, it escapes U+2028 and drops ESC.
func escapeLS(_ string, data []byte) []byte {
	return bytes.ReplaceAll(bytes.ReplaceAll(data, []byte("\u2028"), []byte(`\u2028`)), []byte("\x1b"), nil)
}

// wholeJSON is the JSON export as encoding/json writes it in one piece,
// as Export did before it wrote a field at a time.
func wholeJSON(t *testing.T, sess *session.Session, files Files, all bool) []byte {
	t.Helper()
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	c := *sess
	c.Created, c.Updated = Times(sess)
	if all {
		c.Entries = sess.All
	}
	emb := embedded(sess.ID, c.Entries, files)
	var entries []session.Entry
	for i := range c.Entries {
		entries = append(entries, *emb.entry(c.Entries, i))
	}
	c.Entries = entries
	var data map[string][]byte
	for _, h := range emb.hashes {
		if b, ok := emb.read(h); ok {
			if data == nil {
				data = map[string][]byte{}
			}
			data[h] = b
		}
	}
	v := struct {
		*session.Session
		Head  string            `json:"head,omitempty"`
		Files map[string][]byte `json:"files,omitempty"`
	}{Session: &c, Files: data}
	if all {
		v.Head = sess.Head
	}
	if err := enc.Encode(v); err != nil {
		t.Fatal(err)
	}
	return escapeLS("json", buf.Bytes())
}

// The JSON export, written a field, an entry and a file at a time, is
// byte for byte what encoding/json writes of the whole session: with and
// without branches, files, a title, a fork, and with no entries at all.
func TestJSONExportIsWhatEncodingJSONWrites(t *testing.T) {
	s := newTestStore(t)
	sess := withAttachments(t, s)
	w, err := s.OpenWriter(sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	img, err := s.SaveImage(sess.ID, 1, 0, tinyPNG())
	if err != nil {
		t.Fatal(err)
	}
	w.Append(session.Entry{ID: "e3", Kind: session.KindImage, ImagePrompt: "a <fox> & \u2028 \x1b[31m", Images: []session.Image{{Index: 0, Path: img.Path, Width: 3, Height: 2}, {Index: 1, Error: "refused"}}})
	w.AppendAt(session.Entry{ID: "e4", Kind: session.KindUser, Text: "another way"}, "e1")
	w.SetTitle("Fox <&> \u2028")
	w.Close()
	full, err := s.Load(sess.ID)
	if err != nil {
		t.Fatal(err)
	}
	forked := *full
	forked.Title = ""
	forked.ForkedFrom = &session.Fork{ID: "20250301-090000-abcdef", Entry: "e1"}
	empty := &session.Session{ID: "20250301-090000-abcdef", Params: session.Params{Model: "m"}}
	for _, tc := range []struct {
		name  string
		sess  *session.Session
		files Files
	}{{"full", full, s}, {"without files", full, nil}, {"forked, untitled", &forked, s}, {"empty", empty, s}} {
		for _, all := range []bool{false, true} {
			var got bytes.Buffer
			exp := Export
			if all {
				exp = ExportBranches
			}
			if err := exp(tc.sess, "json", &got, escapeLS, tc.files); err != nil {
				t.Fatal(err)
			}
			if want := wholeJSON(t, tc.sess, tc.files, all); !bytes.Equal(got.Bytes(), want) {
				t.Errorf("%s, all %v: the export is\n%s\nwant\n%s", tc.name, all, got.Bytes(), want)
			}
		}
	}
}

// A CleanWriter hands its function whole lines, however the writes cut
// them: a rune cut between two writes is never cleaned in halves.
func TestCleanWriterNeverSplitsALine(t *testing.T) {
	text := strings.Repeat("héllo wörld \u2028 \x1b[31m red\n", 50) + "last, without a newline é"
	var calls [][]byte
	var out bytes.Buffer
	cw := NewCleanWriter(&out, func(data []byte) []byte {
		calls = append(calls, bytes.Clone(data))
		return escapeLS("md", data)
	})
	data := []byte(text)
	for i, n := 0, 1; i < len(data); i, n = i+n, n%7+1 {
		if _, err := cw.Write(data[i:min(i+n, len(data))]); err != nil {
			t.Fatal(err)
		}
	}
	if err := cw.Flush(); err != nil {
		t.Fatal(err)
	}
	if want := escapeLS("md", data); !bytes.Equal(out.Bytes(), want) {
		t.Errorf("wrote\n%q\nwant\n%q", out.Bytes(), want)
	}
	for i, c := range calls {
		if !utf8.Valid(c) || i < len(calls)-1 && !bytes.HasSuffix(c, []byte("\n")) {
			t.Errorf("call %d cleaned %q: not whole lines", i, c)
		}
	}
}
