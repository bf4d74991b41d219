package index

import (
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
