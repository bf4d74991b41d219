package index

import (
	"math"
	"strings"
	"testing"
	"time"

	"muse/session"
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
		if p.off >= chunkSize {
			t.Fatalf("row %d starts at %d of its chunk, past %d: search would not read it", i, p.off, chunkSize)
		}
		if got := string(inflated[p.chunk][p.off : p.off+p.len]); got != r.text {
			t.Fatalf("row %d: text %.40q..., want %.40q...", i, got, r.text)
		}
	}
}

// An image prompt is a turn of its own, and a hit on it says "image";
// the parts of an entry are told apart in its snippet; a time outside
// what nanoseconds hold stays at the nearest end instead of wrapping.
func TestImageTurnsAndTimes(t *testing.T) {
	far := time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC)
	sess := &session.Session{All: []session.Entry{
		{ID: "e1", Kind: session.KindImage, ImagePrompt: "a zebra", Images: []session.Image{{RevisedPrompt: "a zebra on a beach"}}, Time: far},
		{ID: "e2", Parent: "e1", Kind: session.KindUser, Text: "and now?"},
		{ID: "e3", Parent: "e2", Kind: session.KindImage, ImagePrompt: "a lighthouse"},
	}}
	sess.Entries = sess.All
	rows := rowsOf(sess)
	for i, want := range []int{1, 2, 3} {
		if rows[i].turn != want {
			t.Errorf("entry %d: turn %d, want %d", i+1, rows[i].turn, want)
		}
	}
	if rows[0].time != math.MaxInt64 || nanos(time.Date(1, 1, 1, 0, 0, 0, 0, time.UTC)) != math.MinInt64 {
		t.Errorf("far times: %d", rows[0].time)
	}
	p, _ := parseQuery("zebra")
	var got strings.Builder
	for _, part := range snippet(rows[0].text, p) {
		got.WriteString(part.Text)
	}
	if got.String() != "a zebra · a zebra on a beach" {
		t.Errorf("snippet %q", got.String())
	}
	if l := (Hit{Kind: session.KindImage, Role: RoleUser}).Label(); l != "image" {
		t.Errorf("label %q", l)
	}
}
