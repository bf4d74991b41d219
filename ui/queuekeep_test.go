package ui

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/muesli/termenv"

	"muse/session"
	"muse/theme"
)

// The queue is kept beside the session as it changes, and a screen that
// opens the session again, whole or from a preview (muse -c of a long
// session), shows it stopped, with its files: nothing is sent unasked.
// Another session's screen does not show it.
func TestQueueKeptForTheNextScreen(t *testing.T) {
	store, err := session.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	wr := session.NewWriter(store, session.Params{Model: "m", MaxTokens: 4096})
	var es []session.Entry
	for i := range 600 { // long enough to open from a preview
		es = append(es, session.Entry{Kind: session.KindUser, Text: fmt.Sprint("question ", i)})
	}
	if err := wr.AppendAll(es); err != nil {
		t.Fatal(err)
	}
	th, _ := theme.New("dark", true)
	m := New(Options{Theme: th, Profile: termenv.TrueColor, Writer: wr, Store: store})
	pdf := []byte("%PDF-1.4 queued")
	m.comp = m.comp.SetPending(m.comp.Pending().Set([]session.File{{Attachment: session.Attachment{Name: "q.pdf", MediaType: "application/pdf"}, Data: pdf}}))
	m.comp, _ = m.comp.Enqueue(m.comp.Prompt("first later"), m.sessID, m.writer)
	var save tea.Cmd
	m.comp, save = m.comp.Enqueue(m.comp.Prompt("second later"), m.sessID, m.writer) // the saves it batched, the last run here
	if msg := save(); msg != nil {
		t.Fatalf("save: %+v", msg)
	}
	id := wr.ID()
	if err := wr.Close(); err != nil {
		t.Fatal(err)
	}

	check := func(name string, got Model) {
		t.Helper()
		if got.comp.Queue().Len() != 2 || got.comp.Queue().Prompts()[0].Text != "first later" || got.comp.Queue().Prompts()[1].Text != "second later" || !got.comp.Queue().Stopped() {
			t.Fatalf("%s: queue %+v, stopped %v", name, got.comp.Queue(), got.comp.Queue().Stopped())
		}
		if f := got.comp.Queue().Prompts()[0].Files; len(f) != 1 || f[0].Name != "q.pdf" || !bytes.Equal(f[0].Data, pdf) {
			t.Errorf("%s: the first prompt's files: %+v", name, f)
		}
		if !strings.Contains(got.status.Notice(), "2 queued prompts from before, not sent") {
			t.Errorf("%s: notice %q", name, got.status.Notice())
		}
	}
	w, err := store.OpenWriter(id)
	if err != nil {
		t.Fatal(err)
	}
	check("opened whole", New(Options{Theme: th, Profile: termenv.TrueColor, Writer: w, Store: store}))
	w.Close()

	w, preview, err := store.OpenWriterAsync(id, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	if len(preview.Entries) >= len(es) {
		t.Fatalf("the preview holds all %d entries", len(preview.Entries))
	}
	pm := New(Options{Theme: th, Profile: termenv.TrueColor, Writer: w, Preview: preview, Store: store})
	if !pm.loading || pm.comp.Queue().Len() != 0 {
		t.Fatalf("from a preview: loading %v, queue %+v before the replay", pm.loading, pm.comp.Queue())
	}
	msg := pm.Init()()
	next, _ := pm.Update(msg)
	check("from a preview", next.(Model))

	// A new session on the same screen does not carry the queue.
	fw := session.NewWriter(store, session.Params{Model: "m"})
	fresh := next.(Model).resumeFrom(fw, fw.Snapshot())
	if fresh.comp.Queue().Len() != 0 || fresh.comp.Queue().Stopped() {
		t.Errorf("a new session shows the old one's queue: %+v", fresh.comp.Queue())
	}
}
