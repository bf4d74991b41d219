package ui

import (
	"testing"
	"unsafe"
)

// The chat screen's Model is a value: every message copies it, and each
// Update puts one copy on the heap (as a tea.Model), so its size is paid
// once per streamed delta (20,000 deltas of a long reply: 3.6 KB each was
// 75 MB allocated). The children share what never changes, such as their
// key maps, instead of copying it.
func TestModelStaysSmall(t *testing.T) {
	const most = 3000
	if n := unsafe.Sizeof(Model{}); n > most {
		t.Errorf("Model is %d bytes, over %d: keep a child's unchanging parts behind a pointer", n, most)
	}
}
