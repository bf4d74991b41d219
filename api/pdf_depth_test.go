package api

import (
	"bytes"
	"testing"
)

// A file of a million nested dictionaries keeps at most maxPDFDepth of
// them: the scan's memory does not grow with the nesting. Counted in bytes
// (about 32 KB; 300 MB when every dictionary was kept), not in
// allocations, which a growing stack makes only a few dozen of.
func TestPDFNestingIsBounded(t *testing.T) {
	deep := append([]byte("%PDF-1.7\n"), bytes.Repeat([]byte("<<"), 1_000_000)...)
	var s pdfScanner
	if n := leastAllocated(func() { s.scan(deep, true) }); n > 256<<10 {
		t.Errorf("%d bytes allocated for a million nested dictionaries", n)
	}
	if n := PDFPages(deep); n != 0 {
		t.Errorf("%d pages", n)
	}
}
