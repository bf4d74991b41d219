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
// same bytes under two names stay two files, each recorded under its own
// name as a plain-text document (which the engine sends titled with it),
// never under its hash.
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
		as := s.Entries[0].Attachments
		if len(as) != 2 || as[0].Name != "plan.md" || as[1].Name != "copy of plan.md" || !as[0].Document || !as[1].Document {
			t.Fatalf("%s: the prompt records %+v", how, as)
		}
		for _, a := range as {
			if data, err := st.ReadAttachment(s.ID, a); err != nil || string(data) != "# Plan\n" {
				t.Errorf("%s: %s reads back as %q, %v", how, a.Name, data, err)
			}
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
