//go:build linux

package e2e

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// paddedPDF is a PDF of 10 pages padded with a stream to about size bytes.
func paddedPDF(size int) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n2 0 obj\n<< /Type /Pages /Count 10 >>\nendobj\n")
	pad := size - b.Len() - 64
	fmt.Fprintf(&b, "3 0 obj\n<< /Length %d >>\nstream\n", pad)
	b.Write(bytes.Repeat([]byte("abcdefghijklmnopqrstuvwxyz"), pad/26+1)[:pad])
	b.WriteString("\nendstream\nendobj\n%%EOF\n")
	return b.Bytes()
}

// TestRefusedRequestKeepsPromptAndFiles sends, in a real terminal, a
// prompt with two PDFs of 20 MB each, whose request would be over the
// service's 32 MB: the engine refuses it before anything is written, the
// screen says why, the prompt is back in the input and the files wait
// above it, and nothing was saved.
func TestRefusedRequestKeepsPromptAndFiles(t *testing.T) {
	t.Parallel()
	h := newHome(t, "")
	for _, name := range []string{"a.pdf", "b.pdf"} {
		if err := os.WriteFile(filepath.Join(h.dir, name), paddedPDF(20<<20), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	tm := start(t, h, 200, 30, "--demo")
	tm.waitFor("Ask anything")
	tm.typ("/attach " + filepath.Join(h.dir, "a.pdf") + "\r")
	tm.waitFor("[1] a.pdf")
	tm.typ("/attach " + filepath.Join(h.dir, "b.pdf") + "\r")
	tm.waitFor("[2] b.pdf")
	tm.typ("compare them\r")
	tm.waitFor("this request would be")
	screen := tm.screen()
	for _, want := range []string{"› compare them", "[1] a.pdf", "[2] b.pdf"} {
		if !strings.Contains(screen, want) {
			t.Errorf("the screen lacks %q:\n%s", want, screen)
		}
	}
	tm.typ("\x03") // clear the input
	tm.waitFor("Ask anything")
	tm.typ("\x04") // ctrl+d on an empty input quits
	if code := tm.waitExit(); code != 0 {
		t.Fatalf("muse exited with status %d", code)
	}
	journals, err := filepath.Glob(filepath.Join(h.sessionsDir(), "*.jsonl"))
	if err != nil || len(journals) != 0 {
		t.Errorf("a refused prompt was saved: %q, %v", journals, err)
	}
}
