package index

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"muse/session"
)

// BenchmarkCatchUpGrown100 is what a command pays to catch up when a sync
// engine has grown 100 journals of a history of 2,000 behind muse's back,
// each by five entries, written beside and renamed into place as sync
// engines write: the index notices them by their stamps and reads those
// 100 alone.
func BenchmarkCatchUpGrown100(b *testing.B) {
	store, err := session.Open(filepath.Join(b.TempDir(), "sessions"))
	if err != nil {
		b.Fatal(err)
	}
	const total, grown = 2000, 100
	journal := make([][]byte, total)
	ids := make([]string, total)
	for i := range total {
		ids[i] = fmt.Sprintf("20250301-090000-%016x", i)
		journal[i] = []byte(`{"v":2,"type":"header","time":"2025-03-01T09:00:00Z","id":"` + ids[i] + `","params":{"model":"m"}}` + "\n")
		journal[i] = append(journal[i], entries(i, 0, 20)...)
		if err := os.WriteFile(filepath.Join(store.Dir(), ids[i]+".jsonl"), journal[i], 0o600); err != nil {
			b.Fatal(err)
		}
	}
	ix, err := OpenCurrent(store, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer ix.Close()
	round := 0
	for b.Loop() {
		b.StopTimer()
		round++
		for i := range grown {
			journal[i] = append(journal[i], entries(i, 20+5*round, 5)...)
			tmp := filepath.Join(store.Dir(), ".syncthing."+ids[i]+".jsonl.tmp")
			if err := os.WriteFile(tmp, journal[i], 0o600); err != nil {
				b.Fatal(err)
			}
			if err := os.Rename(tmp, filepath.Join(store.Dir(), ids[i]+".jsonl")); err != nil {
				b.Fatal(err)
			}
		}
		b.StartTimer()
		if n, err := ix.Sync(nil); err != nil || n != grown {
			b.Fatalf("read %d journals (%v), want %d", n, err, grown)
		}
	}
}

// entries returns n user entries of session i, from number from on.
func entries(i, from, n int) []byte {
	var out []byte
	for k := from; k < from+n; k++ {
		out = append(out, fmt.Sprintf(`{"type":"entry","time":"2025-03-01T10:%02d:%02d.%09dZ","m":"b","entry":{"id":"e%d","kind":"user","time":"2025-03-01T10:00:00Z","text":"prompt %d of session %d about capybaras and lemurs, words to index"}}`+"\n", (k/60)%60, k%60, k, k, k, i)...)
	}
	return out
}
