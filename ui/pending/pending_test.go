package pending

import (
	"strings"
	"testing"

	"muse/session"
	"muse/theme/themetest"
)

func file(name, data string) session.File {
	return session.File{Attachment: session.Attachment{Name: name, MediaType: "text/plain", Bytes: int64(len(data))}, Data: []byte(data)}
}

func newModel(t *testing.T, files ...session.File) Model {
	t.Helper()
	return New(themetest.Styles(t), files).SetSize(80)
}

// Add takes each file once, counting only the new ones; Append, for a
// queued prompt's files, takes them as they are.
func TestPendingAdd(t *testing.T) {
	m := newModel(t, file("a.md", "a"))
	m, added, _ := m.Add([]session.File{file("a.md", "a"), file("b.md", "b")}, nil)
	if added != 1 || m.Len() != 2 {
		t.Fatalf("added %d, %d waiting", added, m.Len())
	}
	if m = m.Append([]session.File{file("a.md", "a")}); m.Len() != 3 {
		t.Errorf("Append: %d waiting", m.Len())
	}
	if m = m.DropLast(1); m.Len() != 2 || m.DropLast(5).Len() != 2 {
		t.Errorf("DropLast: %d waiting", m.Len())
	}
}

// Detach removes one by its number, or all, and says why when it cannot.
func TestPendingDetach(t *testing.T) {
	m := newModel(t, file("a.md", "a"), file("b.md", "b"))
	for _, c := range []struct {
		n      int
		left   int
		notice string
	}{{5, 2, "no attachment 5: 2 attachments waiting"}, {1, 1, "removed a.md"}, {0, 0, "removed 1 attachment"}, {0, 0, "no attachment waits to be sent"}} {
		var notice string
		m, notice = m.Detach(c.n)
		if m.Len() != c.left || notice != c.notice {
			t.Errorf("detach %d: %d left, %q; want %d, %q", c.n, m.Len(), notice, c.left, c.notice)
		}
	}
}

// A copy made before a Detach keeps its files.
func TestPendingDetachDoesNotShare(t *testing.T) {
	m := newModel(t, file("a.md", "a"), file("b.md", "b"))
	before := m
	m, _ = m.Detach(1)
	if before.Files()[0].Name != "a.md" || m.Files()[0].Name != "b.md" {
		t.Errorf("before %+v, after %+v", before.Files(), m.Files())
	}
}

// The counter of files being prepared, and the prompt mentioned last.
func TestPendingPreparingAndMentioned(t *testing.T) {
	m := newModel(t)
	m = m.Begin().Begin().Done()
	if !m.Preparing() || m.Done().Preparing() || m.Done().Done().Preparing() {
		t.Errorf("preparing counts wrong")
	}
	m = m.Mention("see @a.md")
	if !m.Mentioned("see @a.md") || m.Mentioned("see @b.md") || m.Retyped().Mentioned("see @a.md") {
		t.Errorf("mentioned wrong")
	}
}

// The chips are numbered for /detach, and wrap to the width.
func TestPendingView(t *testing.T) {
	if v := newModel(t).View(); v != "" {
		t.Fatalf("empty: %q", v)
	}
	m := newModel(t, file("a.md", "a"), file("b.md", "b"), file("c.md", "c")).SetSize(40)
	v := m.View()
	if !strings.Contains(v, "[1] a.md") || !strings.Contains(v, "[3] c.md") || m.Height() != 2 {
		t.Errorf("chips at 40 columns, %d rows:\n%s", m.Height(), v)
	}
}

// A file a link led to keeps its target on its chip through Add, Detach
// and DropLast; Set, for files brought back, has none.
func TestPendingTargets(t *testing.T) {
	m := newModel(t, file("a.md", "a"))
	m, _, _ = m.Add([]session.File{file("README.md", "token"), file("b.md", "b")}, []string{"/home/u/.config/gh/hosts.yml"})
	if v := m.View(); !strings.Contains(v, "[2] README.md → /home/u/.config/gh/hosts.yml · 5 B") || strings.Contains(v, "b.md →") {
		t.Errorf("chips %q", v)
	}
	m, _ = m.Detach(1)
	if m.Target(0) != "/home/u/.config/gh/hosts.yml" || m.Target(1) != "" || !strings.Contains(m.View(), "[1] README.md →") {
		t.Errorf("after detaching the first: %q", m.View())
	}
	if d := m.DropLast(2); d.Target(0) != "" || d.Len() != 0 {
		t.Errorf("DropLast kept a target: %q", d.Target(0))
	}
	if s := m.Set(m.Files()); s.Target(0) != "" {
		t.Errorf("Set kept a target: %q", s.Target(0))
	}
}
