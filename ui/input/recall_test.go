package input

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"

	"muse/session/prompts"
	"muse/theme"
)

// ↑ never waits for the prompt history's disk: while an Add is held in its
// fsync (a slow disk, the history's lock held), the first ↑'s refresh and
// its step, and the next ↑, all end at once with the prompts saved before;
// once the write ends, a new walk finds the new prompt. Were any of them
// to wait for the lock, the test sees that goroutine parked on it and
// fails, rather than hanging.
func TestRecallWhileAWriteIsBlocked(t *testing.T) {
	h, err := prompts.Open(filepath.Join(t.TempDir(), "prompts.jsonl"), 100)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"oldest", "older"} {
		if err := h.Add("s1", p); err != nil {
			t.Fatal(err)
		}
	}
	entered, release := make(chan struct{}), make(chan struct{})
	h.SetSync(func(f *os.File) error {
		close(entered)
		<-release
		return f.Sync()
	})
	th, _ := theme.New("dark", true)
	m := New(th, testKeys(), h).SetSize(80, 24)
	added := make(chan tea.Msg)
	go func() { added <- m.Remember("s1", "newer")() }()
	<-entered // the write is held, with the lock

	up := tea.KeyMsg{Type: tea.KeyUp}
	var shown []string
	notWaiting(t, func() {
		m, cmd := m.Update(up)
		if cmd != nil {
			m, _ = m.Update(cmd()) // the refresh
		}
		shown = append(shown, m.Value())
		m, _ = m.Update(up)
		shown = append(shown, m.Value())
	})
	if strings.Join(shown, "|") != "older|oldest" {
		t.Errorf("↑ ↑ during the write showed %q", shown)
	}
	close(release)
	if msg := <-added; msg != nil {
		t.Fatalf("the write: %v", msg)
	}
	m = m.Reset().EndRecall()
	m, cmd := m.Update(up)
	if cmd != nil {
		m, _ = m.Update(cmd())
	}
	if m.Value() != "newer" {
		t.Errorf("↑ after the write shows %q", m.Value())
	}
}

// notWaiting runs do in a goroutine until it ends, and fails the test if
// that goroutine parks on a mutex meanwhile: a lock held across I/O.
func notWaiting(t *testing.T, do func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		do()
	}()
	buf := make([]byte, 1<<20)
	for {
		select {
		case <-done:
			return
		default:
		}
		n := runtime.Stack(buf, true)
		for _, g := range strings.Split(string(buf[:n]), "\n\n") {
			if strings.Contains(g, "[sync.Mutex.Lock") && strings.Contains(g, "notWaiting.func") {
				t.Fatalf("waits for a lock:\n%s", g)
			}
		}
		runtime.Gosched()
	}
}
