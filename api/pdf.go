package api

import (
	"bytes"
	"compress/zlib"
	"io"
	"strconv"
	"strings"
)

// maxInflated bounds the bytes of compressed object streams PDFPages
// inflates in one PDF.
const maxInflated = 64 << 20

// PDFPages returns how many pages the PDF data has, or 0 when it cannot
// tell. It reads the dictionaries of the file, and of its compressed
// object streams (where PDF 1.5 and later keep them): the largest /Count
// of a /Type /Pages dictionary (the root of the page tree) or, when there
// is none, the number of /Type /Page dictionaries.
func PDFPages(data []byte) int {
	s := pdfScanner{inflateLeft: maxInflated}
	s.scan(data, true)
	if s.count > 0 {
		return s.count
	}
	return s.pages
}

// pdfScanner gathers what PDFPages needs from the dictionaries it reads.
type pdfScanner struct {
	count       int // largest /Count of a /Type /Pages dictionary
	pages       int // /Type /Page dictionaries
	inflateLeft int // bytes object streams may still inflate to
}

// maxPDFDepth bounds the dictionaries the scanner keeps open: a page's
// dictionary is a few levels deep, and a file of millions of nested "<<"
// must not take memory in proportion (one of 22 MB took 2.1 GB).
const maxPDFDepth = 256

// pdfDict is what the scanner keeps of a dictionary being read.
type pdfDict struct {
	typ, filter string
	count       int
	key         string // the name last read, when its value may follow
}

// scan reads the tokens of data: dictionaries, names, numbers, strings
// and streams. A stream is skipped, or, when it is a compressed object
// stream of the file itself (top), inflated and read too.
func (s *pdfScanner) scan(data []byte, top bool) {
	var stack []pdfDict
	deeper := 0        // dictionaries open past maxPDFDepth, counted, not kept
	var closed pdfDict // the last top-level dictionary read: a stream's
	i := 0
	for i < len(data) {
		c := data[i]
		switch {
		case c == '%':
			i = skipPDFLine(data, i)
		case c == '(':
			i = skipPDFString(data, i)
		case c == '<' && i+1 < len(data) && data[i+1] == '<':
			if len(stack) < maxPDFDepth {
				stack = append(stack, pdfDict{})
			} else {
				deeper++
			}
			i += 2
		case c == '<':
			i = skipPDFPast(data, i, '>')
		case c == '>' && i+1 < len(data) && data[i+1] == '>':
			i += 2
			if deeper > 0 {
				deeper--
				continue
			}
			if len(stack) == 0 {
				continue
			}
			d := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			switch d.typ {
			case "Pages":
				s.count = max(s.count, d.count)
			case "Page":
				s.pages++
			}
			if len(stack) == 0 {
				closed = d
			}
		case c == '/':
			start := i + 1
			i = tokenEnd(data, start)
			if len(stack) > 0 {
				d := &stack[len(stack)-1]
				name := string(data[start:i])
				switch d.key {
				case "Type":
					d.typ, d.key = name, ""
				case "Filter":
					d.filter, d.key = name, ""
				default:
					d.key = name
				}
			}
		case isPDFNumber(c):
			start := i
			i = tokenEnd(data, i+1)
			if len(stack) > 0 {
				d := &stack[len(stack)-1]
				if d.key == "Count" {
					d.count, _ = strconv.Atoi(string(data[start:i]))
				}
				d.key = ""
			}
		case isPDFSpace(c):
			i++
		case isPDFDelimiter(c):
			i++
			if len(stack) > 0 {
				stack[len(stack)-1].key = ""
			}
		default:
			start := i
			i = tokenEnd(data, i)
			if len(stack) > 0 {
				stack[len(stack)-1].key = ""
			}
			if string(data[start:i]) == "stream" && len(stack) == 0 {
				i = s.stream(data, i, closed, top)
				closed = pdfDict{}
			}
		}
	}
}

// stream reads the stream whose keyword ends at i and whose dictionary
// is dict, and returns where it ends.
func (s *pdfScanner) stream(data []byte, i int, dict pdfDict, top bool) int {
	if i < len(data) && data[i] == '\r' {
		i++
	}
	if i < len(data) && data[i] == '\n' {
		i++
	}
	end := bytes.Index(data[i:], []byte("endstream"))
	if end < 0 {
		end = len(data) - i
	}
	if top && dict.typ == "ObjStm" && dict.filter == "FlateDecode" && s.inflateLeft > 0 {
		if zr, err := zlib.NewReader(bytes.NewReader(data[i : i+end])); err == nil {
			inflated, _ := io.ReadAll(io.LimitReader(zr, int64(s.inflateLeft)))
			s.inflateLeft -= len(inflated)
			s.scan(inflated, false)
		}
	}
	return i + end + len("endstream")
}

// skipPDFLine returns where the line holding i ends.
func skipPDFLine(data []byte, i int) int {
	for i < len(data) && data[i] != '\n' && data[i] != '\r' {
		i++
	}
	return i
}

// skipPDFString returns where the literal string opening at i ends: after
// its balanced closing parenthesis, escapes left aside.
func skipPDFString(data []byte, i int) int {
	depth := 0
	for ; i < len(data); i++ {
		switch data[i] {
		case '\\':
			i++
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return i + 1
			}
		}
	}
	return i
}

// skipPDFPast returns where the first c after i ends.
func skipPDFPast(data []byte, i int, c byte) int {
	if j := bytes.IndexByte(data[i+1:], c); j >= 0 {
		return i + 1 + j + 1
	}
	return len(data)
}

// tokenEnd returns where the regular characters from i end.
func tokenEnd(data []byte, i int) int {
	for i < len(data) && !isPDFSpace(data[i]) && !isPDFDelimiter(data[i]) {
		i++
	}
	return i
}

func isPDFSpace(c byte) bool {
	return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == 0
}

func isPDFDelimiter(c byte) bool { return strings.IndexByte("()<>[]{}/%", c) >= 0 }

func isPDFNumber(c byte) bool { return c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.' }
