//go:build !race

package transcript

import (
	"io"
	"strings"
	"testing"

	"muse/session"
	"muse/session/sessiontest"
)

// oneEntry is an export of one user entry whose text takes size bytes of
// the input, made as it is read: lines of prose, each ending in an escaped
// newline. read counts the bytes read.
type oneEntry struct {
	size, read int64
	at         int64 // of head + text + tail
}

const (
	oneEntryHead = `{"id": "20250301-090000-abcdef", "title": "big", "params": {"model": "m", "max_tokens": 1024}, "entries": [{"id": "e1", "kind": "user", "time": "2025-03-01T09:00:00Z", "text": "`
	oneEntryTail = `"}]}` + "\n"
)

// oneEntryLine is what the text repeats: 1 KiB, 1023 bytes when decoded.
var oneEntryLine = strings.Repeat("All work and no play makes Jack a dull boy. ", 24)[:1022] + `\n`

func (r *oneEntry) Read(p []byte) (int, error) {
	head, text := int64(len(oneEntryHead)), r.size
	n := 0
	for n < len(p) {
		var part string
		var off int64
		switch at := r.at; {
		case at < head:
			part, off = oneEntryHead, at
		case at < head+text:
			// Whole lines, and the last one cut where the text ends: the
			// sizes used cut no escape in two.
			i := (at - head) % int64(len(oneEntryLine))
			part, off = oneEntryLine[:min(int64(len(oneEntryLine)), i+head+text-at)], i
		case at < head+text+int64(len(oneEntryTail)):
			part, off = oneEntryTail, at-head-text
		default:
			r.read += int64(n)
			if n == 0 {
				return 0, io.EOF
			}
			return n, nil
		}
		c := copy(p[n:], part[off:])
		n += c
		r.at += int64(c)
	}
	r.read += int64(n)
	return n, nil
}

// An export whose one entry is larger than a journal's record may be is
// refused as that entry is read, not once it is decoded and encoded
// again: a 150 MB text is refused with an error that names the entry and
// the limit, having read little more than the limit of it, nothing is
// left in the store, and the largest live heap stays under half the text
// (the fewest of three runs, see sessiontest.PeakLive). Decoding it whole
// took twelve times the text, and ran out of memory.
func TestImportRefusesAnEntryTooLargeAsItIsRead(t *testing.T) {
	const size = 150_000_000
	s := newTestStore(t)
	var err error
	var read int64
	peak := sessiontest.PeakLive(10, func() {
		r := &oneEntry{size: size}
		_, err = Save(s, r, false)
		read = r.read
	})
	t.Logf("a %d MB entry: refused after reading %d MiB, peak live heap %.1f MiB over the base", size/1_000_000, read>>20, float64(peak)/(1<<20))
	if err == nil || !strings.Contains(err.Error(), "entry 1 is larger than the 64 MiB a record of a session may hold: shorten its text, or take it out of the export") || !strings.Contains(err.Error(), "line 1, column ") {
		t.Fatalf("error %v, want one that says entry 1 is too large, where it is, and what to do", err)
	}
	if left := leftovers(t, s); len(left) != 0 {
		t.Errorf("the refused import left %q", left)
	}
	if read > session.MaxRecord+session.MaxRecord/8 {
		t.Errorf("read %d MiB of the export before refusing its entry: the limit is %d MiB", read>>20, session.MaxRecord>>20)
	}
	if peak > size/2 {
		t.Errorf("refusing a %d MB entry took %d MiB of heap: it holds more than the limit", size/1_000_000, peak>>20)
	}
}

// Importing an entry takes a few times its size, whatever the size: the
// largest live heap of saving an export of one 12 MiB entry, then of one
// 48 MiB entry, stays under three and a half times the text (the bytes
// read, the decoded text, its record, and what grows while they do).
// Decoding it through a json.Decoder of its own and encoding it with
// encoding/json took thirteen times.
func TestImportEntryCostIsAFewTimesItsSize(t *testing.T) {
	for _, size := range []int64{12 << 20, 48 << 20} {
		s := newTestStore(t)
		peak := sessiontest.PeakLive(10, func() {
			saved, err := Save(s, &oneEntry{size: size}, false)
			if err != nil || saved.Entries != 1 {
				t.Fatalf("saved %+v: %v", saved, err)
			}
		})
		ratio := float64(peak) / float64(size)
		t.Logf("a %d MiB entry: peak live heap %.1f MiB over the base, %.2f times the entry", size>>20, float64(peak)/(1<<20), ratio)
		if ratio > 3.5 {
			t.Errorf("importing a %d MiB entry took %.1f times its size", size>>20, ratio)
		}
	}
}
