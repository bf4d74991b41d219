package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"muse/api/pdftest"
)

// -p with a PDF of more than 100 pages sends its first 100, which the demo
// server (which refuses a PDF of more) reads, and says so on standard
// error, as the chat screen says it on its status line.
func TestPrintLongPDFSendsTheFirst100Pages(t *testing.T) {
	path := filepath.Join(t.TempDir(), "book.pdf")
	if err := os.WriteFile(path, pdftest.Paged(120), 0o600); err != nil {
		t.Fatal(err)
	}
	r := runMain(t, nil, "", "--demo", "--attach", path, "-p", "what is this?")
	if r.code != 0 || !strings.Contains(r.stdout, "100 pages") {
		t.Fatalf("code %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
	if !strings.Contains(r.stderr, "muse: book.pdf (pages 1–100 of 120): sent pages 1–100 of 120") {
		t.Errorf("stderr %q", r.stderr)
	}
}
