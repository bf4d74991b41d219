package index

import (
	"strings"
	"testing"
)

// packTexts keeps every text whole, a chunk at least chunkSize long but
// for the last, so that a session costs one chunk per chunkSize of text.
func TestPackTexts(t *testing.T) {
	var rows []row
	total := 0
	for i := range 300 {
		text := strings.Repeat(vocabulary[i%len(vocabulary)]+" ", i%50)
		if i == 7 {
			text = strings.Repeat("long ", 2*chunkSize/5) // larger than a chunk
		}
		rows = append(rows, row{text: text})
		total += len(text)
	}
	chunks, places := packTexts(rows)
	if max := total/chunkSize + 1; len(chunks) > max {
		t.Errorf("%d bytes of text in %d chunks, want at most %d", total, len(chunks), max)
	}
	inflated := make([][]byte, len(chunks))
	for i, c := range chunks {
		var err error
		if inflated[i], err = inflate(c, 4*chunkSize); err != nil {
			t.Fatal(err)
		}
		if i < len(chunks)-1 && len(inflated[i]) < chunkSize {
			t.Errorf("chunk %d holds %d bytes, less than %d", i, len(inflated[i]), chunkSize)
		}
	}
	for i, r := range rows {
		p := places[i]
		if got := string(inflated[p.chunk][p.off : p.off+p.len]); got != r.text {
			t.Fatalf("row %d: text %.40q..., want %.40q...", i, got, r.text)
		}
	}
}
