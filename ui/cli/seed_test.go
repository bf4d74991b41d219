package cli

import (
	"testing"

	"muse/session"
)

// seedSession writes a session with title and entries through its writer
// and returns its id.
func seedSession(t *testing.T, store *session.Store, p session.Params, title string, entries ...session.Entry) string {
	t.Helper()
	w := session.NewWriter(store, p)
	if title != "" {
		w.SetTitle(title)
	}
	if err := w.AppendAll(entries); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return w.ID()
}
