package transcript

import (
	"bytes"
	"encoding/json"
	"io"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"muse/session"
	"muse/session/sessiontest"
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

// exportPeak returns the largest live heap, over what was live before, of
// exporting sess in format (see sessiontest.PeakLive). A collection counts
// what is allocated while it runs as live: with the session in the heap,
// collecting at every 2% of growth keeps that under 2% of it.
func exportPeak(t *testing.T, sess *session.Session, format string) uint64 {
	t.Helper()
	return sessiontest.PeakLive(2, func() {
		if err := Export(sess, format, io.Discard, escapeLS, nil); err != nil {
			t.Fatal(err)
		}
	})
}

// An export is written as it is made: beyond the session, which the
// caller holds, the largest live heap while a session of 8 MiB is
// exported, as JSON or Markdown, is under half of it, and grows by less
// than half of what the session grows from 2 MiB (what a collection
// counts live of what is allocated while it runs is about 2 MiB).
// Encoding the whole export, then cleaning it, held it twice over.
func TestExportHoldsAnEntryNotTheSession(t *testing.T) {
	s := newTestStore(t)
	load := func(size int) *session.Session {
		saved, err := Save(s, bytes.NewReader(bigExport(size)), false)
		if err != nil {
			t.Fatal(err)
		}
		sess, err := s.Load(saved.ID)
		if err != nil {
			t.Fatal(err)
		}
		return sess
	}
	const sizeSmall, sizeLarge = 2 << 20, 8 << 20
	small, large := load(sizeSmall), load(sizeLarge)
	for _, format := range []string{"json", "md"} {
		ps, pl := exportPeak(t, small, format), exportPeak(t, large, format)
		t.Logf("%s: peak live heap over the session: %.2f MiB for 2 MiB, %.2f MiB for 8 MiB", format, float64(ps)/(1<<20), float64(pl)/(1<<20))
		if pl > sizeLarge/2 || pl > ps+(sizeLarge-sizeSmall)/2 {
			t.Errorf("%s: exporting took %d KiB for a session of 8 MiB, %d KiB for 2 MiB: it holds the export", format, pl>>10, ps>>10)
		}
	}
	runtime.KeepAlive(small)
	runtime.KeepAlive(large)
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
