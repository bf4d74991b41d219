//go:build !race

package transcript

import (
	"io"
	"strings"
	"testing"

	"muse/session"
	"muse/session/sessiontest"
)

// oneEntry is an export of one user entry (or, with reply set, a prompt
// and a reply) whose text takes size bytes of the input, made as it is
// read: lines of prose, each ending in an escaped newline. With file set,
// it is an export of a prompt and a file of size bytes of base64 instead.
// read counts the bytes read.
type oneEntry struct {
	size, read  int64
	reply, file bool
	at          int64 // of head + text + tail
}

const (
	oneEntryHead = `{"id": "20250301-090000-abcdef", "title": "big", "params": {"model": "m", "max_tokens": 1024}, "entries": [{"id": "e1", "kind": "user", "time": "2025-03-01T09:00:00Z", "text": "`
	oneEntryTail = `"}]}` + "\n"
	oneReplyHead = `{"id": "20250301-090000-abcdef", "entries": [{"id": "e1", "kind": "user", "text": "hi"}, {"id": "e2", "parent": "e1", "kind": "assistant", "message": {"role": "assistant", "content": [{"type": "text", "text": "`
	oneReplyTail = `"}]}}]}` + "\n"
	oneFileHead  = `{"id": "20250301-090000-abcdef", "entries": [{"id": "e1", "kind": "user", "text": "hi"}], "files": {"3a1b": "`
	oneFileTail  = `"}}` + "\n"
)

// oneFileLine is what a file repeats: the base64 of "AAA".
var oneFileLine = strings.Repeat("QUFB", 256)

// oneEntryLine is what the text repeats: 1 KiB, 1023 bytes when decoded.
var oneEntryLine = strings.Repeat("All work and no play makes Jack a dull boy. ", 24)[:1022] + `\n`

func (r *oneEntry) Read(p []byte) (int, error) {
	headText, tailText := oneEntryHead, oneEntryTail
	line := oneEntryLine
	switch {
	case r.reply:
		headText, tailText = oneReplyHead, oneReplyTail
	case r.file:
		headText, tailText, line = oneFileHead, oneFileTail, oneFileLine
	}
	head, text := int64(len(headText)), r.size
	n := 0
	for n < len(p) {
		var part string
		var off int64
		switch at := r.at; {
		case at < head:
			part, off = headText, at
		case at < head+text:
			// Whole lines, and the last one cut where the text ends: the
			// sizes used cut no escape in two.
			i := (at - head) % int64(len(line))
			part, off = line[:min(int64(len(line)), i+head+text-at)], i
		case at < head+text+int64(len(tailText)):
			part, off = tailText, at-head-text
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

// saveRefused saves the export ex, as made, and returns how much of it was
// read, the largest live heap of saving it (see sessiontest.PeakLive), and
// the error.
func saveRefused(s *session.Store, ex oneEntry) (read int64, peak uint64, err error) {
	peak = sessiontest.PeakLive(10, func() {
		r := ex
		_, err = Save(s, &r, false)
		read = r.read
	})
	return read, peak, err
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
	read, peak, err := saveRefused(s, oneEntry{size: size})
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
// largest live heap of saving an export of one 12 MiB prompt, of one
// 48 MiB prompt, and of a 24 MiB reply, stays under three and a half times
// the text: the bytes read, and the text decoded from them (by
// encoding/json, which unescapes it into a buffer it then copies), then
// the text and its record. Decoding it through a json.Decoder of its own
// and encoding it with encoding/json took thirteen times.
func TestImportEntryCostIsAFewTimesItsSize(t *testing.T) {
	for _, tc := range []oneEntry{{size: 12 << 20}, {size: 48 << 20}, {size: 24 << 20, reply: true}} {
		s := newTestStore(t)
		peak := sessiontest.PeakLive(10, func() {
			r := tc
			saved, err := Save(s, &r, false)
			if err != nil || saved.Entries != 1+btoi(tc.reply) {
				t.Fatalf("saved %+v: %v", saved, err)
			}
		})
		ratio := float64(peak) / float64(tc.size)
		t.Logf("a %d MiB entry (reply %v): peak live heap %.1f MiB over the base, %.2f times the entry", tc.size>>20, tc.reply, float64(peak)/(1<<20), ratio)
		if ratio > 3.5 {
			t.Errorf("importing a %d MiB entry (reply %v) took %.1f times its size", tc.size>>20, tc.reply, ratio)
		}
	}
}

func btoi(b bool) int {
	if b {
		return 1
	}
	return 0
}

// An entry that fits the limit but whose record, with the time and the
// machine that wrote it, would not is refused as it is saved, with an
// error that names it and says what to do, and nothing is left.
func TestImportRefusesARecordTooLargeNamingItsEntry(t *testing.T) {
	s := newTestStore(t)
	_, err := Save(s, &oneEntry{size: session.MaxRecord - 120}, false)
	if err == nil || !strings.Contains(err.Error(), `entry "e1": `) || !strings.Contains(err.Error(), "shorten it, or take it out of the export") {
		t.Fatalf("error %v, want one that names entry e1 and says what to do", err)
	}
	if left := leftovers(t, s); len(left) != 0 {
		t.Errorf("the refused import left %q", left)
	}
}

// A file of an export larger than any muse keeps is refused as it is read,
// as an entry is: a file of 200 MB of base64 is refused with an error that
// names it, having read little more than the most a file may take, with
// nothing left and the largest live heap under half the file; a 48 MiB
// one is read at about twice its size. Decoding it whole ran out of
// memory under a 4 GB limit at 300 MB.
func TestImportRefusesAFileTooLargeAsItIsRead(t *testing.T) {
	const size = 200_000_000
	s := newTestStore(t)
	read, peak, err := saveRefused(s, oneEntry{size: size, file: true})
	t.Logf("a %d MB file: refused after reading %d MiB, peak live heap %.1f MiB over the base", size/1_000_000, read>>20, float64(peak)/(1<<20))
	if err == nil || !strings.Contains(err.Error(), `the attachments' files: "3a1b" is larger than the 64 MiB muse keeps of a file: take it out of the export`) {
		t.Fatalf("error %v, want one that names the file and says what to do", err)
	}
	if left := leftovers(t, s); len(left) != 0 {
		t.Errorf("the refused import left %q", left)
	}
	if read > maxFileInput+maxFileInput/8 {
		t.Errorf("read %d MiB of the export before refusing its file", read>>20)
	}
	if peak > size/2 {
		t.Errorf("refusing a %d MB file took %d MiB of heap", size/1_000_000, peak>>20)
	}
	const ok = 48 << 20
	peak = sessiontest.PeakLive(10, func() {
		if _, err := Save(s, &oneEntry{size: ok, file: true}, false); err != nil {
			t.Fatal(err)
		}
	})
	t.Logf("a %d MiB file: peak live heap %.1f MiB over the base", ok>>20, float64(peak)/(1<<20))
	if peak > ok*5/2 {
		t.Errorf("reading a %d MiB file took %d MiB of heap", ok>>20, peak>>20)
	}
}
