package gitsync

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeSessions writes n journals of about size bytes each in m.
func writeSessions(b *testing.B, m *machine, n, size int) {
	b.Helper()
	dir := filepath.Join(m.o.DataDir, "sessions")
	for i := range n {
		var sb strings.Builder
		for t := 0; sb.Len() < size; t++ {
			sb.WriteString(turnText(i*1000 + t))
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("s%05d.jsonl", i)), []byte(sb.String()), 0o600); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkSyncNothingToDo is a sync of a machine with 10,000 sessions,
// all synced, on a local remote (target: 1 s).
func BenchmarkSyncNothingToDo(b *testing.B) {
	m := newMachine(b, newBare(b), "")
	writeSessions(b, m, 10000, 2000)
	m.sync(b)
	b.ResetTimer()
	for range b.N {
		if res := m.sync(b); res.Sent != 0 {
			b.Fatalf("%+v", res)
		}
	}
}

// BenchmarkSyncAfterTurn is the sync after one turn, of a machine with
// 1,000 sessions (target: 300 ms).
func BenchmarkSyncAfterTurn(b *testing.B) {
	m := newMachine(b, newBare(b), "")
	writeSessions(b, m, 1000, 2000)
	m.sync(b)
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		m.write(b, "s00007", turnText(1e6+i))
		b.StartTimer()
		if res := m.sync(b); res.Sent != 1 {
			b.Fatalf("%+v", res)
		}
	}
}

// BenchmarkFirstSync is the first sync of 2,000 sessions of 55 KB (110 MB)
// from one machine, then the first sync of a second machine that receives
// them (target: 60 s each).
func BenchmarkFirstSync(b *testing.B) {
	for range b.N {
		b.StopTimer()
		bare := newBare(b)
		m := newMachine(b, bare, "")
		writeSessions(b, m, 2000, 55000)
		b.StartTimer()
		m.sync(b)
		b.StopTimer()
		o := newMachine(b, bare, m.o.Identity)
		b.StartTimer()
		if res := o.sync(b); res.Received != 2000 {
			b.Fatalf("%+v", res)
		}
	}
}

// BenchmarkGrowth syncs one session after each of 1,000 turns and reports
// the remote's size over the journal's.
func BenchmarkGrowth(b *testing.B) {
	for range b.N {
		bare := newBare(b)
		m := newMachine(b, bare, "")
		for i := range 1000 {
			m.write(b, "s1", turnText(i))
			m.sync(b)
		}
		j, _ := os.Stat(filepath.Join(m.o.DataDir, "sessions", "s1.jsonl"))
		b.ReportMetric(float64(dirSize(b, filepath.Join(bare, "objects")))/float64(j.Size()), "remote/journal")
	}
}
