package ui

import (
	"io"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// notifyAfter is how long a reply or an image turn must have taken for
// its end to be announced when the terminal is out of focus.
const notifyAfter = 5 * time.Second

// notifySeq is what tells the terminal, in mode (Options.Notify), that
// what is ready: the bell, or a desktop notification with OSC 9 or OSC
// 777, wrapped for tmux's passthrough inside tmux; "" when mode is off or
// unknown. The text is muse's own, never the server's.
func notifySeq(mode, what string, inTmux bool) string {
	text := "muse: " + what + " ready"
	var seq string
	switch mode {
	case "bell":
		return "\a" // tmux passes the bell on itself
	case "osc9":
		seq = "\x1b]9;" + text + "\a"
	case "osc777":
		seq = "\x1b]777;notify;muse;" + text + "\a"
	default:
		return ""
	}
	if inTmux {
		seq = "\x1bPtmux;" + strings.ReplaceAll(seq, "\x1b", "\x1b\x1b") + "\x1b\\"
	}
	return seq
}

// notifyEnd returns the command that tells the terminal that what (a
// "reply", an "image") is ready, when the terminal reported that it lost
// focus (blurred) and the turn took notifyAfter or more; nil
// otherwise. It writes through Options.Terminal, as copies do.
func (o Options) notifyEnd(blurred bool, took time.Duration, what string) tea.Cmd {
	if !blurred || took < notifyAfter {
		return nil
	}
	seq := notifySeq(o.Notify, what, o.Getenv("TMUX") != "")
	if seq == "" {
		return nil
	}
	w := o.Terminal
	return func() tea.Msg {
		_, _ = io.WriteString(w, seq) // a notice the terminal may ignore: nothing to report
		return nil
	}
}
