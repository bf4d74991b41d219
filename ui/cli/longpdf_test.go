package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"muse/api/pdftest"
)

// -p with a PDF of more than 100 pages, which no request can carry,
// refuses it before sending anything, saying what to do.
func TestPrintLongPDFRefused(t *testing.T) {
	path := filepath.Join(t.TempDir(), "book.pdf")
	if err := os.WriteFile(path, pdftest.Paged(120), 0o600); err != nil {
		t.Fatal(err)
	}
	r := runMain(t, nil, "", "--demo", "--attach", path, "-p", "what is this?")
	if r.code == 0 || !strings.Contains(r.stderr, "a PDF of 120 pages is over the 100 a request carries") ||
		!strings.Contains(r.stderr, "save the pages you need") {
		t.Fatalf("code %d stdout %q stderr %q", r.code, r.stdout, r.stderr)
	}
}
