// Package pdftest makes PDF files for tests: of given objects, or of any
// number of pages, with a cross-reference table, as real PDFs have.
package pdftest

import (
	"bytes"
	"fmt"
	"strings"
)

// File is a PDF whose objects are objs (numbered from 1), with a
// cross-reference table and a trailer whose root is object 1.
func File(objs ...string) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
	offsets := make([]int, len(objs))
	for i, o := range objs {
		offsets[i] = b.Len()
		fmt.Fprintf(&b, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, off := range offsets {
		fmt.Fprintf(&b, "%010d 00000 n \n", off)
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, xref)
	return b.Bytes()
}

// Paged is a PDF of n pages in one flat page tree. Each page's content is
// a stream holding what looks like a dictionary (and a parenthesis, escaped
// in a string), so that a page counter must skip streams to count right.
func Paged(n int) []byte {
	const content = `BT (<< /Type /Pages >> \() Tj ET`
	objs := []string{"<< /Type /Catalog /Pages 2 0 R >>", ""}
	var kids []string
	for i := range n {
		kids = append(kids, fmt.Sprintf("%d 0 R", 3+2*i))
		objs = append(objs,
			fmt.Sprintf("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents %d 0 R /Resources << /Font << >> >> >>", 4+2*i),
			fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content))
	}
	objs[1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), n)
	return File(objs...)
}
