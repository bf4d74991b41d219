package sessions

import (
	"testing"

	"muse/session"
	"muse/theme"
	"muse/ui/picker"
)

// The picker opens over the chat, and its DoneMsg closes it.
func TestOpenAndDone(t *testing.T) {
	th, err := theme.New("dark", true, theme.WithProfile(0))
	if err != nil {
		t.Fatal(err)
	}
	store, err := session.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	m := New(store, nil, th).SetSize(80, 24)
	if m.IsOpen() {
		t.Fatal("open before Open")
	}
	m, cmd, _ := m.Open("")
	if !m.IsOpen() || cmd == nil {
		t.Fatalf("Open: open %v, command %v", m.IsOpen(), cmd != nil)
	}
	if m, _ = m.Update(picker.DoneMsg{}); m.IsOpen() {
		t.Error("DoneMsg left the picker open")
	}
}

// A change of the session's title is written in a command, which reports
// the id and what still waits; a session left, and one closed on
// quitting, report what became of them.
func TestSaveLeaveClose(t *testing.T) {
	store, err := session.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	w := session.NewWriter(store, session.Params{Model: "demo-chat", MaxTokens: 1024})
	if _, err := w.Append(session.Entry{Kind: session.KindUser, Text: "hello"}); err != nil {
		t.Fatal(err)
	}
	msg, ok := Save(w, func(w *session.Writer) error { return w.SetTitle("Greeting") })().(SavedMsg)
	if !ok || msg.Err != nil || msg.W != w || msg.ID == "" || msg.ID != w.ID() {
		t.Fatalf("Save: %#v", msg)
	}
	if got := Leave(w)(); got != nil {
		t.Errorf("Leave of a session saved: %#v", got)
	}
	w2, err := store.OpenWriter(msg.ID)
	if err != nil {
		t.Fatal(err)
	}
	loaded, ok := Load(store, msg.ID, "")().(LoadedMsg)
	if !ok || loaded.Err == nil {
		t.Errorf("Load of a session open for writing elsewhere: %#v", loaded)
	}
	closed, ok := Close(w2)().(ClosedMsg)
	if !ok || closed.Err != nil || closed.ID != msg.ID {
		t.Errorf("Close: %#v", closed)
	}
	loaded, ok = Load(store, msg.ID, "")().(LoadedMsg)
	if !ok || loaded.Err != nil || loaded.S.Title != "Greeting" || len(loaded.S.Entries) != 1 {
		t.Fatalf("Load: %#v", loaded)
	}
	if err := loaded.W.Close(); err != nil {
		t.Fatal(err)
	}
}
