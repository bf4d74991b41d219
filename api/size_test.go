package api

import "testing"

// TestSize says sizes and limits as every message of muse says them.
func TestSize(t *testing.T) {
	for n, want := range map[int64]string{
		0: "0 bytes", 100: "100 bytes", 1023: "1023 bytes", 1 << 10: "1 KiB", 1536: "1.5 KiB",
		64 << 10: "64 KiB", 1 << 20: "1 MiB", 1536 << 10: "1.5 MiB", 128 << 20: "128 MiB",
	} {
		if got := SizeText(n); got != want {
			t.Errorf("SizeText(%d) = %q, want %q", n, got, want)
		}
	}
}
