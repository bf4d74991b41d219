package cli

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"muse/api"
	"muse/session"
)

// A kill while a large attachment is stored leaves most of it in a
// temporary file beside the attachments: muse -c removes it, and keeps the
// attachments that were stored.
func TestResumeRemovesAttachmentTemps(t *testing.T) {
	data := t.TempDir()
	store, err := session.Open(filepath.Join(data, "muse", "sessions"))
	if err != nil {
		t.Fatal(err)
	}
	id := seedSession(t, store, session.Params{Model: "demo-chat", MaxTokens: 4096}, "",
		session.Entry{ID: "e1", Kind: session.KindUser, Text: "first"},
		session.Entry{ID: "e2", Kind: session.KindAssistant, Message: &api.Message{Content: []api.ContentBlock{{Type: "text", Text: "first answer"}}}})
	dir := store.AttachmentDir(id)
	hash := strings.Repeat("0f", 32)
	os.MkdirAll(dir, 0o700)
	temp := filepath.Join(dir, "."+hash+".pdf.31337.tmp")
	kept := filepath.Join(dir, hash+".pdf")
	for _, p := range []string{temp, kept} {
		if err := os.WriteFile(p, bytes.Repeat([]byte("%"), 6<<20), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	r := runMain(t, map[string]string{"XDG_DATA_HOME": data}, "", "--demo", "-c", "-p", "hi")
	if r.code != 0 {
		t.Fatalf("muse -c: %+v", r)
	}
	if _, err := os.Stat(temp); !os.IsNotExist(err) {
		t.Errorf("the temporary file is still there after muse -c: %v", err)
	}
	if _, err := os.Stat(kept); err != nil {
		t.Errorf("a stored attachment went: %v", err)
	}
}
