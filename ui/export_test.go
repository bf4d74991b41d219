package ui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// /export while a reply streams: the command works on a copy of the
// session, never on what the engine and the screen keep writing. Under
// -race (CI) a shared slice would be reported.
func TestExportWhileStreaming(t *testing.T) {
	h := newHarness(t, 5*time.Millisecond)
	tm := start(t, h.model(t, nil), 80, 24)
	send(tm, "demo:long keep going")
	waitFor(t, tm, "Part 1")
	path := filepath.Join(t.TempDir(), "out.md")
	send(tm, "/export "+path)
	waitFor(t, tm, "exported to")
	send(tm, "/export "+path+".2")
	waitFor(t, tm, "exported to")
	quit(t, tm)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), "demo:long keep going") {
		t.Errorf("export lacks the prompt:\n%s", data)
	}
}
