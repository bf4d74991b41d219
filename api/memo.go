package api

import (
	"encoding/base64"
	"hash/maphash"
	"sync"
	"unsafe"
)

// A prompt's attachments are sent again with every turn, and each turn
// builds and checks its request more than once (the engine's check, the
// client's). An image's base64, and a PDF's pages, are kept for the next
// time rather than made again: at most memoBytes of base64 (the oldest
// dropped first), for attachments of at least memoMin bytes, keyed by a
// hash of the bytes and their length. (A PDF's base64 is never made
// whole: see Source.)
const (
	memoBytes = 96 << 20
	memoMin   = 256 << 10
)

var memo = struct {
	sync.Mutex
	seed    maphash.Seed
	encoded map[memoKey]string
	pages   map[memoKey]int
	order   []memoKey // of encoded, the oldest first
	size    int
}{seed: maphash.MakeSeed(), encoded: map[memoKey]string{}, pages: map[memoKey]int{}}

type memoKey struct {
	hash uint64
	n    int
}

// encodeBase64 returns the standard base64 of data, made once for a large
// data however often it is asked for.
func encodeBase64(data []byte) string {
	if len(data) < memoMin {
		return base64.StdEncoding.EncodeToString(data)
	}
	k := memoKey{maphash.Bytes(memo.seed, data), len(data)}
	memo.Lock()
	s, ok := memo.encoded[k]
	memo.Unlock()
	if ok {
		return s
	}
	s = encodeOnce(data)
	memo.Lock()
	defer memo.Unlock()
	if _, ok := memo.encoded[k]; !ok && len(s) <= memoBytes {
		memo.encoded[k] = s
		memo.order = append(memo.order, k)
		memo.size += len(s)
		for memo.size > memoBytes {
			old := memo.order[0]
			memo.order = memo.order[1:]
			memo.size -= len(memo.encoded[old])
			delete(memo.encoded, old)
		}
	}
	return s
}

// PagesOf returns the pages of the PDF whose base64 source is src (see
// PDFPages), or 0 when they cannot be told; a large PDF's are counted
// once.
func PagesOf(src *Source) int {
	if src.raw != nil {
		return src.pages
	}
	if len(src.Data) < memoMin {
		return pagesOf(src.Data)
	}
	return memoPages(memoKey{maphash.String(memo.seed, src.Data), len(src.Data)}, func() int { return pagesOf(src.Data) })
}

// memoPages returns the pages kept under k, counting them with count the
// first time; at most 1024 counts are kept.
func memoPages(k memoKey, count func() int) int {
	memo.Lock()
	n, ok := memo.pages[k]
	memo.Unlock()
	if ok {
		return n
	}
	n = count()
	memo.Lock()
	if len(memo.pages) >= 1024 {
		clear(memo.pages)
	}
	memo.pages[k] = n
	memo.Unlock()
	return n
}

// encodeOnce returns the standard base64 of data in a string that shares
// its bytes with the buffer it is encoded into: base64's EncodeToString
// copies the buffer into the string, a second allocation of it all. The
// buffer is never written again.
func encodeOnce(data []byte) string {
	buf := make([]byte, base64.StdEncoding.EncodedLen(len(data)))
	if len(buf) == 0 {
		return ""
	}
	base64.StdEncoding.Encode(buf, data)
	return unsafe.String(&buf[0], len(buf))
}

// pdfPagesOnce returns the pages of the PDF data (see PDFPages), counted
// once for a large PDF however often its block is made again.
func pdfPagesOnce(data []byte) int {
	if len(data) < memoMin {
		return PDFPages(data)
	}
	return memoPages(memoKey{maphash.Bytes(memo.seed, data), len(data)}, func() int { return PDFPages(data) })
}

// pagesOf counts the pages of the PDF whose base64 is s.
func pagesOf(s string) int {
	data, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return 0
	}
	return PDFPages(data)
}
