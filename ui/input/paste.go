package input

import (
	"slices"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// Pastes without bracketed paste. Bubble Tea v1 splits input that arrives
// in one read without bracketed paste (a paste in a terminal without it,
// fast typing over a slow link) at spaces, and makes each CR of it an
// enter. The input tells such text from typing, so that a key name in it is
// typed, not pressed, and an enter inside it is a line break, not a send.

// keyKind is what a key message was, as far as telling typing from a paste
// goes.
type keyKind uint8

const (
	keyOther keyKind = iota
	keySpace         // a space: Bubble Tea splits a paste without bracketed paste there
	keyPaste         // a paste, or several runes at once (see asText)
)

// kindOf is the kind of k, once asText has made it text or not.
func kindOf(k tea.KeyMsg) keyKind {
	switch {
	case k.Paste:
		return keyPaste
	case k.Type == tea.KeySpace:
		return keySpace
	}
	return keyOther
}

// asText makes a key message of several runes plain text, to be typed and
// never taken for a key: the letters "enter" or "ctrl+c" come as one
// message whose String() is that key's name, and would press it. As a
// paste, it matches no binding and is inserted. A CRLF line end in a paste
// becomes one line break, not two.
func asText(k tea.KeyMsg) tea.KeyMsg {
	if k.Type != tea.KeyRunes || k.Alt || (len(k.Runes) < 2 && !k.Paste) {
		return k
	}
	k.Paste = true
	if slices.Contains(k.Runes, '\r') {
		k.Runes = []rune(strings.ReplaceAll(string(k.Runes), "\r\n", "\n"))
	}
	return k
}

// Receive takes every key message before the screen handles it, and returns
// the key to handle: several runes at once become text (see asText), but
// not a paste: it is marked as a burst, whose paths are never taken for a
// dropped file, since only a bracketed paste can be one; the
// kinds of the last two keys are kept, for AfterPaste and AfterSpace; and
// an enter held by HoldSend becomes a line break, since a key came behind
// it.
func (m Model) Receive(k tea.KeyMsg) (Model, tea.KeyMsg) {
	if m.sendPending { // keys behind the enter: it was a line break in a paste
		m.sendPending = false
		m.ed.insert("\n")
		m = m.fit()
	}
	m.burst = !k.Paste && k.Type == tea.KeyRunes && len(k.Runes) > 1 && !k.Alt
	k = asText(k)
	m.keyBefore, m.lastKey = m.lastKey, kindOf(k)
	return m, k
}

// AfterPaste reports whether the key being handled came right behind pasted
// text (or several runes at once): an enter there may be a line break of
// the paste, and a y is not an answer.
func (m Model) AfterPaste() bool { return m.keyBefore == keyPaste }

// AfterSpace reports whether the key being handled came right behind a
// space, where Bubble Tea splits a paste without bracketed paste.
func (m Model) AfterSpace() bool { return m.keyBefore == keySpace }

// sendSettle is how long an enter right behind pasted text waits for keys
// behind it before it sends: far more than a terminal takes to deliver the
// rest of a paste, far less than a person notices.
const sendSettle = 40 * time.Millisecond

// SendDueMsg says the enter numbered seq has settled (see HoldSend).
type SendDueMsg struct{ seq int }

// HoldSend holds an enter right behind pasted text: it may be a line break
// inside a paste without bracketed paste. It sends, with SendDue, only if no
// key follows it within sendSettle.
func (m Model) HoldSend() (Model, tea.Cmd) {
	m.sendSeq++
	m.sendPending = true
	seq := m.sendSeq
	return m, tea.Tick(sendSettle, func(time.Time) tea.Msg { return SendDueMsg{seq: seq} })
}

// SendDue reports whether the enter of msg still stands, no key having come
// behind it: it is then no longer held, and the screen sends.
func (m Model) SendDue(msg SendDueMsg) (Model, bool) {
	if !m.sendPending || msg.seq != m.sendSeq {
		return m, false
	}
	m.sendPending = false
	return m, true
}
