package api

import (
	"bytes"
	"testing"
)

// A file of a million nested dictionaries keeps at most maxPDFDepth of
// them: the scan's memory does not grow with the nesting.
func TestPDFNestingIsBounded(t *testing.T) {
	deep := append([]byte("%PDF-1.7\n"), bytes.Repeat([]byte("<<"), 1_000_000)...)
	var s pdfScanner
	allocs := testing.AllocsPerRun(1, func() { s.scan(deep, true) })
	if allocs > 64 {
		t.Errorf("%.0f allocations for a million nested dictionaries", allocs)
	}
	if n := PDFPages(deep); n != 0 {
		t.Errorf("%d pages", n)
	}
}
