package index

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"muse/session"
)

// BenchmarkAppendWithUpdater is the cost of one synced append with an
// Updater listening, to compare with BenchmarkAppendAlone: what the index
// adds to the writer's path.
func BenchmarkAppendWithUpdater(b *testing.B) {
	store, _ := session.Open(b.TempDir())
	u := NewUpdater(NewShared(store), time.Hour)
	defer u.Close()
	benchAppend(b, store)
}

// BenchmarkAppendAlone is one synced append with no index.
func BenchmarkAppendAlone(b *testing.B) {
	store, _ := session.Open(b.TempDir())
	benchAppend(b, store)
}

func benchAppend(b *testing.B, store *session.Store) {
	w := session.NewWriter(store, session.Params{})
	defer w.Close()
	for b.Loop() {
		if _, err := w.Append(session.Entry{Kind: session.KindUser, Text: "a prompt of a few words"}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkChanged is what the writer's path pays the Updater per write.
func BenchmarkChanged(b *testing.B) {
	store, _ := session.Open(b.TempDir())
	u := NewUpdater(NewShared(store), time.Hour)
	defer u.Close()
	for b.Loop() {
		u.changed("20250101-000000-abcdef")
	}
}

// BenchmarkSearchStem and BenchmarkSearchExact are a search of whale
// over 40,000 entries, with stemming (whale, whales or whaling: 1,000
// entries) and without (334): what the stemming adds, the forms looked up
// among the index's words, and three words matched and ranked for one;
// the best 50 shown, with their snippets.
func BenchmarkSearchStem(b *testing.B)  { benchSearch(b, true) }
func BenchmarkSearchExact(b *testing.B) { benchSearch(b, false) }

func benchSearch(b *testing.B, stem bool) {
	store, err := session.Open(filepath.Join(b.TempDir(), "sessions"))
	if err != nil {
		b.Fatal(err)
	}
	filler := []string{"ship", "sails", "sailing", "harbour", "captain", "storms", "running", "runner", "runs", "whalebone"}
	forms := []string{"whale", "whales", "whaling"}
	for i := range 400 {
		id := fmt.Sprintf("20250301-090000-%016x", i)
		journal := `{"v":2,"type":"header","time":"2025-03-01T09:00:00Z","id":"` + id + `","params":{"model":"m"}}` + "\n"
		for k := range 100 {
			text := fmt.Sprintf("entry %d of %d: the %s and the %s", k, i, filler[(i+k)%len(filler)], filler[(i*7+k)%len(filler)])
			if k%40 == 0 {
				text += ", " + forms[(i+k/40)%len(forms)]
			}
			journal += fmt.Sprintf(`{"type":"entry","time":"2025-03-01T10:%02d:%02dZ","m":"b","entry":{"id":"e%d","kind":"user","time":"2025-03-01T10:00:00Z","text":%q}}`+"\n", k/60, k%60, k, text)
		}
		if err := os.WriteFile(filepath.Join(store.Dir(), id+".jsonl"), []byte(journal), 0o600); err != nil {
			b.Fatal(err)
		}
	}
	ix, err := OpenCurrent(store, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	for b.Loop() {
		res, err := ix.Search(Query{Text: "whale", Limit: 50, Stem: stem})
		if err != nil || len(res.Hits) != 50 {
			b.Fatalf("%d hits, %v", len(res.Hits), err)
		}
	}
}
