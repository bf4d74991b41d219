package transcript

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"muse/session"
	"muse/session/sessiontest"
)

// readExport reads and checks an export, whole.
func readExport(r io.Reader) (*session.Imported, error) {
	var ex *session.Imported
	t := target{
		entry: func(e session.Entry) error {
			ex.Entries = append(ex.Entries, e)
			return nil
		},
		file: func(hash string, data []byte) error {
			if ex.Files == nil {
				ex.Files = map[string][]byte{}
			}
			ex.Files[hash] = data
			return nil
		},
		params:     func(session.Params) {},
		endEntries: func() {},
	}
	return read(r, &t, &ex)
}

// An import reads its export as a stream: beyond the entries it keeps,
// the heap it takes is about the size of an entry, not of the file. A
// 16 MiB export of 4 KiB entries is read whole, with
// a garbage collection every 10% of growth; the largest live heap of any
// of them, less what the import keeps (measured once it returns), must
// stay under a quarter of the file in the best of three runs. Reading the
// whole file first took the file's size beyond it.
func TestImportMemoryIsNotTheFileSize(t *testing.T) {
	text := strings.Repeat("All work and no play makes Jack a dull boy. ", 90) // ~4 KiB
	var b bytes.Buffer
	b.WriteString("{\n  \"id\": \"20250301-090000-abcdef\",\n  \"title\": \"big\",\n  \"params\": {\"model\": \"m\", \"max_tokens\": 1024},\n  \"entries\": [")
	for i := 0; b.Len() < 16<<20; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, "\n    {\n      \"id\": \"e%d\",\n      \"kind\": \"user\",\n      \"time\": \"2025-03-01T09:00:00Z\",\n      \"text\": %q\n    }", i, text)
	}
	b.WriteString("\n  ]\n}\n")
	data := b.Bytes()
	size := uint64(len(data))

	// The fewest of three runs: another goroutine's garbage counts too.
	defer debug.SetGCPercent(debug.SetGCPercent(10))
	over, entries, kept := int64(1<<62), 0, uint64(0)
	for range 3 {
		runtime.GC()
		base := sessiontest.LiveHeap()
		var p sessiontest.Sampler
		p.Start()
		ex, err := readExport(bytes.NewReader(data))
		peak := p.Stop()
		if err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		k := sessiontest.LiveHeap()
		runtime.KeepAlive(ex)
		runtime.KeepAlive(data) // in the peak, and in what is kept
		// No collection may have run at the peak: it was at least k.
		over, entries, kept = min(over, int64(max(peak, k))-int64(k)), len(ex.Entries), k-base
	}
	t.Logf("file %d MiB, %d entries: kept %.1f MiB, peak %.1f MiB over what is kept", size>>20, entries, float64(kept)/(1<<20), float64(over)/(1<<20))
	if over > int64(size/4) {
		t.Errorf("the import's peak heap was %d MiB over what it keeps, for a file of %d MiB: it holds the file", over>>20, size>>20)
	}
}

// An error far into a large export names its line and column, though the
// bytes before it were dropped as they were read.
func TestImportErrorFarIntoTheFile(t *testing.T) {
	var b bytes.Buffer
	b.WriteString("{\"id\": \"20250301-090000-abcdef\", \"entries\": [")
	entries := 0
	for ; b.Len() < 1<<20; entries++ {
		fmt.Fprintf(&b, "\n  {\"id\": \"e%d\", \"kind\": \"user\",\n   \"text\": \"é… %d\"},", entries, entries)
	}
	b.WriteString("\n  {\"id\": \"last\", \"kind\": \"user\", \"text\": \"é\" x}]}")
	// where returns "line L, column C: " of the first byte of what in data.
	where := func(data []byte, what string) string {
		off := bytes.Index(data, []byte(what))
		nl := bytes.LastIndexByte(data[:off], '\n')
		return fmt.Sprintf("line %d, column %d: ", 1+bytes.Count(data[:off], []byte("\n")), 1+utf8.RuneCount(data[nl+1:off]))
	}
	bad := b.Bytes()
	unknown := bytes.Replace(bad, []byte(`"é" x}`), []byte(`"é", "bogus": 1}`), 1)
	for _, tc := range []struct {
		data []byte
		want string
	}{
		{bad, where(bad, "x}]}") + "not valid JSON: invalid character 'x' after object key:value pair"},
		{unknown, where(unknown, `"bogus"`) + "entry " + strconv.Itoa(entries+1) + ": unknown field \"bogus\""},
	} {
		_, err := readExport(bytes.NewReader(tc.data))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("error %v, want %q", err, tc.want)
		}
	}
}
