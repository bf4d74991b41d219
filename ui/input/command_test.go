package input

import (
	"strings"
	"testing"
)

// A /command typed after text put in the input is found; one typed into
// the text, or words after it, are not.
func TestCommandAfter(t *testing.T) {
	m := sized(t, 80, 24).SetValue("demo:error please")
	if _, _, ok := m.CommandAfter(); ok {
		t.Error("a command in the text alone")
	}
	m = update(m, runes("/retry"))
	if c, g, ok := m.CommandAfter(); !ok || c != "/retry" || g != "demo:error please" {
		t.Errorf("CommandAfter = %q, %q, %v", c, g, ok)
	}
	m = update(sized(t, 80, 24).SetValue("see"), runes(" /etc/hosts is wrong"))
	if c, _, ok := m.CommandAfter(); ok {
		t.Errorf("a path taken for the command %q", c)
	}
	m = update(sized(t, 80, 24), runes("typed /retry"))
	if _, _, ok := m.CommandAfter(); ok {
		t.Error("a command after typed text: the prompt is the user's own")
	}
	kept := sized(t, 80, 24).KeepCommandAfter("put back/temperature 7", "put back")
	if c, _, ok := kept.CommandAfter(); !ok || c != "/temperature 7" {
		t.Errorf("a refused command kept: %q, %v", c, ok)
	}
}

// The command menu opens for a /command typed after a prompt put back, and
// taking one keeps the prompt before it.
func TestCommandMenuAfterPutBack(t *testing.T) {
	m := sized(t, 80, 24).SetValue("demo:error please")
	m = typeKeys(t, m, "/ret")
	if len(m.Hint()) == 0 || !strings.Contains(m.Hint()[0], "/retry") {
		t.Fatalf("no menu: %q", m.Hint())
	}
	m, ok := m.Enter()
	if ok || m.Value() != "demo:error please/retry " {
		t.Errorf("%q, %v", m.Value(), ok)
	}
	if c, _, found := m.CommandAfter(); !found || c != "/retry" {
		t.Errorf("CommandAfter: %q %v", c, found)
	}
}
