package themes

import (
	"errors"
	"strings"
	"testing"

	"github.com/muesli/termenv"

	"muse/theme"
)

// /theme alone names the theme on; a built-in name is made at once; a
// file is read in the command, which brings why it could not be.
func TestCommand(t *testing.T) {
	on, err := theme.New("", true)
	if err != nil {
		t.Fatal(err)
	}
	notice, loaded, cmd := Command("", on, termenv.TrueColor)
	if !strings.HasPrefix(notice, "theme "+on.Name+" · ") || loaded != nil || cmd != nil {
		t.Errorf("alone: %q %v", notice, loaded)
	}
	notice, loaded, cmd = Command(on.Name, on, termenv.TrueColor)
	if notice != "" || loaded == nil || loaded.Err != nil || cmd != nil || !strings.HasPrefix(loaded.Notice(), "theme ") {
		t.Errorf("built-in: %q %+v", notice, loaded)
	}
	_, loaded, cmd = Command(t.TempDir()+"/missing.toml", on, termenv.TrueColor)
	if loaded != nil || cmd == nil {
		t.Fatal("a file is read in a command")
	}
	if msg := cmd().(LoadedMsg); msg.Err == nil || msg.Notice() == "" {
		t.Errorf("a missing file: %+v", msg)
	}
	if n := (LoadedMsg{Err: errors.New("bad \x1b[31m")}).Notice(); strings.Contains(n, "\x1b") {
		t.Errorf("unsanitized %q", n)
	}
}
