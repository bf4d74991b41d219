package transcript

import (
	"bytes"
	"testing"

	"muse/api"
	"muse/session"
	"muse/ui/sanitize"
)

// Attachment names are kept through a fork (a branch of its own), a JSON
// export and its import, and a branch's export: two text files with the
// same bytes under two names stay two files, each sent under its own name
// as a plain-text document, never under its hash.
func TestAttachmentNamesKeptThroughForkExportAndImport(t *testing.T) {
	src := newTestStore(t)
	w := session.NewWriter(src, fullParams())
	var as []session.Attachment
	for _, name := range []string{"plan.md", "copy of plan.md"} {
		a, err := w.SaveAttachment(session.Attachment{Name: name, Kind: session.AttachText, MediaType: "text/plain", Document: true}, []byte("# Plan\n"))
		if err != nil {
			t.Fatal(err)
		}
		as = append(as, a)
	}
	w.Append(session.Entry{ID: "e1", Kind: session.KindUser, Text: "compare", Attachments: as})
	w.Append(session.Entry{ID: "e2", Kind: session.KindAssistant, Message: &api.Message{Role: "assistant", Content: []api.ContentBlock{{Type: api.BlockText, Text: "same"}}}})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	sess, err := src.Load(w.ID())
	if err != nil {
		t.Fatal(err)
	}
	check := func(how string, st *session.Store, s *session.Session) {
		t.Helper()
		msgs := session.History(s.Entries, func(a session.Attachment) ([]byte, error) { return st.ReadAttachment(s.ID, a) })
		bl := msgs[0].Blocks
		if len(bl) != 3 || bl[0].Type != api.BlockDocument || bl[0].Title != "plan.md" || bl[1].Title != "copy of plan.md" ||
			bl[1].Source.Data != "# Plan\n" {
			t.Errorf("%s: the prompt sends %+v", how, bl)
		}
	}
	check("the session", src, sess)
	fork, err := src.Fork(sess.ID, 0, "")
	if err != nil {
		t.Fatal(err)
	}
	check("a fork", src, fork)
	for _, exp := range []func(*session.Session, string, *bytes.Buffer) error{
		func(s *session.Session, f string, b *bytes.Buffer) error {
			return Export(s, f, b, sanitize.ForExport, src)
		},
		func(s *session.Session, f string, b *bytes.Buffer) error {
			return ExportBranches(s, f, b, sanitize.ForExport, src)
		},
	} {
		var b bytes.Buffer
		if err := exp(sess, "json", &b); err != nil {
			t.Fatal(err)
		}
		dst := newTestStore(t)
		got, err := Import(dst, &b)
		if err != nil {
			t.Fatal(err)
		}
		check("an import", dst, got)
	}
}
